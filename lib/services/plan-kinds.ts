/**
 * Every kind of sealed plan the console makes (lib/services/plans.ts looks kinds up
 * here). A kind implements PlanKind (plan-kind.ts); add it to this list.
 */
import "server-only";
import type { AnyPlanKind } from "./plan-kind";
import { ACL_PLAN_KINDS } from "./acl-plans";
import { aclImportPlanKind } from "./acl-import";
import { quotaAlterPlanKind } from "./quota-plans";
import { scramChangePlanKind } from "./scram-plans";

export const PLAN_KINDS: readonly AnyPlanKind[] = [
  ...ACL_PLAN_KINDS,
  aclImportPlanKind,
  quotaAlterPlanKind,
  scramChangePlanKind,
];
