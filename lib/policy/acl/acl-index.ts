/**
 * AclIndex: an immutable index over one full ACL set, built once, answering
 * authorization, MATCH lookups and effective-permission questions without scanning
 * every ACL. Mirrors the data layout of StandardAuthorizerData / AclCache.
 *
 * Layout, per resource type:
 * - the distinct resource names of all ACLs, sorted in REVERSE order (StandardAcl's
 *   sort order) so that the names which are prefixes of a resource name are reached by
 *   stepping forward from that name; plus a hash map name -> position for O(1) entry;
 * - per name, one group of LITERAL ACLs and one of PREFIXED ACLs, each sorted like
 *   StandardAcl.compareTo (operation, principal, host, permission) and further keyed
 *   principal -> host -> ACLs, so a request only looks at the ACLs of its own principal
 *   and `User:*`, from its own host and `*`;
 * - the distinct lengths of PREFIXED names, so that "every prefixed pattern that applies
 *   to a name" is one hash lookup per distinct length (MATCH).
 *
 * Every ACL carries two bit masks precomputed at build (the requested operations it
 * allows, the ones it denies) and its own pre-built decision object, so authorizing
 * allocates nothing and never splits a string.
 *
 * Identical ACLs are stored once (Kafka's set semantics); `acls` keeps the first
 * occurrence of each, in input order. The index keeps the binding objects it is given
 * (a decision's `rule.acl` is the caller's own object) and relies on them not changing.
 */
import { WILDCARD_HOST, WILDCARD_PRINCIPAL, WILDCARD_RESOURCE, type AclBinding, type ResourceType } from "../types";
import type { AuthorizationResult } from "./model";
import { OPERATION_ORDINAL, allowedOperationsMask, deniedOperationsMask } from "./operations";

/** One stored ACL. */
export interface IndexedAcl {
  readonly binding: AclBinding;
  /** Position of the first occurrence in the input. */
  readonly order: number;
  /** Position inside its (name, pattern type) group, in StandardAcl order. */
  rank: number;
  /** AclOperation's enum position, for StandardAcl's sort order. */
  readonly opOrdinal: number;
  /** Requested-operation bits this ACL allows (0 for a DENY). */
  readonly allowMask: number;
  /** Requested-operation bits this ACL denies (0 for an ALLOW). */
  readonly denyMask: number;
  /** Interned principal and host (see AclTable). */
  readonly principalId: number;
  readonly hostId: number;
  /** The decision this ACL produces when it decides; built on first use (see resultOf). */
  result: AuthorizationResult | null;
  /** Set on the later copies of an identical ACL. */
  duplicate: boolean;
}

/** The decision `entry` produces as the deciding rule, allocated once per ACL. */
export function resultOf(entry: IndexedAcl): AuthorizationResult {
  let r = entry.result;
  if (r === null) {
    r = { decision: entry.allowMask !== 0 ? "ALLOWED" : "DENIED", rule: { kind: "acl", acl: entry.binding } };
    entry.result = r;
  }
  return r;
}

/** Groups up to this size are scanned linearly; larger ones get principal -> host maps. */
const SMALL_GROUP = 16;

/**
 * What the authorize hot path reads instead of the bindings: every distinct principal
 * and host of the index interned to a small number (`User:*` and `*` are 0), and per
 * ACL, in group order, four numbers: principal id, host id, allow mask, deny mask. A
 * request looks its principal and host up once; each ACL is then compared as numbers
 * in one flat array, without touching its binding or its strings.
 */
export interface AclTable {
  readonly principals: ReadonlyMap<string, number>;
  readonly hosts: ReadonlyMap<string, number>;
  readonly data: Int32Array;
}

/** Key of (principal id, host id) in AclGroup.byIds. */
export function idKey(table: AclTable, principalId: number, hostId: number): number {
  return principalId * table.hosts.size + hostId;
}

/** The ACLs of one resource pattern (type, name, pattern type). */
export interface AclGroup {
  /** In StandardAcl order (operation, principal, host, permission); rank = position. */
  readonly entries: readonly IndexedAcl[];
  /** principal -> host -> ACLs, each list in rank order; null for small groups. */
  readonly byPrincipal: ReadonlyMap<string, ReadonlyMap<string, readonly IndexedAcl[]>> | null;
  /** The same lists keyed by idKey(principal id, host id); null for small groups. */
  readonly byIds: ReadonlyMap<number, readonly IndexedAcl[]> | null;
  /** The index's table and where this group's entries start in it (entry i at 4 * (at + i)). */
  readonly table: AclTable;
  readonly at: number;
}

