/**
 * Plans for ACL changes, and their blast radius: every authorization decision of the
 * cluster's universe that a change flips.
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
 * blastRadius: exactly the requests (principal x host x resource x every operation
 * kafka-acls.sh allows on that resource type, ALL excluded) of the universe whose
 * `authorize` decision differs before and after the change — without deciding all of
 * them. Why the shortcut is exact:
 * - A decision depends on the ACLs that apply to the resource (StandardAuthorizer's
 *   view), through three facts: a matching DENY, a matching ALLOW, and whether the
 *   resource has any ACL at all. An ACL in the change (created or deleted) can only flip
 *   a request if it applies to the resource and matches the request (principal or
 *   `User:*`, host or `*`, its operation mask), or if it is the first ACL on the resource
 *   or the last one gone — which flips "default" (allow.everyone.if.no.acl.found) to
 *   "no ACL matched"; that only changes a decision when allow.everyone.if.no.acl.found
 *   is true, and then for every principal, host and operation on that resource.
 * - For the operations in question, principals that no ACL on the resource about those
 *   operations names (before or after) are decided alike: ACLs compare principals as
 *   whole strings, so only `User:*` ACLs match them, and an ACL whose operation mask
 *   misses an operation plays no part in its decision. One of them stands for all; the
 *   same for hosts. Super users never change. So per resource the work is (named
 *   principals + 1) x (named hosts + 1) x operations, each decided with
 *   `authorizeInScanOrder` over the resource's ACL groups before and after.
 * - Nothing is indexed twice: from a list, only the ACLs that can apply to a touched
 *   resource are indexed (a caller's AclIndex of the whole set is used as it is); after
 *   the change, a resource's groups are its groups before, less those holding a deleted
 *   ACL, plus the groups of a small index of the created ACLs and those groups' remains.
 * The result is held per resource and principal class (equal changes stored once), so
 * counting, summarising and paging never materialise rows that are not asked for: a
 * DENY `User:*` READ on LITERAL `*` over 10,000 topics and 5,000 principals flips 34
 * million decisions.
 *
 * For the console: `consoleUniverse` gathers the universe (with one host no ACL names,
 * standing for any other host); `BlastRadius.page` pages through the rows, `summary`
 * counts them per principal and per resource, `rules` states what the change also does
 * to principals and resources not yet seen.
 *
 * Rows are ordered by resource type (RESOURCE_TYPES order), resource name, principal,
 * host (names in UTF-16 code unit order) and operation (SUPPORTED_OPERATIONS order).
 */
import { RESOURCE_TYPES, WILDCARD_HOST, WILDCARD_PRINCIPAL, WILDCARD_RESOURCE, type AclBinding, type AclOperation, type ResourceType } from "../types";
import { AclIndex, bindingKey, type AclGroup, type IndexedAcl } from "./acl-index";
import { matchMasksInScanOrder, scanOrder, type MatchMasks } from "./authorize";
import { PolicyInputError } from "./errors";
import type { AuthorizerConfig, Decision } from "./model";
import { SUPPORTED_OPERATIONS, allowedOperationsMask, deniedOperationsMask, operationBit } from "./operations";
import { validateNewAcl } from "./validate";

// ---- the plan ------------------------------------------------------------------------

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

/**
 * Membership in the current ACL set, by the binding's seven fields. From a list, one pass
 * keeps only the ACLs named like one of the bindings that will be looked up (no key
 * string, no copy of the whole set).
 */
class CurrentSet {
  private byName: Map<string, AclBinding[]> | null = null;

  constructor(
    readonly source: AclIndex | readonly AclBinding[],
    private readonly wanted: readonly AclBinding[],
  ) {}

  has(b: AclBinding): boolean {
    if (this.source instanceof AclIndex) return findAclEntry(this.source, b) !== null;
    if (this.byName === null) {
      this.byName = new Map(this.wanted.map((w) => [w.resourceName, []]));
      for (const a of this.source) this.byName.get(a.resourceName)?.push(a);
    }
    const same = this.byName.get(b.resourceName);
    if (same === undefined) throw new Error("CurrentSet: looked up a binding it was not told about");
    return same.some((a) => sameBinding(a, b));
  }

  /** The distinct current bindings, first occurrence order. */
  distinct(): readonly AclBinding[] {
    return this.source instanceof AclIndex ? this.source.acls : distinctBindings(this.source);
  }
}

function sameBinding(a: AclBinding, b: AclBinding): boolean {
  return (
    a.resourceName === b.resourceName &&
    a.principal === b.principal &&
    a.operation === b.operation &&
    a.permissionType === b.permissionType &&
    a.host === b.host &&
    a.patternType === b.patternType &&
    a.resourceType === b.resourceType
  );
}

/** The stored entry equal to `b` (all seven fields), or null. */
export function findAclEntry(index: AclIndex, b: AclBinding): IndexedAcl | null {
  return findAclGroupEntry(index, b)?.entry ?? null;
}

