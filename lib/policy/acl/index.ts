/** The ACL half of the policy core. */
export * from "./model";
export * from "./errors";
export * from "./operations";
export * from "./principal";
export { AclIndex, bindingKey, type AclGroup, type IndexedAcl } from "./acl-index";
export { authorize, authorizeByResourceType, authorizeInScanOrder, scanOrder, isSuperUser, HARDCODE_RESOURCE_NAME } from "./authorize";
export * from "./filter";
export * from "./validate";
export * from "./host";
export * from "./parse";
export * from "./effective";
export * from "./roles";
export * from "./lint";