export interface NameNode {
  readonly name: string;
  literal: AclGroup | null;
  prefixed: AclGroup | null;
  /**
   * Where StandardAuthorizer's scan goes after this name once the name turned out to be a
   * prefix of (or equal to) the resource name: the position of the next name it meets
   * that is a prefix of this one (-1: none). Past such a name the scan no longer depends
   * on the rest of the resource name (see `linkPrefixChains`), so it is worked out once,
   * at build, with the scan itself.
   */
  down: number;
  /** Whether the scan passes the LITERAL `*` ACLs on its way to `down` (Kafka applies them there). */
  starOnTheWay: boolean;
}

export interface TypeSection {
  /** Distinct names, REVERSE sorted (UTF-16 code units, like Java's String.compareTo). */
  readonly names: readonly NameNode[];
  readonly positionByName: ReadonlyMap<string, number>;
  /** First position whose name is <= "*": where the wildcard pass starts. */
  readonly wildcardStart: number;
  /** Distinct lengths of PREFIXED names, ascending. */
  readonly prefixedLengths: readonly number[];
  /** The LITERAL `*` group, if any. */
  readonly star: AclGroup | null;
}

function compareKafkaOrder(a: IndexedAcl, b: IndexedAcl): number {
  const op = a.opOrdinal - b.opOrdinal;
  if (op !== 0) return op;
  const x = a.binding;
  const y = b.binding;
  if (x.principal !== y.principal) return x.principal < y.principal ? -1 : 1;
  if (x.host !== y.host) return x.host < y.host ? -1 : 1;
  // AclPermissionType: DENY (2) sorts before ALLOW (3).
  if (x.permissionType !== y.permissionType) return x.permissionType === "DENY" ? -1 : 1;
  return 0;
}

function sameEntry(a: AclBinding, b: AclBinding): boolean {
  return (
    a.operation === b.operation &&
    a.principal === b.principal &&
    a.host === b.host &&
    a.permissionType === b.permissionType
  );
}

/** A table being filled: its data is allocated once every group is known. */
interface TableBuilder {
  table: { principals: Map<string, number>; hosts: Map<string, number>; data: Int32Array };
  /** Entries placed so far (the next group's `at`). */
  used: number;
}

function buildGroup(raw: IndexedAcl[], tb: TableBuilder): AclGroup {
  // A stable sort keeps identical ACLs adjacent and in input order: keep the first.
  raw.sort(compareKafkaOrder);
  const entries: IndexedAcl[] = [];
  for (const e of raw) {
    const last = entries[entries.length - 1];
    if (last !== undefined && sameEntry(last.binding, e.binding)) {
      e.duplicate = true;
      continue;
    }
    e.rank = entries.length;
    entries.push(e);
  }
  const at = tb.used;
  tb.used += entries.length;
  if (entries.length <= SMALL_GROUP) return { entries, byPrincipal: null, byIds: null, table: tb.table, at };
  const byPrincipal = new Map<string, Map<string, IndexedAcl[]>>();
  const byIds = new Map<number, IndexedAcl[]>();
  for (const e of entries) {
    let byHost = byPrincipal.get(e.binding.principal);
    if (byHost === undefined) {
      byHost = new Map();
      byPrincipal.set(e.binding.principal, byHost);
    }
    const list = byHost.get(e.binding.host);
    if (list === undefined) byHost.set(e.binding.host, [e]);
    else list.push(e);
    const key = idKey(tb.table, e.principalId, e.hostId);
    const same = byIds.get(key);
    if (same === undefined) byIds.set(key, [e]);
    else same.push(e);
  }
  return { entries, byPrincipal, byIds, table: tb.table, at };
}

