/**
 * The blast radius of an ACL change: every authorization decision of the cluster's
 * universe that the change flips.
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
 * In phases: the bindings the change really adds and removes, the universe sorted, the
 * resources each changed ACL touches, the groups after the change; then per resource
 * (ResourceDecisions) the operations that can flip, the principals and hosts its ACLs
 * name, one request per class, and each class decided before and after.
 *
 * For the console: `consoleUniverse` (plan-universe.ts) gathers the universe (with one
 * host no ACL names, standing for any other host); `BlastRadius.page`
 * (blast-radius-result.ts) pages through the rows, `summary` counts them per principal
 * and per resource, `rules` states what the change also does to principals and
 * resources not yet seen.
 */
import {
  RESOURCE_TYPES,
  WILDCARD_HOST,
  WILDCARD_PRINCIPAL,
  WILDCARD_RESOURCE,
  type AclBinding,
  type AclOperation,
  type ResourceType,
} from "../types";
import { AclIndex, bindingKey, type AclGroup, type IndexedAcl } from "./acl-index";
import { CurrentSet, cleanBinding, distinctBindings, findAclGroupEntry } from "./acl-set";
import { lowerBoundString } from "./acl-store-columns";
import { matchMasksInScanOrder, scanOrder, type MatchMasks } from "./authorize";
import {
  BlastRadius,
  type Block,
  type BlastRule,
  type BlastRuleKind,
  type OpCell,
  type PrincipalChanges,
} from "./blast-radius-result";
import type { AuthorizerConfig, Decision } from "./model";
import { SUPPORTED_OPERATIONS, allowedOperationsMask, deniedOperationsMask, operationBit } from "./operations";
import type { PlanUniverse } from "./plan-universe";

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

interface Delta {
  binding: AclBinding;
  change: "create" | "delete";
  mask: number;
}

const ALL_OPS_MASK = -1;
/** Above every operation bit: a cell-list key is (type x range + flipped bits) x range + bits ALLOWED after. */
const OP_KEY_RANGE = 1 << 14;
const NO_CELLS: OpCell[] = [];

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function ruleText(b: AclBinding): { kind: BlastRuleKind; text: string }[] {
  const out: { kind: BlastRuleKind; text: string }[] = [];
  if (b.principal === WILDCARD_PRINCIPAL)
    out.push({ kind: "wildcard-principal", text: "and every principal not yet seen" });
  if (b.patternType === "PREFIXED")
    out.push({
      kind: "prefixed-resource",
      text: `and every ${b.resourceType} not yet seen whose name starts with \`${b.resourceName}\``,
    });
  else if (b.resourceName === WILDCARD_RESOURCE)
    out.push({ kind: "wildcard-resource", text: `and every ${b.resourceType} not yet seen` });
  return out;
}

/**
 * The ACLs of `acls` whose pattern can apply to one of the touched resource names (LITERAL
 * equal or `*`, PREFIXED a prefix): every ACL any of those resources' decisions depend on.
 */
function aclsTouching(
  acls: readonly AclBinding[],
  touched: ReadonlyMap<ResourceType, ReadonlyMap<string, unknown>>,
): AclBinding[] {
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
      const i = lowerBoundString(list, a.resourceName);
      if (i < list.length && list[i]!.startsWith(a.resourceName)) out.push(a);
    }
  }
  return out;
}

/** Every decision of the universe the change flips (see the module comment). */
export function blastRadius(input: BlastRadiusInput): BlastRadius {
  if ((input.change === undefined) === (input.after === undefined))
    throw new Error("blastRadius: give exactly one of change and after");
  const superUsers = new Set<string>(input.config?.superUsers ?? []);
  const { added, removed } = changedBindings(input);
  const deltas = deltasOf(added, removed);
  const universe = sortedUniverse(input.universe, superUsers);
  const work = touchedResources(deltas, universe.namesByType);

  // The current ACLs: the caller's index, or (from a list) an index of only the ACLs that
  // can apply to a touched resource — one pass, no index of the whole set.
  const before = input.before instanceof AclIndex ? input.before : AclIndex.build(aclsTouching(input.before, work));
  const decisions = new ResourceDecisions(
    before,
    afterPatch(before, added, removed),
    input.config?.allowEveryoneIfNoAclFound === true,
    universe,
  );
  const blocks: Block[] = [];
  for (const type of RESOURCE_TYPES) {
    const touched = work.get(type);
    if (touched === undefined) continue;
    for (const name of [...touched.keys()].sort(compareStrings)) {
      const block = decisions.resource(type, name, touched.get(name)!);
      if (block !== null) blocks.push(block);
    }
  }

  const rules: BlastRule[] = [];
  for (const d of deltas)
    for (const r of ruleText(d.binding)) rules.push({ ...r, change: d.change, binding: cleanBinding(d.binding) });
  const { checked, evaluated } = decisions;
  return new BlastRadius(blocks, universe.principals, universe.hosts, rules, {
    checked,
    evaluated,
    universeRequests: universe.requests,
  });
}