/** The stored entry equal to `b` and the group (name, pattern type) holding it, or null. */
function findAclGroupEntry(index: AclIndex, b: AclBinding): { group: AclGroup; entry: IndexedAcl } | null {
  const section = index.section(b.resourceType);
  const at = section.positionByName.get(b.resourceName);
  if (at === undefined) return null;
  const node = section.names[at]!;
  const group = b.patternType === "LITERAL" ? node.literal : node.prefixed;
  if (group === null) return null;
  const list = group.byPrincipal === null ? group.entries : (group.byPrincipal.get(b.principal)?.get(b.host) ?? []);
  for (const entry of list) {
    const x = entry.binding;
    if (x.operation === b.operation && x.permissionType === b.permissionType && x.principal === b.principal && x.host === b.host) return { group, entry };
  }
  return null;
}

/** The bindings once each, first occurrence order (Kafka's ACL set). */
export function distinctBindings(bindings: readonly AclBinding[]): AclBinding[] {
  const seen = new Set<string>();
  const out: AclBinding[] = [];
  for (const b of bindings) {
    const k = bindingKey(b);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(b);
  }
  return out;
}

function isBindingShaped(value: unknown): value is AclBinding {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  return ["resourceType", "resourceName", "patternType", "principal", "host", "operation", "permissionType"].every((f) => typeof v[f] === "string");
}

/** Only the seven fields, in the contract's order (input objects may carry more). */
function cleanBinding(b: AclBinding): AclBinding {
  return {
    resourceType: b.resourceType,
    resourceName: b.resourceName,
    patternType: b.patternType,
    principal: b.principal,
    host: b.host,
    operation: b.operation,
    permissionType: b.permissionType,
  };
}

/** Whether sync may delete `b`: inside every part of the scope that is given. */
export function inPlanScope(b: AclBinding, scope: PlanScope): boolean {
  if (scope.principals !== undefined && scope.principals.length > 0 && !scope.principals.includes(b.principal)) return false;
  if (scope.resourcePrefix !== undefined && !b.resourceName.startsWith(scope.resourcePrefix)) return false;
  return true;
}

function scopeNarrows(scope: PlanScope | undefined): boolean {
  if (scope === undefined) return false;
  return (scope.principals !== undefined && scope.principals.length > 0) || (scope.resourcePrefix !== undefined && scope.resourcePrefix.length > 0);
}

/**
 * Validate and de-duplicate the bindings asked for: the valid ones (first occurrence) and
 * the invalid ones with their message (first occurrence of each).
 */
function sortRequested(list: readonly unknown[], from: PlanInvalid["from"]): { valid: { binding: AclBinding; index: number }[]; invalid: PlanInvalid[]; keys: Set<string> } {
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
  if (hasLists && input.desired !== undefined) throw new PolicyInputError("give either create/delete lists or desired, not both");
  if (input.desired === undefined && input.mode !== undefined) throw new PolicyInputError("mode applies to desired, which is missing");
  if (input.desired === undefined && input.scope !== undefined) throw new PolicyInputError("scope applies to desired with mode sync, and desired is missing");
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
        invalid.push({ binding: input.create![index], message: "The binding is both in create and in delete: give it in one list only.", from: "create", index });
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
          message: "sync deletes only inside a scope (principals and/or resourcePrefix); without one it deletes nothing.",
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
  const plan: AclPlan = { create, delete: del, invalid, noOps, exceedsMaxDeletes: input.maxDeletes !== undefined && del.length > input.maxDeletes };
  if (refused !== undefined) plan.refused = refused;
  return plan;
}

/** The ACL set after the plan: the current set without the deletes, then the creates. */
export function applyPlan(current: readonly AclBinding[], change: { create?: readonly AclBinding[]; delete?: readonly AclBinding[] }): AclBinding[] {
  const gone = new Set((change.delete ?? []).map(bindingKey));
  const kept = distinctBindings(current).filter((b) => !gone.has(bindingKey(b)));
  const present = new Set(kept.map(bindingKey));
  for (const b of distinctBindings(change.create ?? [])) if (!present.has(bindingKey(b))) kept.push(b);
  return kept;
}

// ---- the universe ----------------------------------------------------------------------

export interface PlanResource {
  resourceType: ResourceType;
  resourceName: string;
}

/** The requests a blast radius is computed over: every principal x host x resource x operation. */
export interface PlanUniverse {
  principals: readonly string[];
  /** Client addresses; the console adds one host no ACL names, standing for "any other host". */
  hosts: readonly string[];
  resources: readonly PlanResource[];
}

export interface ConsoleUniverseSources {
  /** The ACL sets before and after (principals, hosts and names in them). */
  acls: readonly (readonly AclBinding[])[];
  superUsers?: Iterable<string>;
  /** SCRAM user names (`alice`): principals `User:alice`. */
  scramUsers?: Iterable<string>;
  /** Principals of console sessions, `Type:name`. */
  sessionPrincipals?: Iterable<string>;
  topics?: Iterable<string>;
  groups?: Iterable<string>;
  transactionalIds?: Iterable<string>;
}

