/** The ACL binding cells every ACL table uses (the page's list, lint findings, plans). */
export { BindingCells, BindingHeaders, BindingsTable, bindingRowKey } from "@/components/plans/bindings";
