/**
 * Plans for ACL changes.
 *
 * computePlan: what a change request means against the current ACLs.
 * - `create` / `delete` lists: creates not yet held, deletes that are held; a create
 *   already held and a delete not held are no-ops; a binding in both lists is refused as
 *   invalid (the plan would not change it, and which list wins is a guess).
 * - `desired` + `add-only` (the default mode): create what desired has and current lacks;
 *   never delete.
 * - `desired` + `sync`: also delete the current bindings inside `scope` that desired
 *   lacks. A binding is inside the scope when its principal is one of
 *   `scope.principals` AND its resource name starts with `scope.resourcePrefix` (each
 *   part only when given: both narrow, which is the safer reading). Without a scope that
 *   narrows anything, or with no valid binding in `desired`, sync deletes nothing and
 *   the plan is `refused` (the creates of add-only still stand). Desired bindings outside the scope
 *   are still created: the scope limits what sync may delete, not what one asks for.
 * - Every binding to be created goes through validateNewAcl; invalid ones are reported
 *   (with Kafka's or kafka-acls.sh's message) and not created.
 * - Kafka keeps ACLs as a set: duplicates count once (the first occurrence).
 * - Order, deterministic: creates and invalid bindings in input order; deletes in input
 *   order (lists) or in the current set's order (sync).
 *
 * The blast radius of a plan (every decision it flips) is in blast-radius.ts; the
 * universe it is computed over in plan-universe.ts.
 */
import type { AclBinding } from "../types";
import { bindingKey, type AclIndex } from "./acl-index";
import { CurrentSet, cleanBinding, distinctBindings } from "./acl-set";
import { blastRadius } from "./blast-radius";
import type { BlastRadius } from "./blast-radius-result";
import { PolicyInputError } from "./errors";
import type { AuthorizerConfig } from "./model";
import type { PlanUniverse } from "./plan-universe";
import { validateNewAcl } from "./validate";

export type PlanMode = "add-only" | "sync";

export interface PlanScope {
  /** Exact principal strings (`User:*` only matches bindings whose principal is `User:*`). */
  principals?: readonly string[];
  /** Resource names starting with this (any pattern type; LITERAL `*` is a name like others). */
  resourcePrefix?: string;
}

export interface PlanInput {
  current: AclIndex | readonly AclBinding[];
  /** Bindings to create; arbitrary values are accepted and validated (invalid ones reported). */
  create?: readonly unknown[];
  delete?: readonly AclBinding[];
  /** The desired bindings (instead of create/delete); validated like `create`. */
  desired?: readonly unknown[];
  /** With `desired`; default `add-only`. */
  mode?: PlanMode;
  /** With `desired` and `sync`: the part of the ACL set sync manages. */
  scope?: PlanScope;
  /** `exceedsMaxDeletes` is set when the plan deletes more than this. */
  maxDeletes?: number;
}

export type PlanRefusalCode = "SYNC_WITHOUT_SCOPE" | "SYNC_WITHOUT_DESIRED";

export interface PlanInvalid {
  binding: unknown;
  message: string;
  /** Which input list and position it came from. */
  from: "create" | "desired";
  index: number;
}

export interface AclPlan {
  create: AclBinding[];
  delete: AclBinding[];
  invalid: PlanInvalid[];
  /** Creates the current set already holds and deletes it does not: nothing to do. */
  noOps: AclBinding[];
  refused?: { code: PlanRefusalCode; message: string };
  exceedsMaxDeletes: boolean;
}

function isBindingShaped(value: unknown): value is AclBinding {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  return ["resourceType", "resourceName", "patternType", "principal", "host", "operation", "permissionType"].every(
    (f) => typeof v[f] === "string",
  );
}

/** Whether sync may delete `b`: inside every part of the scope that is given. */
export function inPlanScope(b: AclBinding, scope: PlanScope): boolean {
  if (scope.principals !== undefined && scope.principals.length > 0 && !scope.principals.includes(b.principal))
    return false;
  if (scope.resourcePrefix !== undefined && !b.resourceName.startsWith(scope.resourcePrefix)) return false;
  return true;
}

function scopeNarrows(scope: PlanScope | undefined): boolean {
  if (scope === undefined) return false;
  return (
    (scope.principals !== undefined && scope.principals.length > 0) ||
    (scope.resourcePrefix !== undefined && scope.resourcePrefix.length > 0)
  );
}

/**
 * Validate and de-duplicate the bindings asked for: the valid ones (first occurrence) and
 * the invalid ones with their message (first occurrence of each).
 */