/** The label of the host that stands for every client address no ACL names. */
export const ANY_OTHER_HOST = "<any other host>";

/**
 * The console's universe: every principal it knows (named in the ACLs before or after —
 * not `User:*`, which the rules cover —, super users, SCRAM users, session principals),
 * every host named in an ACL plus one no ACL names (`otherHost`, normally
 * ANY_OTHER_HOST), and every existing resource (topics, groups and transactional ids of
 * the cluster, LITERAL names in the ACLs other than `*`, the cluster, USER and
 * DELEGATION_TOKEN names in the ACLs).
 */
export function consoleUniverse(sources: ConsoleUniverseSources): { universe: PlanUniverse; otherHost: string } {
  const principals = new Set<string>();
  const hosts = new Set<string>();
  const resources = new Map<string, PlanResource>();
  const addResource = (resourceType: ResourceType, resourceName: string) => {
    resources.set(`${resourceType}\u0000${resourceName}`, { resourceType, resourceName });
  };
  for (const list of sources.acls) {
    for (const b of list) {
      if (b.principal !== WILDCARD_PRINCIPAL) principals.add(b.principal);
      if (b.host !== WILDCARD_HOST) hosts.add(b.host);
      if (b.patternType === "LITERAL" && b.resourceName !== WILDCARD_RESOURCE) addResource(b.resourceType, b.resourceName);
    }
  }
  for (const p of sources.superUsers ?? []) principals.add(p);
  for (const u of sources.scramUsers ?? []) principals.add(`User:${u}`);
  for (const p of sources.sessionPrincipals ?? []) principals.add(p);
  for (const t of sources.topics ?? []) addResource("TOPIC", t);
  for (const g of sources.groups ?? []) addResource("GROUP", g);
  for (const t of sources.transactionalIds ?? []) addResource("TRANSACTIONAL_ID", t);
  addResource("CLUSTER", "kafka-cluster");
  let otherHost = ANY_OTHER_HOST;
  while (hosts.has(otherHost)) otherHost += "'";
  hosts.add(otherHost);
  return { universe: { principals: [...principals], hosts: [...hosts], resources: [...resources.values()] }, otherHost };
}

// ---- the blast radius -----------------------------------------------------------------

/** One request whose decision the change flips. */
export interface AclDecisionChange {
  principal: string;
  host: string;
  resourceType: ResourceType;
  resourceName: string;
  operation: AclOperation;
  before: Decision;
  after: Decision;
}

export interface BlastRadiusInput {
  /** The current ACLs (an index built once, or the list). */
  before: AclIndex | readonly AclBinding[];
  /** The change: applied as "delete, then create" (see applyPlan). Give this or `after`. */
  change?: { create?: readonly AclBinding[]; delete?: readonly AclBinding[] };
  /** The whole ACL set after the change. */
  after?: readonly AclBinding[];
  universe: PlanUniverse;
  config?: AuthorizerConfig;
}

export type BlastRuleKind = "wildcard-principal" | "wildcard-resource" | "prefixed-resource";

/** What a change also does beyond the universe: to principals and resources not yet seen. */
export interface BlastRule {
  kind: BlastRuleKind;
  change: "create" | "delete";
  binding: AclBinding;
  /** "and every principal not yet seen", "and every TOPIC not yet seen whose name starts with `orders`". */
  text: string;
}

export interface BlastSummary {
  changes: number;
  /** DENIED -> ALLOWED. */
  gained: number;
  /** ALLOWED -> DENIED. */
  lost: number;
  principals: number;
  resources: number;
  byPrincipal: { principal: string; gained: number; lost: number }[];
  byResource: { resourceType: ResourceType; resourceName: string; gained: number; lost: number }[];
}

interface OpCell {
  operation: AclOperation;
  before: Decision;
  after: Decision;
}

/** The changes of one principal (or of every principal of a class) on one resource. */
interface PrincipalChanges {
  /** On hosts that ACLs on the resource name, ascending. */
  hostCells: { host: string; cells: OpCell[] }[];
  /** On each universe host no ACL on the resource names. */
  otherHostCells: OpCell[];
  rows: number;
  gained: number;
  lost: number;
}

interface Block {
  resourceType: ResourceType;
  resourceName: string;
  /** Universe hosts named by ACLs on the resource: the other-host cells skip them. */
  namedHosts: ReadonlySet<string>;
  /** Ranks (in the sorted principal list) of principals ACLs on the resource name: `others` skips them. */
  namedRanks: Int32Array;
  named: Map<number, PrincipalChanges>;
  /** The changes of every principal not in namedRanks, or null. */
  others: PrincipalChanges | null;
  othersCount: number;
  rows: number;
  gained: number;
  lost: number;
}

interface Delta {
  binding: AclBinding;
  change: "create" | "delete";
  mask: number;
}

/** Principals [rank, to) in order: one named principal, or a run of principals no ACL on the resource names. */
interface Segment {
  rank: number;
  to: number;
  changes: PrincipalChanges;
  run: boolean;
}

interface Row {
  host: string;
  operation: AclOperation;
  before: Decision;
  after: Decision;
}