/** The bindings the change really adds and removes. */
function changedBindings(input: BlastRadiusInput): { added: AclBinding[]; removed: AclBinding[] } {
  if (input.change !== undefined) {
    const creates = distinctBindings(input.change.create ?? []);
    const deletes = distinctBindings(input.change.delete ?? []);
    const current = new CurrentSet(input.before, [...creates, ...deletes]);
    const createKeys = new Set(creates.map(bindingKey));
    return {
      added: creates.filter((b) => !current.has(b)),
      removed: deletes.filter((b) => current.has(b) && !createKeys.has(bindingKey(b))),
    };
  }
  const beforeList = input.before instanceof AclIndex ? input.before.acls : distinctBindings(input.before);
  const afterList = distinctBindings(input.after!);
  const beforeKeys = new Set(beforeList.map(bindingKey));
  const afterKeys = new Set(afterList.map(bindingKey));
  return {
    added: afterList.filter((b) => !beforeKeys.has(bindingKey(b))),
    removed: beforeList.filter((b) => !afterKeys.has(bindingKey(b))),
  };
}

function deltasOf(added: readonly AclBinding[], removed: readonly AclBinding[]): Delta[] {
  const maskOf = (b: AclBinding) =>
    b.permissionType === "ALLOW" ? allowedOperationsMask(b.operation) : deniedOperationsMask(b.operation);
  return [
    ...added.map((binding): Delta => ({ binding, change: "create", mask: maskOf(binding) })),
    ...removed.map((binding): Delta => ({ binding, change: "delete", mask: maskOf(binding) })),
  ];
}

/** The universe, de-duplicated and sorted; super users are left out (their decisions never change). */
interface SortedUniverse {
  principals: string[];
  rankOf: Map<string, number>;
  hosts: string[];
  hostSet: Set<string>;
  namesByType: Map<ResourceType, string[]>;
  /** Every request of the universe, super users included. */
  requests: number;
}

function sortedUniverse(universe: PlanUniverse, superUsers: ReadonlySet<string>): SortedUniverse {
  const allPrincipals = [...new Set(universe.principals)];
  const principals = allPrincipals.filter((p) => !superUsers.has(p)).sort(compareStrings);
  const rankOf = new Map<string, number>();
  principals.forEach((p, i) => rankOf.set(p, i));
  const hosts = [...new Set(universe.hosts)].sort(compareStrings);
  const namesByType = new Map<ResourceType, string[]>();
  for (const r of universe.resources) {
    let names = namesByType.get(r.resourceType);
    if (names === undefined) namesByType.set(r.resourceType, (names = []));
    names.push(r.resourceName);
  }
  let requests = 0;
  for (const [type, names] of namesByType) {
    const sorted = [...new Set(names)].sort(compareStrings);
    namesByType.set(type, sorted);
    requests += sorted.length * SUPPORTED_OPERATIONS[type].length;
  }
  requests *= allPrincipals.length * hosts.length;
  return { principals, rankOf, hosts, hostSet: new Set(hosts), namesByType, requests };
}

/**
 * The universe resources each changed ACL applies to (a superset of StandardAuthorizer's
 * view: LITERAL `*` is taken to apply to names starting with `*` too; deciding sorts it out).
 */
function touchedResources(
  deltas: readonly Delta[],
  namesByType: ReadonlyMap<ResourceType, readonly string[]>,
): Map<ResourceType, Map<string, Delta[]>> {
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
    if (touched === undefined) work.set(resourceType, (touched = new Map<string, Delta[]>()));
    const touch = (name: string) => {
      const mine = touched.get(name);
      if (mine === undefined) touched.set(name, [...list]);
      else mine.push(...list);
    };
    if (patternType === "PREFIXED") {
      for (let i = lowerBoundString(names, resourceName); i < names.length && names[i]!.startsWith(resourceName); i++)
        touch(names[i]!);
    } else if (resourceName === WILDCARD_RESOURCE) {
      for (const n of names) touch(n);
    } else if (
      lowerBoundString(names, resourceName) < names.length &&
      names[lowerBoundString(names, resourceName)] === resourceName
    ) {
      touch(resourceName);
    }
  }
  return work;
}