function sortRequested(
  list: readonly unknown[],
  from: PlanInvalid["from"],
): { valid: { binding: AclBinding; index: number }[]; invalid: PlanInvalid[]; keys: Set<string> } {
  const valid: { binding: AclBinding; index: number }[] = [];
  const invalid: PlanInvalid[] = [];
  const keys = new Set<string>();
  const seenInvalid = new Set<string>();
  list.forEach((value, index) => {
    const shaped = isBindingShaped(value);
    const key = shaped ? bindingKey(value) : null;
    const v = validateNewAcl(value);
    if (!v.ok) {
      const dedupe = key ?? `#${index}`;
      if (!seenInvalid.has(dedupe)) {
        seenInvalid.add(dedupe);
        invalid.push({ binding: value, message: v.message, from, index });
      }
      if (key !== null) keys.add(key);
      return;
    }
    if (keys.has(key!)) return;
    keys.add(key!);
    valid.push({ binding: cleanBinding(value as AclBinding), index });
  });
  return { valid, invalid, keys };
}

/** What the change request means against the current ACLs (see the module comment). */
export function computePlan(input: PlanInput): AclPlan {
  const hasLists = input.create !== undefined || input.delete !== undefined;
  if (hasLists && input.desired !== undefined)
    throw new PolicyInputError("give either create/delete lists or desired, not both");
  if (input.desired === undefined && input.mode !== undefined)
    throw new PolicyInputError("mode applies to desired, which is missing");
  if (input.desired === undefined && input.scope !== undefined)
    throw new PolicyInputError("scope applies to desired with mode sync, and desired is missing");
  const create: AclBinding[] = [];
  const del: AclBinding[] = [];
  const noOps: AclBinding[] = [];
  let invalid: PlanInvalid[];
  let refused: AclPlan["refused"];

  if (input.desired === undefined) {
    const requested = sortRequested(input.create ?? [], "create");
    invalid = requested.invalid;
    const deletes = distinctBindings(input.delete ?? []);
    const deleteKeys = new Set(deletes.map(bindingKey));
    const current = new CurrentSet(input.current, [...requested.valid.map((v) => v.binding), ...deletes]);
    for (const { binding: b, index } of requested.valid) {
      if (deleteKeys.has(bindingKey(b))) {
        invalid.push({
          binding: input.create![index],
          message: "The binding is both in create and in delete: give it in one list only.",
          from: "create",
          index,
        });
      } else if (current.has(b)) noOps.push(b);
      else create.push(b);
    }
    invalid.sort((a, b) => a.index - b.index);
    for (const b of deletes) {
      if (requested.keys.has(bindingKey(b))) continue;
      if (current.has(b)) del.push(cleanBinding(b));
      else noOps.push(cleanBinding(b));
    }
  } else {
    const requested = sortRequested(input.desired, "desired");
    invalid = requested.invalid;
    const current = new CurrentSet(
      input.current,
      requested.valid.map((v) => v.binding),
    );
    for (const { binding: b } of requested.valid) (current.has(b) ? noOps : create).push(b);
    if ((input.mode ?? "add-only") === "sync") {
      if (!scopeNarrows(input.scope)) {
        refused = {
          code: "SYNC_WITHOUT_SCOPE",
          message:
            "sync deletes only inside a scope (principals and/or resourcePrefix); without one it deletes nothing.",
        };
      } else if (requested.valid.length === 0) {
        refused = {
          code: "SYNC_WITHOUT_DESIRED",
          message:
            input.desired.length === 0
              ? "sync with an empty desired list would delete every binding in the scope; it deletes nothing."
              : "sync with no valid desired binding would delete every binding in the scope; it deletes nothing.",
        };
      } else {
        for (const b of current.distinct()) {
          if (inPlanScope(b, input.scope!) && !requested.keys.has(bindingKey(b))) del.push(cleanBinding(b));
        }
      }
    }
  }
  const plan: AclPlan = {
    create,
    delete: del,
    invalid,
    noOps,
    exceedsMaxDeletes: input.maxDeletes !== undefined && del.length > input.maxDeletes,
  };
  if (refused !== undefined) plan.refused = refused;
  return plan;
}

/** The ACL set after the plan: the current set without the deletes, then the creates. */
export function applyPlan(
  current: readonly AclBinding[],
  change: { create?: readonly AclBinding[]; delete?: readonly AclBinding[] },
): AclBinding[] {
  const gone = new Set((change.delete ?? []).map(bindingKey));
  const kept = distinctBindings(current).filter((b) => !gone.has(bindingKey(b)));
  const present = new Set(kept.map(bindingKey));
  for (const b of distinctBindings(change.create ?? [])) if (!present.has(bindingKey(b))) kept.push(b);
  return kept;
}

/** computePlan, then the blast radius of its creates and deletes. */
export function planWithBlastRadius(input: PlanInput & { universe: PlanUniverse; config?: AuthorizerConfig }): {
  plan: AclPlan;
  blast: BlastRadius;
} {
  const plan = computePlan(input);
  const blast = blastRadius({
    before: input.current,
    change: { create: plan.create, delete: plan.delete },
    universe: input.universe,
    config: input.config,
  });
  return { plan, blast };
}
