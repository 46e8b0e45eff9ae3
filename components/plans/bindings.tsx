/** The plan views' binding rows: the console's one ACL row component (components/acls/acl-row.tsx). */
export { AclBindingCells as BindingCells, AclBindingHeaders as BindingHeaders, AclBindingsTable as BindingsTable, bindingRowKey } from "@/components/acls/acl-row";
