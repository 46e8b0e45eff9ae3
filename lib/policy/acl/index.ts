/** The ACL half of the policy core. */
export * from "./model";
export * from "./errors";
export * from "./operations";
export * from "./principal";
export { AclIndex, bindingKey, type AclGroup, type IndexedAcl } from "./acl-index";
export { AclStore, AclStoreBuilder } from "./acl-store";
export {
  ACL_STORE_SORTS,
  DEFAULT_STORE_PAGE_SIZE,
  fromKafkaFilter,
  type AclStorePage,
  type AclStorePageRequest,
  type AclStoreQuery,
  type AclStoreSort,
} from "./acl-store-query";
export {
  authorize,
  authorizeByResourceType,
  authorizeInScanOrder,
  scanOrder,
  isSuperUser,
  HARDCODE_RESOURCE_NAME,
} from "./authorize";
export * from "./filter";
export * from "./validate";
export * from "./host";
export * from "./parse";
export * from "./effective";
export * from "./roles";
export * from "./lint";
export * from "./plan";
export * from "./plan-universe";
export { cleanBinding, distinctBindings, findAclEntry } from "./acl-set";
export { bindingsOnlyItHolds, expireGrants, type ExpiryResult, type GrantExpiry, type GrantState } from "./grants";
export { blastRadius, type BlastRadiusInput } from "./blast-radius";
export {
  BlastRadius,
  type AclDecisionChange,
  type BlastRule,
  type BlastRuleKind,
  type BlastSummary,
} from "./blast-radius-result";