/**
 * After the change, a resource's ACL groups are its groups before, less those holding a
 * deleted ACL (`affected`), plus the groups of a small `patch` index: those groups without
 * the deleted ACLs, and the created ACLs. (Where a created ACL joins a pattern that already
 * has ACLs, the pattern is visited as two groups: the same decision, as a decision only asks
 * for a matching DENY, a matching ALLOW, and whether any ACL applies.)
 */
interface AfterPatch {
  affected: ReadonlySet<AclGroup>;
  patch: AclIndex;
}

function afterPatch(
  before: AclIndex,
  added: readonly AclBinding[],
  removedBindings: readonly AclBinding[],
): AfterPatch {
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
  return { affected, patch: AclIndex.build(patchAcls) };
}

/** One resource's ACL groups in scan order, before and after the change. */
interface ResourceGroups {
  before: readonly AclGroup[];
  after: readonly AclGroup[];
  patch: readonly AclGroup[];
  /** No group of the resource lost an ACL: the ACLs after are those before plus the patch's. */
  onlyAdded: boolean;
}

/** The operations that can flip on one resource, and whose requests can flip them. */
interface Flippable {
  ops: AclOperation[];
  opsMask: number;
  /** Every principal (every host) can flip: a `User:*` (`*` host) ACL changed, or the resource's first or last ACL. */
  everyPrincipal: boolean;
  everyHost: boolean;
  deltaPrincipals: ReadonlySet<string>;
  deltaHosts: ReadonlySet<string>;
}

/** The principals and hosts of the universe named (before or after) by the resource's ACLs about the operations. */
interface Named {
  rankSet: ReadonlySet<number>;
  ranks: Int32Array;
  hosts: Set<string>;
  othersCount: number;
  otherHostCount: number;
}

/**
 * The requests decided, each standing for a class: principal rank -1 and `otherHost` stand for all the unnamed ones.
 */
interface RequestClasses {
  principals: string[];
  ranks: number[];
  namedHosts: string[];
  otherHost: string | null;
}

/**
 * Decides resource after resource, sharing what a wide change repeats: the names each
 * group's ACLs mention, and equal cells, cell lists and per-principal changes (a LITERAL
 * `*` flips millions of decisions in a handful of patterns: each is stored once).
 */
class ResourceDecisions {
  /** Requests of the universe whose decision was compared. */
  checked = 0;
  /** Decision pairs computed. */
  evaluated = 0;
  private readonly namesOfGroup = new Map<AclGroup, { principals: Map<string, number>; hosts: Map<string, number> }>();
  private readonly interned = new Map<string, PrincipalChanges>();
  private readonly cellLists = new Map<number, OpCell[]>();
  private readonly masksBefore: MatchMasks = { allow: 0, deny: 0 };
  private readonly masksAfter: MatchMasks = { allow: 0, deny: 0 };

  constructor(
    private readonly before: AclIndex,
    private readonly after: AfterPatch,
    private readonly allowEveryone: boolean,
    private readonly universe: SortedUniverse,
  ) {}

  /** The decision changes on one resource, or null when there are none. */
  resource(type: ResourceType, name: string, resourceDeltas: readonly Delta[]): Block | null {
    const groups = this.groupsOf(type, name);
    const flippable = this.flippable(type, groups, resourceDeltas);
    if (flippable === null) return null;
    const named = this.named(groups, flippable.opsMask);
    const classes = this.classes(flippable, named);
    if (classes === null) return null;
    return this.decideClasses(type, name, groups, flippable, named, classes);
  }

  private groupsOf(type: ResourceType, name: string): ResourceGroups {
    const { affected, patch } = this.after;
    const before = scanOrder(this.before, type, name);
    const kept = affected.size === 0 ? before : before.filter((g) => !affected.has(g));
    const patchGroups = scanOrder(patch, type, name);
    return { before, after: [...kept, ...patchGroups], patch: patchGroups, onlyAdded: kept.length === before.length };
  }