const ALL_OPS_MASK = -1;
/** Above every operation bit: a cell-list key is (type x range + flipped bits) x range + bits ALLOWED after. */
const OP_KEY_RANGE = 1 << 14;
const NO_CELLS: OpCell[] = [];

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function lowerBound(sorted: readonly string[], target: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function ruleText(b: AclBinding): { kind: BlastRuleKind; text: string }[] {
  const out: { kind: BlastRuleKind; text: string }[] = [];
  if (b.principal === WILDCARD_PRINCIPAL) out.push({ kind: "wildcard-principal", text: "and every principal not yet seen" });
  if (b.patternType === "PREFIXED") out.push({ kind: "prefixed-resource", text: `and every ${b.resourceType} not yet seen whose name starts with \`${b.resourceName}\`` });
  else if (b.resourceName === WILDCARD_RESOURCE) out.push({ kind: "wildcard-resource", text: `and every ${b.resourceType} not yet seen` });
  return out;
}

/**
 * The ACLs of `acls` whose pattern can apply to one of the touched resource names (LITERAL
 * equal or `*`, PREFIXED a prefix): every ACL any of those resources' decisions depend on.
 */
function aclsTouching(acls: readonly AclBinding[], touched: ReadonlyMap<ResourceType, ReadonlyMap<string, unknown>>): AclBinding[] {
  const sorted = new Map<ResourceType, string[]>();
  for (const [type, names] of touched) sorted.set(type, [...names.keys()].sort(compareStrings));
  const out: AclBinding[] = [];
  for (const a of acls) {
    const names = touched.get(a.resourceType);
    if (names === undefined) continue;
    if (a.patternType === "LITERAL") {
      if (a.resourceName === WILDCARD_RESOURCE || names.has(a.resourceName)) out.push(a);
    } else {
      const list = sorted.get(a.resourceType)!;
      const i = lowerBound(list, a.resourceName);
      if (i < list.length && list[i]!.startsWith(a.resourceName)) out.push(a);
    }
  }
  return out;
}

/** Every decision of the universe the change flips (see the module comment). */
export function blastRadius(input: BlastRadiusInput): BlastRadius {
  if ((input.change === undefined) === (input.after === undefined)) throw new Error("blastRadius: give exactly one of change and after");
  const superUsers = new Set<string>(input.config?.superUsers ?? []);
  const config: AuthorizerConfig = { superUsers, allowEveryoneIfNoAclFound: input.config?.allowEveryoneIfNoAclFound === true };
  const allowEveryone = config.allowEveryoneIfNoAclFound === true;

  // The bindings the change really adds and removes.
  let added: AclBinding[];
  let removedBindings: AclBinding[];
  if (input.change !== undefined) {
    const creates = distinctBindings(input.change.create ?? []);
    const deletes = distinctBindings(input.change.delete ?? []);
    const current = new CurrentSet(input.before, [...creates, ...deletes]);
    const createKeys = new Set(creates.map(bindingKey));
    added = creates.filter((b) => !current.has(b));
    removedBindings = deletes.filter((b) => current.has(b) && !createKeys.has(bindingKey(b)));
  } else {
    const beforeList = input.before instanceof AclIndex ? input.before.acls : distinctBindings(input.before);
    const afterList = distinctBindings(input.after!);
    const beforeKeys = new Set(beforeList.map(bindingKey));
    const afterKeys = new Set(afterList.map(bindingKey));
    added = afterList.filter((b) => !beforeKeys.has(bindingKey(b)));
    removedBindings = beforeList.filter((b) => !afterKeys.has(bindingKey(b)));
  }
  const maskOf = (b: AclBinding) => (b.permissionType === "ALLOW" ? allowedOperationsMask(b.operation) : deniedOperationsMask(b.operation));
  const deltas: Delta[] = [
    ...added.map((binding): Delta => ({ binding, change: "create", mask: maskOf(binding) })),
    ...removedBindings.map((binding): Delta => ({ binding, change: "delete", mask: maskOf(binding) })),
  ];

  // The universe, de-duplicated and sorted.
  const allPrincipals = [...new Set(input.universe.principals)];
  const principals = allPrincipals.filter((p) => !superUsers.has(p)).sort(compareStrings);
  const rankOf = new Map<string, number>();
  principals.forEach((p, i) => rankOf.set(p, i));
  const hosts = [...new Set(input.universe.hosts)].sort(compareStrings);
  const hostSet = new Set(hosts);
  const namesByType = new Map<ResourceType, string[]>();
  for (const r of input.universe.resources) {
    let names = namesByType.get(r.resourceType);
    if (names === undefined) namesByType.set(r.resourceType, (names = []));
    names.push(r.resourceName);
  }
  let universeRequests = 0;
  for (const [type, names] of namesByType) {
    const sorted = [...new Set(names)].sort(compareStrings);
    namesByType.set(type, sorted);
    universeRequests += sorted.length * SUPPORTED_OPERATIONS[type].length;
  }
  universeRequests *= allPrincipals.length * hosts.length;

  // The universe resources each changed ACL applies to (a superset of StandardAuthorizer's
  // view: LITERAL `*` is taken to apply to names starting with `*` too; deciding sorts it out).
  const byPattern = new Map<string, Delta[]>();
  for (const d of deltas) {
    const k = `${d.binding.resourceType}\u0000${d.binding.patternType}\u0000${d.binding.resourceName}`;
    const list = byPattern.get(k);
    if (list === undefined) byPattern.set(k, [d]);
    else list.push(d);
  }
  const work = new Map<ResourceType, Map<string, Delta[]>>();
  for (const list of byPattern.values()) {
    const { resourceType, patternType, resourceName } = list[0]!.binding;
    const names = namesByType.get(resourceType);
    if (names === undefined) continue;
    let touched = work.get(resourceType);
    if (touched === undefined) work.set(resourceType, (touched = new Map()));
    const touch = (name: string) => {
      const mine = touched.get(name);
      if (mine === undefined) touched.set(name, [...list]);
      else mine.push(...list);
    };
    if (patternType === "PREFIXED") {
      for (let i = lowerBound(names, resourceName); i < names.length && names[i]!.startsWith(resourceName); i++) touch(names[i]!);
    } else if (resourceName === WILDCARD_RESOURCE) {
      for (const n of names) touch(n);
    } else if (lowerBound(names, resourceName) < names.length && names[lowerBound(names, resourceName)] === resourceName) {
      touch(resourceName);
    }
  }

  // The current ACLs: the caller's index, or (from a list) an index of only the ACLs that
  // can apply to a touched resource — one pass, no index of the whole set.
  const before = input.before instanceof AclIndex ? input.before : AclIndex.build(aclsTouching(input.before, work));

  // After the change, a resource's ACL groups are its groups before, less those holding a
  // deleted ACL, plus the groups of a small "patch" index: those groups without the deleted
  // ACLs, and the created ACLs. (Where a created ACL joins a pattern that already has ACLs,
  // the pattern is visited as two groups: the same decision, as a decision only asks for a
  // matching DENY, a matching ALLOW, and whether any ACL applies.)
  const removed = new Set<IndexedAcl>();
  const affected = new Set<AclGroup>();
  for (const b of removedBindings) {
    const found = findAclGroupEntry(before, b);
    if (found === null) continue;
    removed.add(found.entry);
    affected.add(found.group);
  }
  const patchAcls: AclBinding[] = [...added];
  for (const g of affected) for (const e of g.entries) if (!removed.has(e)) patchAcls.push(e.binding);
  const patch = AclIndex.build(patchAcls);

  // Per group: the principals and hosts its ACLs name, each with the operations those ACLs
  // can decide (allow or deny mask), so that a resource only tells apart the principals and
  // hosts named by ACLs about the operations in question.
  const namesOfGroup = new Map<AclGroup, { principals: Map<string, number>; hosts: Map<string, number> }>();
  const groupNames = (g: AclGroup) => {
    let n = namesOfGroup.get(g);
    if (n === undefined) {
      n = { principals: new Map(), hosts: new Map() };
      for (const e of g.entries) {
        const m = e.allowMask | e.denyMask;
        const { principal, host } = e.binding;
        if (principal !== WILDCARD_PRINCIPAL) n.principals.set(principal, (n.principals.get(principal) ?? 0) | m);
        if (host !== WILDCARD_HOST) n.hosts.set(host, (n.hosts.get(host) ?? 0) | m);
      }
      namesOfGroup.set(g, n);
    }
    return n;
  };

  // A wide change (a LITERAL `*`) flips millions of decisions in a handful of patterns:
  // equal cells, cell lists and per-principal changes are stored once.
  const interned = new Map<string, OpCell | OpCell[] | PrincipalChanges>();
  const intern = <T extends OpCell | OpCell[] | PrincipalChanges>(key: string, make: () => T): T => {
    let v = interned.get(key) as T | undefined;
    if (v === undefined) {
      v = make();
      interned.set(key, v);
    }
    return v;
  };
  const cellLists = new Map<number, OpCell[]>();
  const masksBefore: MatchMasks = { allow: 0, deny: 0 };
  const masksAfter: MatchMasks = { allow: 0, deny: 0 };

  const blocks: Block[] = [];
  let checked = 0;
  let evaluated = 0;
  for (const type of RESOURCE_TYPES) {
    const touched = work.get(type);
    if (touched === undefined) continue;
    for (const name of [...touched.keys()].sort(compareStrings)) {
      const block = decideResource(type, name, touched.get(name)!);
      if (block !== null) blocks.push(block);
    }
  }

  function decideResource(type: ResourceType, name: string, resourceDeltas: readonly Delta[]): Block | null {
    const gb = scanOrder(before, type, name);
    const kept = affected.size === 0 ? gb : gb.filter((g) => !affected.has(g));
    const patchGroups = scanOrder(patch, type, name);
    const ga = [...kept, ...patchGroups];
    // No group of the resource lost an ACL: the ACLs after are those before plus the patch's.
    const onlyAdded = kept.length === gb.length;
    const flip = allowEveryone && gb.length > 0 !== ga.length > 0;
    let mask = flip ? ALL_OPS_MASK : 0;
    let everyPrincipal = flip;
    let everyHost = flip;
    const deltaPrincipals = new Set<string>();
    const deltaHosts = new Set<string>();
    for (const d of resourceDeltas) {
      mask |= d.mask;
      if (d.binding.principal === WILDCARD_PRINCIPAL) everyPrincipal = true;
      else deltaPrincipals.add(d.binding.principal);
      if (d.binding.host === WILDCARD_HOST) everyHost = true;
      else deltaHosts.add(d.binding.host);
    }
    const ops = SUPPORTED_OPERATIONS[type].filter((op) => (mask & operationBit(op)) !== 0);
    if (ops.length === 0) return null;
    let opsMask = 0;
    for (const op of ops) opsMask |= operationBit(op);

    // Principals and hosts named (before or after) by the resource's ACLs about these
    // operations, within the universe; the others are decided alike.
    const namedRankSet = new Set<number>();
    const namedHosts = new Set<string>();
    for (const groups of [gb, ga]) {
      for (const g of groups) {
        const n = groupNames(g);
        for (const [p, m] of n.principals) {
          if ((m & opsMask) === 0) continue;
          const r = rankOf.get(p);
          if (r !== undefined) namedRankSet.add(r);
        }
        for (const [h, m] of n.hosts) if ((m & opsMask) !== 0 && hostSet.has(h)) namedHosts.add(h);
      }
    }
    const namedRanks = Int32Array.from(namedRankSet).sort();
    const othersCount = principals.length - namedRanks.length;
    const otherHostCount = hosts.length - namedHosts.size;

    // Principal classes (rank -1: the one standing for every other principal).
    const classPrincipals: string[] = [];
    const classRanks: number[] = [];
    if (everyPrincipal) {
      for (const r of namedRanks) {
        classPrincipals.push(principals[r]!);
        classRanks.push(r);
      }
      if (othersCount > 0) {
        let r = 0;
        while (namedRankSet.has(r)) r++;
        classPrincipals.push(principals[r]!);
        classRanks.push(-1);
      }
    } else {
      for (const p of deltaPrincipals) {
        const r = rankOf.get(p);
        if (r === undefined) continue;
        classPrincipals.push(p);
        classRanks.push(r);
      }
    }
    // Host classes: the named ones (ascending), then the one standing for every other host.
    const namedHostList = everyHost ? [...namedHosts].sort(compareStrings) : [...deltaHosts].filter((x) => hostSet.has(x)).sort(compareStrings);
    const otherHost = everyHost && otherHostCount > 0 ? hosts.find((h) => !namedHosts.has(h))! : null;
    if (classPrincipals.length === 0 || (namedHostList.length === 0 && otherHost === null)) return null;

    const block: Block = { resourceType: type, resourceName: name, namedHosts, namedRanks, named: new Map(), others: null, othersCount, rows: 0, gained: 0, lost: 0 };
    // Without a matching ACL: DENIED where the resource has ACLs, else the configured default.
    const unmatchedBefore: Decision = gb.length === 0 && allowEveryone ? "ALLOWED" : "DENIED";
    const unmatchedAfter: Decision = ga.length === 0 && allowEveryone ? "ALLOWED" : "DENIED";
    const typeKey = RESOURCE_TYPES.indexOf(type) * OP_KEY_RANGE;
    // The flipped operations of one (principal, host) as a number (type, flipped bits, bits
    // ALLOWED after): equal numbers are equal cell lists, kept once; `key` is the last one.
    let key = 0;
    const decide = (principal: string, host: string, count: number): OpCell[] => {
      // Every operation from one pass over the groups before and one after (same decisions as authorizeInScanOrder).
      const b = matchMasksInScanOrder(gb, principal, host, masksBefore);
      let a: MatchMasks;
      if (onlyAdded) {
        a = matchMasksInScanOrder(patchGroups, principal, host, masksAfter);
        a.allow |= b.allow;
        a.deny |= b.deny;
      } else a = matchMasksInScanOrder(ga, principal, host, masksAfter);
      let flipped = 0;
      let allowedAfter = 0;
      for (const operation of ops) {
        const bit = operationBit(operation);
        const was = (b.deny & bit) !== 0 ? false : (b.allow & bit) !== 0 ? true : unmatchedBefore === "ALLOWED";
        const is = (a.deny & bit) !== 0 ? false : (a.allow & bit) !== 0 ? true : unmatchedAfter === "ALLOWED";
        if (was === is) continue;
        flipped |= bit;
        if (is) allowedAfter |= bit;
      }
      evaluated += ops.length;
      checked += count * ops.length;
      key = flipped === 0 ? 0 : (typeKey + flipped) * OP_KEY_RANGE + allowedAfter;
      if (flipped === 0) return NO_CELLS;
      let cells = cellLists.get(key);
      if (cells === undefined) {
        cells = [];
        for (const operation of ops) {
          const bit = operationBit(operation);
          if ((flipped & bit) === 0) continue;
          const after: Decision = (allowedAfter & bit) !== 0 ? "ALLOWED" : "DENIED";
          cells.push({ operation, before: after === "ALLOWED" ? "DENIED" : "ALLOWED", after });
        }
        cellLists.set(key, cells);
      }
      return cells;
    };
    for (let c = 0; c < classPrincipals.length; c++) {
      const principal = classPrincipals[c]!;
      const rank = classRanks[c]!;
      const principalCount = rank < 0 ? othersCount : 1;
      const hostCells: PrincipalChanges["hostCells"] = [];
      let signature = "";
      for (const host of namedHostList) {
        const cells = decide(principal, host, principalCount);
        if (cells.length === 0) continue;
        hostCells.push({ host, cells });
        signature += `${host}\u0000${key};`;
      }
      let otherHostCells: OpCell[] = [];
      if (otherHost !== null) {
        otherHostCells = decide(principal, otherHost, principalCount * otherHostCount);
        signature += `*${otherHostCount}\u0000${key}`;
      }
      if (hostCells.length === 0 && otherHostCells.length === 0) continue;
      const changes = intern(`{${signature}`, (): PrincipalChanges => {
        const pc: PrincipalChanges = { hostCells, otherHostCells, rows: 0, gained: 0, lost: 0 };
        const add = (cells: readonly OpCell[], n: number) => {
          pc.rows += cells.length * n;
          for (const cell of cells) if (cell.after === "ALLOWED") pc.gained += n;
          else pc.lost += n;
        };
        for (const hc of hostCells) add(hc.cells, 1);
        add(otherHostCells, otherHostCount);
        return pc;
      });
      if (rank < 0) block.others = changes;
      else block.named.set(rank, changes);
      block.rows += changes.rows * principalCount;
      block.gained += changes.gained * principalCount;
      block.lost += changes.lost * principalCount;
    }
    if (block.rows === 0) return null;
    // A changed ACL the authorizer skips (LITERAL `*` on a name starting with `*`) names no
    // principal of the resource, but its principal was decided: keep every decided one in order.
    if ([...block.named.keys()].some((r) => !namedRankSet.has(r))) block.namedRanks = Int32Array.from(new Set([...namedRanks, ...block.named.keys()])).sort();
    return block;
  }

  const rules: BlastRule[] = [];
  for (const d of deltas) for (const r of ruleText(d.binding)) rules.push({ ...r, change: d.change, binding: cleanBinding(d.binding) });
  return new BlastRadius(blocks, principals, hosts, rules, { checked, evaluated, universeRequests });
}

/**
 * The decision changes of one ACL change, held compactly: count them, summarise them,
 * page through them or walk them all, in the documented order.
 */
export class BlastRadius {
  /** How many decisions change. */
  readonly total: number;
  /** Requests of the universe whose decision was compared (the rest cannot change). */
  readonly checked: number;
  /** Decision pairs actually computed (one stands for a class of equivalent requests). */
  readonly evaluated: number;
  /** Every request of the universe: principals x hosts x resources x their operations. */
  readonly universeRequests: number;
  readonly rules: readonly BlastRule[];
  private readonly starts: Float64Array;
  private summaryCache: BlastSummary | null = null;
  private segmentsCache: { block: Block; segments: Segment[]; starts: Float64Array; otherRows: Row[] } | null = null;

  constructor(
    private readonly blocks: readonly Block[],
    private readonly principals: readonly string[],
    private readonly hosts: readonly string[],
    rules: readonly BlastRule[],
    counts: { checked: number; evaluated: number; universeRequests: number },
  ) {
    this.rules = rules;
    this.checked = counts.checked;
    this.evaluated = counts.evaluated;
    this.universeRequests = counts.universeRequests;
    this.starts = new Float64Array(blocks.length + 1);
    for (let i = 0; i < blocks.length; i++) this.starts[i + 1] = this.starts[i]! + blocks[i]!.rows;
    this.total = this.starts[blocks.length]!;
  }

  /** Rows [offset, offset + limit). */
  page(offset: number, limit: number): AclDecisionChange[] {
    const out: AclDecisionChange[] = [];
    this.walk(offset, limit, (row) => {
      out.push(row);
    });
    return out;
  }

  /** Every row. */
  all(): AclDecisionChange[] {
    return this.page(0, this.total);
  }

  /** Visit every row in order without keeping them (fn gets a fresh object each time). */
  forEach(fn: (row: AclDecisionChange) => void): void {
    this.walk(0, this.total, fn);
  }

  *[Symbol.iterator](): Iterator<AclDecisionChange> {
    const pageSize = 4096;
    for (let offset = 0; offset < this.total; offset += pageSize) yield* this.page(offset, pageSize);
  }

  /** Totals, and gained/lost per principal and per resource (principals and resources with changes only). */
  summary(): BlastSummary {
    if (this.summaryCache !== null) return this.summaryCache;
    const n = this.principals.length;
    const dGained = new Float64Array(n);
    const dLost = new Float64Array(n);
    let baseGained = 0;
    let baseLost = 0;
    let gained = 0;
    let lost = 0;
    const byResource: BlastSummary["byResource"] = [];
    for (const b of this.blocks) {
      gained += b.gained;
      lost += b.lost;
      byResource.push({ resourceType: b.resourceType, resourceName: b.resourceName, gained: b.gained, lost: b.lost });
      const og = b.others?.gained ?? 0;
      const ol = b.others?.lost ?? 0;
      if (b.others !== null) {
        baseGained += og;
        baseLost += ol;
        for (const r of b.namedRanks) {
          dGained[r]! -= og;
          dLost[r]! -= ol;
        }
      }
      for (const [r, c] of b.named) {
        dGained[r]! += c.gained;
        dLost[r]! += c.lost;
      }
    }
    const byPrincipal: BlastSummary["byPrincipal"] = [];
    for (let r = 0; r < n; r++) {
      const g = baseGained + dGained[r]!;
      const l = baseLost + dLost[r]!;
      if (g + l > 0) byPrincipal.push({ principal: this.principals[r]!, gained: g, lost: l });
    }
    this.summaryCache = { changes: this.total, gained, lost, principals: byPrincipal.length, resources: byResource.length, byPrincipal, byResource };
    return this.summaryCache;
  }

  private rowsOf(block: Block, changes: PrincipalChanges): Row[] {
    const rows: Row[] = [];
    const emit = (host: string, cells: readonly OpCell[]) => {
      for (const c of cells) rows.push({ host, operation: c.operation, before: c.before, after: c.after });
    };
    if (changes.otherHostCells.length === 0) {
      for (const hc of changes.hostCells) emit(hc.host, hc.cells);
      return rows;
    }
    let k = 0;
    for (const h of this.hosts) {
      if (block.namedHosts.has(h)) {
        const hc = changes.hostCells[k];
        if (hc !== undefined && hc.host === h) {
          emit(h, hc.cells);
          k++;
        }
      } else emit(h, changes.otherHostCells);
    }
    return rows;
  }

  /** The block's principals in order: runs of "other" principals between the named ones. */
  private segmentsOf(block: Block): { segments: Segment[]; starts: Float64Array; otherRows: Row[] } {
    if (this.segmentsCache?.block === block) return this.segmentsCache;
    const segments: Segment[] = [];
    const others = block.others;
    let prev = 0;
    const run = (from: number, to: number) => {
      if (others !== null && to > from) segments.push({ rank: from, to, changes: others, run: true });
    };
    for (const r of block.namedRanks) {
      run(prev, r);
      const c = block.named.get(r);
      if (c !== undefined) segments.push({ rank: r, to: r + 1, changes: c, run: false });
      prev = r + 1;
    }
    run(prev, this.principals.length);
    const starts = new Float64Array(segments.length + 1);
    for (let i = 0; i < segments.length; i++) {
      const s = segments[i]!;
      starts[i + 1] = starts[i]! + s.changes.rows * (s.to - s.rank);
    }
    const cache = { block, segments, starts, otherRows: others === null ? [] : this.rowsOf(block, others) };
    this.segmentsCache = cache;
    return cache;
  }

  private walk(offset: number, limit: number, fn: (row: AclDecisionChange) => void): void {
    let at = Math.max(0, Math.floor(offset));
    const end = Math.min(this.total, at + Math.max(0, Math.floor(limit)));
    if (at >= end) return;
    // Every block and segment holds at least one row, so these searches land on the one holding `at`.
    for (let bi = upperBoundF64(this.starts, at) - 1; at < end; bi++) {
      const block = this.blocks[bi]!;
      const base = this.starts[bi]!;
      const { segments, starts, otherRows } = this.segmentsOf(block);
      for (let si = upperBoundF64(starts, at - base) - 1; at < end && si < segments.length; si++) {
        const seg = segments[si]!;
        const rows = seg.run ? otherRows : this.rowsOf(block, seg.changes);
        const within = at - base - starts[si]!;
        let k = within % rows.length;
        for (let rank = seg.rank + Math.floor(within / rows.length); rank < seg.to && at < end; rank++, k = 0) {
          const principal = this.principals[rank]!;
          for (; k < rows.length && at < end; k++, at++) {
            const r = rows[k]!;
            fn({ principal, host: r.host, resourceType: block.resourceType, resourceName: block.resourceName, operation: r.operation, before: r.before, after: r.after });
          }
        }
      }
    }
  }
}

/** First index i with a[i] > x (a ascending). */
function upperBoundF64(a: Float64Array, x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** computePlan, then the blast radius of its creates and deletes. */
export function planWithBlastRadius(input: PlanInput & { universe: PlanUniverse; config?: AuthorizerConfig }): { plan: AclPlan; blast: BlastRadius } {
  const plan = computePlan(input);
  const blast = blastRadius({ before: input.current, change: { create: plan.create, delete: plan.delete }, universe: input.universe, config: input.config });
  return { plan, blast };
}