/** Writes every group's entries into the table, at the group's `at`. */
function fillTable(tb: TableBuilder, sections: ReadonlyMap<ResourceType, TypeSection>): void {
  const data = new Int32Array(tb.used * 4);
  const put = (g: AclGroup | null): void => {
    if (g === null) return;
    let k = g.at * 4;
    for (const e of g.entries) {
      data[k] = e.principalId;
      data[k + 1] = e.hostId;
      data[k + 2] = e.allowMask;
      data[k + 3] = e.denyMask;
      k += 4;
    }
  };
  for (const section of sections.values()) {
    for (const node of section.names) {
      put(node.literal);
      put(node.prefixed);
    }
  }
  tb.table.data = data;
}

/**
 * First position in [from, names.length) whose name is <= r[0..m) (names are reverse
 * sorted). The target is cut from `r` once per seek so the comparisons are the engine's
 * native string comparisons (UTF-16 code units, like Java's String.compareTo): much
 * faster than comparing character by character when names share long stems.
 */
export function seekAtOrBelow(section: TypeSection, r: string, m: number, from: number): number {
  const names = section.names;
  if (m === 0) {
    // Only the empty name is <= "", and it sorts last.
    const last = names.length - 1;
    return last >= from && names[last]!.name === "" ? last : names.length;
  }
  const target = m === r.length ? r : r.slice(0, m);
  let lo = from;
  let hi = names.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (names[mid]!.name <= target) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

const STAR_CODE = WILDCARD_RESOURCE.charCodeAt(0);

function commonPrefixLength(a: string, b: string): number {
  const n = a.length < b.length ? a.length : b.length;
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/**
 * One stretch of StandardAuthorizerData.checkSection for the resource name `r`, from
 * position `i`: steps and seeks over names that are not prefixes of `r` until it meets
 * one that is. Returns 2 * (that position, or names.length at the end) + 1 if it passed
 * the name `*` on the way without `*` being a prefix of `r` (Kafka applies the LITERAL
 * `*` ACLs there, then jumps like for any other name).
 */
export function scanToPrefix(section: TypeSection, r: string, i: number): number {
  const names = section.names;
  let star = 0;
  while (i < names.length) {
    const node = names[i]!;
    const n = node.name;
    const m = commonPrefixLength(r, n);
    if (m === n.length) break;
    if (n === WILDCARD_RESOURCE) {
      if (node.literal !== null) star = 1;
      i = node.prefixed !== null ? seekAtOrBelow(section, r, m, i + 1) : i + 1;
    } else {
      i = seekAtOrBelow(section, r, m, i + 1);
    }
  }
  return i * 2 + star;
}

/**
 * Fills `down` and `starOnTheWay` of every name, in one pass: what `scanToPrefix(section,
 * P, i + 1)` returns for the name P at position i, without scanning.
 *
 * Why the scan after a name P that is a prefix of the resource name r depends on P alone:
 * every later name n sorts below P, so it does not start with P, and its common prefix
 * with r is its common prefix with P, shorter than P; the scan's tests (is n a prefix? is
 * it `*`?) and its seek targets (r cut to that common length) are the same for r and for
 * P; and none of those names equals r, so no LITERAL group other than `*` applies. So the
 * rest of the pass is the stretch from P's successor with P as the resource name, then
 * the same from the prefix it reaches, and so on.
 *
 * What that stretch reaches: the LONGEST proper prefix of P among the names. The scan
 * never jumps over a prefix of P: from a name n (below P, not a prefix of it, common
 * prefix length m) it seeks to the first name <= P[0..m); the prefixes of P no longer
 * than m are <= P[0..m), and the longer ones sort above n (they have P[m] > n[m] where n
 * has n[m]), so they were met before n. And the first prefix it meets is the longest,
 * since longer prefixes sort higher. In ascending order the prefixes of a name form a
 * chain on a stack (a name between a prefix p of x and x itself starts with p), so one
 * walk from the last position to the first finds them all.
 *
 * When the stretch passes the name `*` (its LITERAL ACLs apply there), with `*` not a
 * prefix of P, for P sorting above `*`: if P has a non-empty proper prefix, that prefix
 * starts with P[0] > `*` and sorts above `*`, so the stretch stops before it. Otherwise
 * (only `""`, or nothing, below): while the common prefix length m stays >= 1 every seek
 * target starts with P[0] > `*`, so the scan cannot jump over `*`; it jumps past `*`
 * exactly when it meets a name whose first code unit differs from P's (m = 0: a seek to
 * `""`). Names between `*` and P all differ from P in the first code unit, or all share
 * it, according to whether some name sorts strictly between `*` and the one-character
 * string P[0]. So `*` is passed exactly by the names of the run just above `*` that share
 * one first code unit (> `*`), among those with no non-empty proper prefix.
 * acl-index-chains.test.ts checks both against `scanToPrefix` on random sets of names.
 */
function linkPrefixChains(section: TypeSection): void {
  const names = section.names as NameNode[];
  const chain: number[] = [];
  for (let i = names.length - 1; i >= 0; i--) {
    const node = names[i]!;
    const name = node.name;
    while (chain.length > 0 && !name.startsWith(names[chain[chain.length - 1]!]!.name)) chain.pop();
    node.down = chain.length > 0 ? chain[chain.length - 1]! : -1;
    node.starOnTheWay = false;
    chain.push(i);
  }
  const s = section.positionByName.get(WILDCARD_RESOURCE);
  if (s === undefined || s === 0 || names[s]!.literal === null) return;
  const first = names[s - 1]!.name.charCodeAt(0);
  if (!(first > STAR_CODE)) return;
  for (let i = s - 1; i >= 0; i--) {
    const node = names[i]!;
    if (node.name.charCodeAt(0) !== first) break;
    node.starOnTheWay = node.down < 0 || names[node.down]!.name === "";
  }
}

function buildSection(names: NameNode[]): TypeSection {
  names.sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
  const positionByName = new Map<string, number>();
  const lengths = new Set<number>();
  for (let i = 0; i < names.length; i++) {
    const node = names[i]!;
    positionByName.set(node.name, i);
    if (node.prefixed !== null) lengths.add(node.name.length);
  }
  const starAt = positionByName.get(WILDCARD_RESOURCE);
  const section: TypeSection = {
    names,
    positionByName,
    wildcardStart: 0,
    prefixedLengths: [...lengths].sort((a, b) => a - b),
    star: starAt === undefined ? null : names[starAt]!.literal,
  };
  linkPrefixChains(section);
  return { ...section, wildcardStart: seekAtOrBelow(section, WILDCARD_RESOURCE, WILDCARD_RESOURCE.length, 0) };
}

export function bindingKey(b: AclBinding): string {
  return (
    `${b.resourceType}\u0000${b.patternType}\u0000${b.resourceName}\u0000${b.principal}\u0000${b.host}\u0000` +
    `${b.operation}\u0000${b.permissionType}`
  );
}

const ACL_INDEX_BRAND = "kafka-security-console/AclIndex@1";

const EMPTY_SECTION: TypeSection = {
  names: [],
  positionByName: new Map(),
  wildcardStart: 0,
  prefixedLengths: [],
  star: null,
};

export class AclIndex {
  /**
   * `instanceof AclIndex` must hold across bundles: Next gives each route bundle its own
   * copy of this module, while a shared ACL snapshot (kept on globalThis) hands one
   * bundle's index to another's policy functions. The check looks at a brand, not at
   * which copy of the class built the object.
   */
  static [Symbol.hasInstance](value: unknown): boolean {
    return (
      typeof value === "object" &&
      value !== null &&
      (value as { kscAclIndexBrand?: unknown }).kscAclIndexBrand === ACL_INDEX_BRAND
    );
  }
  readonly kscAclIndexBrand = ACL_INDEX_BRAND;
  /** Distinct ACLs, first occurrence order. */
  readonly acls: readonly AclBinding[];
  readonly entries: readonly IndexedAcl[];
  private readonly sections: ReadonlyMap<ResourceType, TypeSection>;
  private readonly byPrincipal: ReadonlyMap<string, readonly IndexedAcl[]>;
  /** Interned principals and hosts and the flat per-ACL numbers (authorize's hot path). */
  readonly table: AclTable;

  private constructor(
    entries: IndexedAcl[],
    sections: Map<ResourceType, TypeSection>,
    byPrincipal: Map<string, IndexedAcl[]>,
    table: AclTable,
  ) {
    this.entries = entries;
    this.acls = entries.map((e) => e.binding);
    this.sections = sections;
    this.byPrincipal = byPrincipal;
    this.table = table;
  }

  /** Build the index from a full ACL set. The bindings are assumed well-formed (see parse.ts). */
  static build(acls: Iterable<AclBinding>): AclIndex {
    const all: IndexedAcl[] = [];
    const groups = new Map<
      ResourceType,
      Map<string, { literal: IndexedAcl[] | null; prefixed: IndexedAcl[] | null }>
    >();
    const allowMasks = new Map<string, number>();
    const denyMasks = new Map<string, number>();
    const principals = new Map<string, number>([[WILDCARD_PRINCIPAL, 0]]);
    const hosts = new Map<string, number>([[WILDCARD_HOST, 0]]);
    const intern = (ids: Map<string, number>, s: string): number => {
      let id = ids.get(s);
      if (id === undefined) {
        id = ids.size;
        ids.set(s, id);
      }
      return id;
    };
    for (const raw of acls) {
      const binding = raw;
      const allow = binding.permissionType === "ALLOW";
      let allowMask = 0;
      let denyMask = 0;
      if (allow) {
        allowMask = allowMasks.get(binding.operation) ?? allowedOperationsMask(binding.operation);
        allowMasks.set(binding.operation, allowMask);
      } else {
        denyMask = denyMasks.get(binding.operation) ?? deniedOperationsMask(binding.operation);
        denyMasks.set(binding.operation, denyMask);
      }
      const entry: IndexedAcl = {
        binding,
        order: all.length,
        rank: 0,
        opOrdinal: OPERATION_ORDINAL[binding.operation],
        allowMask,
        denyMask,
        principalId: intern(principals, binding.principal),
        hostId: intern(hosts, binding.host),
        result: null,
        duplicate: false,
      };
      all.push(entry);
      let byName = groups.get(binding.resourceType);
      if (byName === undefined) {
        byName = new Map();
        groups.set(binding.resourceType, byName);
      }
      let slot = byName.get(binding.resourceName);
      if (slot === undefined) {
        slot = { literal: null, prefixed: null };
        byName.set(binding.resourceName, slot);
      }
      if (binding.patternType === "LITERAL") {
        if (slot.literal === null) slot.literal = [entry];
        else slot.literal.push(entry);
      } else if (slot.prefixed === null) slot.prefixed = [entry];
      else slot.prefixed.push(entry);
    }
    const tb: TableBuilder = { table: { principals, hosts, data: new Int32Array(0) }, used: 0 };
    const sections = new Map<ResourceType, TypeSection>();
    for (const [type, byName] of groups) {
      const nodes: NameNode[] = [];
      for (const [name, slot] of byName) {
        nodes.push({
          down: -1,
          starOnTheWay: false,
          name,
          literal: slot.literal === null ? null : buildGroup(slot.literal, tb),
          prefixed: slot.prefixed === null ? null : buildGroup(slot.prefixed, tb),
        });
      }
      sections.set(type, buildSection(nodes));
    }
    const entries = all.filter((e) => !e.duplicate);
    const byPrincipal = new Map<string, IndexedAcl[]>();
    for (const e of entries) {
      const mine = byPrincipal.get(e.binding.principal);
      if (mine === undefined) byPrincipal.set(e.binding.principal, [e]);
      else mine.push(e);
    }
    fillTable(tb, sections);
    return new AclIndex(entries, sections, byPrincipal, tb.table);
  }

  get size(): number {
    return this.entries.length;
  }

  section(resourceType: ResourceType): TypeSection {
    return this.sections.get(resourceType) ?? EMPTY_SECTION;
  }

  /** The ACLs whose principal string is exactly `principal` (not expanded to `User:*`). */
  aclsOfPrincipal(principal: string): readonly IndexedAcl[] {
    return this.byPrincipal.get(principal) ?? [];
  }

  /** Every principal string that appears in an ACL. */
  principals(): string[] {
    return [...this.byPrincipal.keys()];
  }

  /**
   * The (name, pattern type) groups whose pattern applies to the resource `name`
   * (MATCH semantics, ResourcePatternFilter.matches): LITERAL equal to the name,
   * LITERAL `*`, PREFIXED where the name starts with the prefix. Filter semantics: the
   * LITERAL `*` is included even for names starting with `*`, which StandardAuthorizer
   * itself skips (see authorize.ts; `scanOrder` gives the authorizer's view).
   */
  applicableGroups(resourceType: ResourceType, name: string): AclGroup[] {
    const section = this.section(resourceType);
    const out: AclGroup[] = [];
    const at = section.positionByName.get(name);
    if (at !== undefined) {
      const node = section.names[at]!;
      if (node.literal !== null) out.push(node.literal);
      if (node.prefixed !== null) out.push(node.prefixed);
    }
    if (name !== WILDCARD_RESOURCE) {
      const w = section.positionByName.get(WILDCARD_RESOURCE);
      const wild = w === undefined ? null : section.names[w]!.literal;
      if (wild !== null) out.push(wild);
    }
    for (const len of section.prefixedLengths) {
      if (len >= name.length) break;
      const p = section.positionByName.get(name.slice(0, len));
      const group = p === undefined ? null : section.names[p]!.prefixed;
      if (group !== null) out.push(group);
    }
    return out;
  }

  /** MATCH lookup: every ACL that applies to the resource, in input order. */
  matching(resourceType: ResourceType, name: string): AclBinding[] {
    const found: IndexedAcl[] = [];
    for (const g of this.applicableGroups(resourceType, name)) for (const e of g.entries) found.push(e);
    found.sort((a, b) => a.order - b.order);
    return found.map((e) => e.binding);
  }

  /** How many ACLs apply to the resource (the length of `matching`, without listing them). */
  countMatching(resourceType: ResourceType, name: string): number {
    let n = 0;
    for (const g of this.applicableGroups(resourceType, name)) n += g.entries.length;
    return n;
  }

  /**
   * Groups of PREFIXED patterns that are prefixes of `prefix` (including itself) and the
   * LITERAL `*` group: the patterns that cover every name starting with `prefix`.
   */
  coveringGroupsOfPrefix(resourceType: ResourceType, prefix: string): AclGroup[] {
    const section = this.section(resourceType);
    const out: AclGroup[] = [];
    const w = section.positionByName.get(WILDCARD_RESOURCE);
    const wild = w === undefined ? null : section.names[w]!.literal;
    if (wild !== null) out.push(wild);
    for (const len of section.prefixedLengths) {
      if (len > prefix.length) break;
      const p = section.positionByName.get(prefix.slice(0, len));
      const group = p === undefined ? null : section.names[p]!.prefixed;
      if (group !== null) out.push(group);
    }
    return out;
  }

  /** Every group of the type whose pattern applies to at least one name starting with `prefix`. */
  groupsTouchingPrefix(resourceType: ResourceType, prefix: string): AclGroup[] {
    const out = this.coveringGroupsOfPrefix(resourceType, prefix);
    const section = this.section(resourceType);
    // Names starting with `prefix` are contiguous in reverse order: from the largest
    // such name down to `prefix` itself.
    const start = seekAtOrBelow(section, prefix + "\uffff", prefix.length + 1, 0);
    for (let i = start; i < section.names.length; i++) {
      const node = section.names[i]!;
      if (!node.name.startsWith(prefix)) break;
      if (node.literal !== null) out.push(node.literal);
      if (node.prefixed !== null && node.name !== prefix) out.push(node.prefixed);
    }
    return out;
  }
}

/** The ACLs of a group that could match `principal` (or `User:*`) from `host` (any host when null), in rank order. */
export function candidates(group: AclGroup, principal: string, host: string | null): IndexedAcl[] {
  const out: IndexedAcl[] = [];
  if (group.byPrincipal === null || host === null) {
    for (const e of group.entries) {
      const b = e.binding;
      if (b.principal !== principal && b.principal !== WILDCARD_PRINCIPAL) continue;
      if (host !== null && b.host !== host && b.host !== WILDCARD_HOST) continue;
      out.push(e);
    }
    return out;
  }
  for (const p of principal === WILDCARD_PRINCIPAL ? [principal] : [principal, WILDCARD_PRINCIPAL]) {
    const byHost = group.byPrincipal.get(p);
    if (byHost === undefined) continue;
    for (const h of host === WILDCARD_HOST ? [host] : [host, WILDCARD_HOST]) {
      const list = byHost.get(h);
      if (list !== undefined) out.push(...list);
    }
  }
  return out.sort((a, b) => a.rank - b.rank);
}