  private flippable(type: ResourceType, groups: ResourceGroups, resourceDeltas: readonly Delta[]): Flippable | null {
    const flip = this.allowEveryone && groups.before.length > 0 !== groups.after.length > 0;
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
    return { ops, opsMask, everyPrincipal, everyHost, deltaPrincipals, deltaHosts };
  }

  /** Principals and hosts named by the resource's ACLs about these operations; the others are decided alike. */
  private named(groups: ResourceGroups, opsMask: number): Named {
    const { principals, rankOf, hosts, hostSet } = this.universe;
    const rankSet = new Set<number>();
    const namedHosts = new Set<string>();
    for (const list of [groups.before, groups.after]) {
      for (const g of list) {
        const n = this.groupNames(g);
        for (const [p, m] of n.principals) {
          if ((m & opsMask) === 0) continue;
          const r = rankOf.get(p);
          if (r !== undefined) rankSet.add(r);
        }
        for (const [h, m] of n.hosts) if ((m & opsMask) !== 0 && hostSet.has(h)) namedHosts.add(h);
      }
    }
    const ranks = Int32Array.from(rankSet).sort();
    return {
      rankSet,
      ranks,
      hosts: namedHosts,
      othersCount: principals.length - ranks.length,
      otherHostCount: hosts.length - namedHosts.size,
    };
  }

  /**
   * The principals and hosts its ACLs name, each with the operations those ACLs can decide
   * (allow or deny mask), so that a resource only tells apart the principals and hosts
   * named by ACLs about the operations in question.
   */
  private groupNames(g: AclGroup): { principals: Map<string, number>; hosts: Map<string, number> } {
    let n = this.namesOfGroup.get(g);
    if (n === undefined) {
      n = { principals: new Map(), hosts: new Map() };
      for (const e of g.entries) {
        const m = e.allowMask | e.denyMask;
        const { principal, host } = e.binding;
        if (principal !== WILDCARD_PRINCIPAL) n.principals.set(principal, (n.principals.get(principal) ?? 0) | m);
        if (host !== WILDCARD_HOST) n.hosts.set(host, (n.hosts.get(host) ?? 0) | m);
      }
      this.namesOfGroup.set(g, n);
    }
    return n;
  }

  private classes(flippable: Flippable, named: Named): RequestClasses | null {
    const { principals: universePrincipals, rankOf, hosts, hostSet } = this.universe;
    const principals: string[] = [];
    const ranks: number[] = [];
    if (flippable.everyPrincipal) {
      for (const r of named.ranks) {
        principals.push(universePrincipals[r]!);
        ranks.push(r);
      }
      if (named.othersCount > 0) {
        let r = 0;
        while (named.rankSet.has(r)) r++;
        principals.push(universePrincipals[r]!);
        ranks.push(-1);
      }
    } else {
      for (const p of flippable.deltaPrincipals) {
        const r = rankOf.get(p);
        if (r === undefined) continue;
        principals.push(p);
        ranks.push(r);
      }
    }
    // Host classes: the named ones (ascending), then the one standing for every other host.
    const namedHosts = flippable.everyHost
      ? [...named.hosts].sort(compareStrings)
      : [...flippable.deltaHosts].filter((x) => hostSet.has(x)).sort(compareStrings);
    const otherHost = flippable.everyHost && named.otherHostCount > 0 ? hosts.find((h) => !named.hosts.has(h))! : null;
    if (principals.length === 0 || (namedHosts.length === 0 && otherHost === null)) return null;
    return { principals, ranks, namedHosts, otherHost };
  }

