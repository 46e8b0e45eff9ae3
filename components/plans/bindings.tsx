/** The plan views' binding rows: the console's one ACL row component (components/acls/acl-row.tsx). */
export { aclColumns, AclBindingsTable as BindingsTable, bindingRowKey } from "@/components/acls/acl-row";
