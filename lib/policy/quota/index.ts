/**
 * Client quotas: which quota Kafka applies (8 levels, IP), DescribeClientQuotas filters, AlterClientQuotas validation,
 * and the console's KIP-55 budget.
 */
export {
  QUOTA_LEVELS,
  QuotaIndex,
  quotaUserOf,
  resolveClientQuota,
  resolveClientQuotas,
  resolveIpQuota,
  sanitizeUser,
} from "./resolve";
export type {
  ClientQuotaResolution,
  IpQuotaResolution,
  QuotaCandidate,
  QuotaLevel,
  QuotaLevelNumber,
  QuotaMetricTags,
} from "./resolve";
export { describeClientQuotas, groupByEntity, QUOTA_MATCH_TYPES } from "./filter";
export type {
  DescribedQuotaEntry,
  DescribeQuotasResult,
  QuotaFilter,
  QuotaFilterComponent,
  QuotaMatchType,
} from "./filter";
export { quotaKeysFor, validateQuotaAlteration } from "./alter";
export type { QuotaAlterOp, QuotaAlterOptions, QuotaAlterResult } from "./alter";
export { applyQuotaChange, budgetFindings, checkBudgetChange, userBudget } from "./budget";
export type { BudgetCheck, BudgetViolation, BudgetWarning, QuotaChange, UserBudgetLine } from "./budget";
export {
  DEFAULT_ENTITY_LABEL,
  entityId,
  entityKind,
  formatEntity,
  javaEntityString,
  normalizeEntity,
  sameEntity,
} from "./entity";
export type { EntityKind } from "./entity";
export { canonicalIp, isIpLiteral } from "./ip";