  /**
   * Decides one (principal, host) standing for `count` requests: the flipped operations'
   * cells, and as `key` the same as a number (type, flipped bits, bits ALLOWED after):
   * equal numbers are equal cell lists, kept once.
   */
  private decider(
    type: ResourceType,
    groups: ResourceGroups,
    ops: readonly AclOperation[],
  ): { key: number; decide: (principal: string, host: string, count: number) => OpCell[] } {
    const { masksBefore, masksAfter, cellLists } = this;
    // Without a matching ACL: DENIED where the resource has ACLs, else the configured default.
    const unmatchedBefore: Decision = groups.before.length === 0 && this.allowEveryone ? "ALLOWED" : "DENIED";
    const unmatchedAfter: Decision = groups.after.length === 0 && this.allowEveryone ? "ALLOWED" : "DENIED";
    const typeKey = RESOURCE_TYPES.indexOf(type) * OP_KEY_RANGE;
    const d = {
      key: 0,
      decide: (principal: string, host: string, count: number): OpCell[] => {
        // Every operation from one pass over the groups before and one after (same decisions as authorizeInScanOrder).
        const b = matchMasksInScanOrder(groups.before, principal, host, masksBefore);
        let a: MatchMasks;
        if (groups.onlyAdded) {
          a = matchMasksInScanOrder(groups.patch, principal, host, masksAfter);
          a.allow |= b.allow;
          a.deny |= b.deny;
        } else a = matchMasksInScanOrder(groups.after, principal, host, masksAfter);
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
        this.evaluated += ops.length;
        this.checked += count * ops.length;
        d.key = flipped === 0 ? 0 : (typeKey + flipped) * OP_KEY_RANGE + allowedAfter;
        if (flipped === 0) return NO_CELLS;
        let cells = cellLists.get(d.key);
        if (cells === undefined) {
          cells = [];
          for (const operation of ops) {
            const bit = operationBit(operation);
            if ((flipped & bit) === 0) continue;
            const after: Decision = (allowedAfter & bit) !== 0 ? "ALLOWED" : "DENIED";
            cells.push({ operation, before: after === "ALLOWED" ? "DENIED" : "ALLOWED", after });
          }
          cellLists.set(d.key, cells);
        }
        return cells;
      },
    };
    return d;
  }

  private decideClasses(
    type: ResourceType,
    name: string,
    groups: ResourceGroups,
    flippable: Flippable,
    named: Named,
    classes: RequestClasses,
  ): Block | null {
    const { othersCount, otherHostCount } = named;
    const block: Block = {
      resourceType: type,
      resourceName: name,
      namedHosts: named.hosts,
      namedRanks: named.ranks,
      named: new Map(),
      others: null,
      othersCount,
      rows: 0,
      gained: 0,
      lost: 0,
    };
    const d = this.decider(type, groups, flippable.ops);
    for (let c = 0; c < classes.principals.length; c++) {
      const principal = classes.principals[c]!;
      const rank = classes.ranks[c]!;
      const principalCount = rank < 0 ? othersCount : 1;
      const hostCells: PrincipalChanges["hostCells"] = [];
      let signature = "";
      for (const host of classes.namedHosts) {
        const cells = d.decide(principal, host, principalCount);
        if (cells.length === 0) continue;
        hostCells.push({ host, cells });
        signature += `${host}\u0000${d.key};`;
      }
      let otherHostCells: OpCell[] = [];
      if (classes.otherHost !== null) {
        otherHostCells = d.decide(principal, classes.otherHost, principalCount * otherHostCount);
        signature += `*${otherHostCount}\u0000${d.key}`;
      }
      if (hostCells.length === 0 && otherHostCells.length === 0) continue;
      const changes = this.intern(`{${signature}`, hostCells, otherHostCells, otherHostCount);
      if (rank < 0) block.others = changes;
      else block.named.set(rank, changes);
      block.rows += changes.rows * principalCount;
      block.gained += changes.gained * principalCount;
      block.lost += changes.lost * principalCount;
    }
    if (block.rows === 0) return null;
    // A changed ACL the authorizer skips (LITERAL `*` on a name starting with `*`) names no
    // principal of the resource, but its principal was decided: keep every decided one in order.
    if ([...block.named.keys()].some((r) => !named.rankSet.has(r)))
      block.namedRanks = Int32Array.from(new Set([...named.ranks, ...block.named.keys()])).sort();
    return block;
  }

  /** The changes of one principal class, stored once per signature (equal cells on equal hosts). */
  private intern(
    key: string,
    hostCells: PrincipalChanges["hostCells"],
    otherHostCells: OpCell[],
    otherHostCount: number,
  ): PrincipalChanges {
    let pc = this.interned.get(key);
    if (pc === undefined) {
      const made: PrincipalChanges = { hostCells, otherHostCells, rows: 0, gained: 0, lost: 0 };
      const add = (cells: readonly OpCell[], n: number) => {
        made.rows += cells.length * n;
        for (const cell of cells)
          if (cell.after === "ALLOWED") made.gained += n;
          else made.lost += n;
      };
      for (const hc of hostCells) add(hc.cells, 1);
      add(otherHostCells, otherHostCount);
      this.interned.set(key, made);
      pc = made;
    }
    return pc;
  }
}
