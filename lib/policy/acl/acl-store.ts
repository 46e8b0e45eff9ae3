/**
 * AclStore: one full ACL set held for browsing — deduplicated (Kafka's set semantics),
 * interned and pre-sorted once, so that a page is a slice of a sorted order and a filter
 * walks an index: a query costs in proportion to its answer, not to the number of ACLs.
 * The authorizer's own index (AclIndex, Kafka's scan order) is built from the same
 * interned bindings on first use, so one snapshot answers lists, filters and decisions.
 *
 * Layout (n distinct ACLs, positions 0..n-1 in the browse order):
 * - three sorted string tables — resource names, principals, hosts — whose index IS the
 *   string's rank, so comparing two ids compares the strings (UTF-16 code units, like
 *   JavaScript's `<` and Java's String.compareTo);
 * - seven parallel typed arrays, one field each: resource type, name id, pattern type,
 *   principal id, host id, operation, permission (16 bytes per ACL);
 * - the browse order is (resource type, resource name, pattern type, principal,
 *   operation, permission, host), each compared as the name Kafka gives it. So every
 *   resource type, every (type, name) and every (type, name, pattern) is a contiguous
 *   range (binary search), and so are the names starting with a prefix;
 * - posting lists (CSR: offsets + one Uint32Array) by principal, operation and host, each
 *   list ascending, built on first use. Concatenated in principal order, the principal
 *   lists ARE the permutation "sorted by principal, then the browse order".
 *
 * Filters follow Kafka's AclBindingFilter (see filter.ts): pattern ANY = this exact name,
 * any pattern; MATCH = every pattern that applies to the name. The store adds what a
 * console needs beside them: names starting with a prefix, and a principal fragment.
 */
import {
  OPERATIONS,
  PATTERN_TYPES,
  PERMISSION_TYPES,
  RESOURCE_TYPES,
  WILDCARD_RESOURCE,
  type AclBinding,
  type AclBindingFilter,
  type AclOperation,
  type AclOperationFilter,
  type AclPermissionType,
  type AclPermissionTypeFilter,
  type PatternType,
  type PatternTypeFilter,
  type ResourceType,
  type ResourceTypeFilter,
} from "../types";
import { AclIndex } from "./acl-index";

// ---- codes: each enum's names sorted as strings, so codes compare like the names ----------

const sortedCopy = <T extends string>(xs: readonly T[]): readonly T[] => Object.freeze([...xs].sort());

const TYPE_NAMES = sortedCopy(RESOURCE_TYPES);
const PATTERN_NAMES = sortedCopy(PATTERN_TYPES);
const OPERATION_NAMES = sortedCopy(OPERATIONS);
const PERMISSION_NAMES = sortedCopy(PERMISSION_TYPES);

const codes = <T extends string>(names: readonly T[]): ReadonlyMap<string, number> => new Map(names.map((n, i) => [n, i]));
const TYPE_CODE = codes(TYPE_NAMES);
const PATTERN_CODE = codes(PATTERN_NAMES);
const OPERATION_CODE = codes(OPERATION_NAMES);
const PERMISSION_CODE = codes(PERMISSION_NAMES);
const LITERAL = PATTERN_CODE.get("LITERAL")!;
const PREFIXED = PATTERN_CODE.get("PREFIXED")!;

function codeOf(table: ReadonlyMap<string, number>, value: string, what: string): number {
  const c = table.get(value);
  if (c === undefined) throw new Error(`Not a Kafka ${what}: ${JSON.stringify(value)}.`);
  return c;
}

// ---- queries ---------------------------------------------------------------------------------

/**
 * Orders a page can be a slice of: the browse order ("resource", the same as
 * "resourceType"), or one column first and then the browse order. Each column's order is
 * a permutation counted out once per store (O(n), no comparison sort); a filtered query
 * orders just its matches (a small answer is sorted, a large one picked out of the
 * permutation). `descending` reverses the whole order.
 */
export const ACL_STORE_SORTS = ["resource", "resourceType", "resourceName", "patternType", "principal", "host", "operation", "permissionType"] as const;
export type AclStoreSort = (typeof ACL_STORE_SORTS)[number];

export interface AclStoreQuery {
  resourceType?: ResourceTypeFilter;
  /** With patternType: Kafka's filter semantics (ANY: exact name; MATCH: applies to the name). */
  resourceName?: string | null;
  patternType?: PatternTypeFilter;
  /** Only patterns whose name starts with this (the pattern's own name, not MATCH). */
  resourceNamePrefix?: string | null;
  /**
   * Only patterns that apply to a resource of this name (Kafka's MATCH, what
   * `kafka-acls.sh --list --resource-pattern-type match` answers): LITERAL this name,
   * LITERAL `*`, and PREFIXED patterns the name starts with. Combines with every other
   * field (e.g. patternType PREFIXED: just the prefixes that apply).
   */
  resourceNameMatch?: string | null;
  /** Exact principal (`User:alice` does not return `User:*`). */
  principal?: string | null;
  /** Case-insensitive fragment of the principal. */
  principalContains?: string | null;
  host?: string | null;
  operation?: AclOperationFilter;
  permissionType?: AclPermissionTypeFilter;
  sort?: AclStoreSort;
  descending?: boolean;
}

export interface AclStorePageRequest extends AclStoreQuery {
  /** 1-based; clamped to the last page. */
  page?: number;
  pageSize?: number;
}

/** The same shape as the ACL list's answer (lib/schemas/acls AclListResult). */
export interface AclStorePage {
  acls: AclBinding[];
  /** ACLs in the store. */
  total: number;
  /** ACLs the filters match. */
  matching: number;
  page: number;
  pageSize: number;
  pages: number;
}

export const DEFAULT_STORE_PAGE_SIZE = 200;

/** A sequence of positions, in the order a page slices. */
interface Selection {
  readonly length: number;
  at(i: number): number;
}

const EMPTY_SELECTION: Selection = { length: 0, at: () => -1 };

class ArraySelection implements Selection {
  constructor(readonly positions: Uint32Array) {}
  get length(): number {
    return this.positions.length;
  }
  at(i: number): number {
    return this.positions[i]!;
  }
}

/** Disjoint ascending ranges [from, to), paged without listing their positions. */
class RangeSelection implements Selection {
  readonly length: number;
  /** ends[k]: positions in ranges 0..k. */
  private readonly ends: Float64Array;
  constructor(private readonly ranges: readonly (readonly [number, number])[]) {
    this.ends = new Float64Array(ranges.length);
    let total = 0;
    ranges.forEach(([from, to], k) => {
      total += to - from;
      this.ends[k] = total;
    });
    this.length = total;
  }
  at(i: number): number {
    let lo = 0;
    let hi = this.ranges.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.ends[mid]! > i) hi = mid;
      else lo = mid + 1;
    }
    const before = lo === 0 ? 0 : this.ends[lo - 1]!;
    return this.ranges[lo]![0] + (i - before);
  }
}

class ReversedSelection implements Selection {
  constructor(private readonly inner: Selection) {}
  get length(): number {
    return this.inner.length;
  }
  at(i: number): number {
    return this.inner.at(this.inner.length - 1 - i);
  }
}

/** Posting lists: ids 0..k-1 -> ascending positions, as offsets into one array. */
interface Postings {
  readonly offsets: Uint32Array;
  readonly positions: Uint32Array;
}

function buildPostings(ids: Uint8Array | Uint32Array, idCount: number): Postings {
  const offsets = new Uint32Array(idCount + 1);
  for (let i = 0; i < ids.length; i++) offsets[ids[i]! + 1]! += 1;
  for (let k = 0; k < idCount; k++) offsets[k + 1]! += offsets[k]!;
  const fill = offsets.slice(0, idCount);
  const positions = new Uint32Array(ids.length);
  for (let i = 0; i < ids.length; i++) positions[fill[ids[i]!]!++] = i;
  return { offsets, positions };
}

function postingSize(p: Postings, id: number): number {
  return p.offsets[id + 1]! - p.offsets[id]!;
}

/** First index in [lo, hi) of the sorted `table` whose value is >= `value`. */
function lowerBoundString(table: readonly string[], value: string, lo = 0, hi = table.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (table[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function indexOfString(table: readonly string[], value: string): number {
  const i = lowerBoundString(table, value);
  return i < table.length && table[i] === value ? i : -1;
}

/** First position in [lo, hi) whose `column` value is >= `value` (the column is sorted on that stretch). */
function lowerBound(column: Uint8Array | Uint32Array, value: number, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (column[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The smallest string greater than every string that starts with `prefix` (null: none). */
function prefixEnd(prefix: string): string | null {
  let p = prefix;
  while (p.length > 0) {
    const last = p.charCodeAt(p.length - 1);
    if (last < 0xffff) return p.slice(0, -1) + String.fromCharCode(last + 1);
    p = p.slice(0, -1);
  }
  return null;
}

// ---- building ----------------------------------------------------------------------------------

/**
 * Collects ACLs one at a time (e.g. straight from a DescribeAcls answer, without an
 * AclBinding object each), interning the strings, then sorts once.
 */
export class AclStoreBuilder {
  private readonly names = new Map<string, number>();
  private readonly principals = new Map<string, number>();
  private readonly hosts = new Map<string, number>();
  private type = new Uint8Array(1024);
  private pattern = new Uint8Array(1024);
  private operation = new Uint8Array(1024);
  private permission = new Uint8Array(1024);
  private name = new Uint32Array(1024);
  private principal = new Uint32Array(1024);
  private host = new Uint32Array(1024);
  private count = 0;
  private built = false;

  get size(): number {
    return this.count;
  }

  private grow(): void {
    const cap = this.type.length * 2;
    const u8 = (a: Uint8Array) => {
      const b = new Uint8Array(cap);
      b.set(a);
      return b;
    };
    const u32 = (a: Uint32Array) => {
      const b = new Uint32Array(cap);
      b.set(a);
      return b;
    };
    this.type = u8(this.type);
    this.pattern = u8(this.pattern);
    this.operation = u8(this.operation);
    this.permission = u8(this.permission);
    this.name = u32(this.name);
    this.principal = u32(this.principal);
    this.host = u32(this.host);
  }

  private static intern(table: Map<string, number>, value: string): number {
    let id = table.get(value);
    if (id === undefined) {
      id = table.size;
      table.set(value, id);
    }
    return id;
  }

  /** One ACL in the policy vocabulary; throws on a name that is not Kafka's. */
  add(
    resourceType: ResourceType,
    resourceName: string,
    patternType: PatternType,
    principal: string,
    host: string,
    operation: AclOperation,
    permissionType: AclPermissionType,
  ): void {
    if (this.built) throw new Error("This AclStoreBuilder has already built its store.");
    if (this.count === this.type.length) this.grow();
    const i = this.count;
    this.type[i] = codeOf(TYPE_CODE, resourceType, "resource type");
    this.pattern[i] = codeOf(PATTERN_CODE, patternType, "pattern type");
    this.operation[i] = codeOf(OPERATION_CODE, operation, "operation");
    this.permission[i] = codeOf(PERMISSION_CODE, permissionType, "permission type");
    this.name[i] = AclStoreBuilder.intern(this.names, resourceName);
    this.principal[i] = AclStoreBuilder.intern(this.principals, principal);
    this.host[i] = AclStoreBuilder.intern(this.hosts, host);
    this.count = i + 1;
  }

  addBinding(b: AclBinding): void {
    this.add(b.resourceType, b.resourceName, b.patternType, b.principal, b.host, b.operation, b.permissionType);
  }

  /** The store; the builder is spent. `keyLimit` (tests) forces the comparator sort when small. */
  build(options: { keyLimit?: number } = {}): AclStore {
    if (this.built) throw new Error("This AclStoreBuilder has already built its store.");
    this.built = true;
    const n = this.count;
    // Sorted tables; ids become ranks.
    const rank = (table: Map<string, number>): { values: string[]; rankOf: Uint32Array } => {
      const values = [...table.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const rankOf = new Uint32Array(values.length);
      for (let r = 0; r < values.length; r++) rankOf[table.get(values[r]!)!] = r;
      return { values, rankOf };
    };
    const names = rank(this.names);
    const principals = rank(this.principals);
    const hosts = rank(this.hosts);
    for (let i = 0; i < n; i++) {
      this.name[i] = names.rankOf[this.name[i]!]!;
      this.principal[i] = principals.rankOf[this.principal[i]!]!;
      this.host[i] = hosts.rankOf[this.host[i]!]!;
    }
    const radix: Radix = [
      TYPE_NAMES.length,
      Math.max(1, names.values.length),
      PATTERN_NAMES.length,
      Math.max(1, principals.values.length),
      OPERATION_NAMES.length,
      PERMISSION_NAMES.length,
      Math.max(1, hosts.values.length),
    ];
    const out: Columns = {
      type: new Uint8Array(n),
      name: new Uint32Array(n),
      pattern: new Uint8Array(n),
      principal: new Uint32Array(n),
      operation: new Uint8Array(n),
      permission: new Uint8Array(n),
      host: new Uint32Array(n),
    };
    const keyFits = radix.reduce((a, b) => a * b, 1) <= (options.keyLimit ?? Number.MAX_SAFE_INTEGER);
    const m = keyFits ? this.sortByKey(radix, out) : this.sortByColumns(out);
    const trim = <A extends Uint8Array | Uint32Array>(a: A): A => (m === n ? a : (a.slice(0, m) as A));
    return new AclStore(
      names.values,
      principals.values,
      hosts.values,
      trim(out.type),
      trim(out.name),
      trim(out.pattern),
      trim(out.principal),
      trim(out.operation),
      trim(out.permission),
      trim(out.host),
    );
  }

  /**
   * The common case: the mixed-radix key of all seven field ids fits a double exactly
   * (2^53; e.g. 300,000 names x 3,000 principals x 10 hosts), so one native
   * Float64Array sort orders the ACLs, equal keys are the duplicates, and each key
   * decodes back into its fields.
   */
  private sortByKey(radix: Radix, out: Columns): number {
    const n = this.count;
    const [, r1, r2, r3, r4, r5, r6] = radix;
    const keys = new Float64Array(n);
    const { type, name, pattern, principal, operation, permission, host } = this;
    for (let i = 0; i < n; i++) {
      keys[i] = (((((type[i]! * r1 + name[i]!) * r2 + pattern[i]!) * r3 + principal[i]!) * r4 + operation[i]!) * r5 + permission[i]!) * r6 + host[i]!;
    }
    keys.sort();
    let m = 0;
    let previous = -1;
    for (let k = 0; k < n; k++) {
      let key = keys[k]!;
      if (key === previous) continue;
      previous = key;
      let q = Math.floor(key / r6);
      out.host[m] = key - q * r6;
      key = q;
      q = Math.floor(key / r5);
      out.permission[m] = key - q * r5;
      key = q;
      q = Math.floor(key / r4);
      out.operation[m] = key - q * r4;
      key = q;
      q = Math.floor(key / r3);
      out.principal[m] = key - q * r3;
      key = q;
      q = Math.floor(key / r2);
      out.pattern[m] = key - q * r2;
      key = q;
      q = Math.floor(key / r1);
      out.name[m] = key - q * r1;
      out.type[m] = q;
      m++;
    }
    return m;
  }

  /** Larger tables: a comparator sort over the columns, then the same copy without duplicates. */
  private sortByColumns(out: Columns): number {
    const n = this.count;
    const cols = [this.type, this.name, this.pattern, this.principal, this.operation, this.permission, this.host];
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    order.sort((a, b) => {
      for (const c of cols) if (c[a] !== c[b]) return c[a]! - c[b]!;
      return 0;
    });
    const outCols = [out.type, out.name, out.pattern, out.principal, out.operation, out.permission, out.host];
    let m = 0;
    for (let k = 0; k < n; k++) {
      const i = order[k]!;
      if (m > 0 && cols.every((c, j) => outCols[j]![m - 1] === c[i])) continue;
      for (let j = 0; j < cols.length; j++) outCols[j]![m] = cols[j]![i]!;
      m++;
    }
    return m;
  }
}

type Radix = readonly [number, number, number, number, number, number, number];

interface Columns {
  type: Uint8Array;
  name: Uint32Array;
  pattern: Uint8Array;
  principal: Uint32Array;
  operation: Uint8Array;
  permission: Uint8Array;
  host: Uint32Array;
}

// ---- the store -------------------------------------------------------------------------------------

const QUERY_CACHE_SIZE = 32;

export class AclStore {
  /** Per resource type code t: positions [typeStart[t], typeStart[t+1]). */
  private readonly typeStart: Uint32Array;
  /** Distinct lengths of PREFIXED names (for MATCH). */
  private readonly prefixedLengths: readonly number[];
  private principalPostings: Postings | null = null;
  private operationPostings: Postings | null = null;
  private hostPostings: Postings | null = null;
  /** Column sorts other than by principal, operation and host (whose postings are their orders). */
  private readonly orders = new Map<AclStoreSort, Uint32Array>();
  private principalsLower: string[] | null = null;
  private materialized: AclBinding[] | null = null;
  private authorizerIndex: AclIndex | null = null;
  private readonly cache = new Map<string, Selection>();

  /** Use AclStore.build or AclStoreBuilder. */
  constructor(
    readonly names: readonly string[],
    readonly principals: readonly string[],
    readonly hosts: readonly string[],
    private readonly typeCol: Uint8Array,
    private readonly nameCol: Uint32Array,
    private readonly patternCol: Uint8Array,
    private readonly principalCol: Uint32Array,
    private readonly operationCol: Uint8Array,
    private readonly permissionCol: Uint8Array,
    private readonly hostCol: Uint32Array,
  ) {
    this.typeStart = new Uint32Array(TYPE_NAMES.length + 1);
    for (let t = 0; t <= TYPE_NAMES.length; t++) this.typeStart[t] = lowerBound(typeCol, t, 0, typeCol.length);
    const lengths = new Set<number>();
    for (let i = 0; i < patternCol.length; i++) if (patternCol[i] === PREFIXED) lengths.add(names[nameCol[i]!]!.length);
    this.prefixedLengths = [...lengths].sort((a, b) => a - b);
  }

  static build(acls: Iterable<AclBinding>): AclStore {
    const b = new AclStoreBuilder();
    for (const acl of acls) b.addBinding(acl);
    return b.build();
  }

  static empty(): AclStore {
    return new AclStoreBuilder().build();
  }

  /** Distinct ACLs. */
  get size(): number {
    return this.typeCol.length;
  }

  // ---- single ACLs --------------------------------------------------------------------------

  /** The ACL at `position` of the browse order, as a new object (strings shared). */
  bindingAt(position: number): AclBinding {
    return {
      resourceType: TYPE_NAMES[this.typeCol[position]!]!,
      resourceName: this.names[this.nameCol[position]!]!,
      patternType: PATTERN_NAMES[this.patternCol[position]!]!,
      principal: this.principals[this.principalCol[position]!]!,
      host: this.hosts[this.hostCol[position]!]!,
      operation: OPERATION_NAMES[this.operationCol[position]!]!,
      permissionType: PERMISSION_NAMES[this.permissionCol[position]!]!,
    };
  }

  /** Every ACL in the browse order. The objects are shared with the authorizer index: do not change them. */
  bindings(): readonly AclBinding[] {
    if (this.materialized === null) {
      const out = new Array<AclBinding>(this.size);
      for (let i = 0; i < out.length; i++) out[i] = Object.freeze(this.bindingAt(i));
      this.materialized = out;
    }
    return this.materialized;
  }

  /** The authorizer's index over the same ACLs (built on first use, then kept). */
  index(): AclIndex {
    this.authorizerIndex ??= AclIndex.build(this.bindings());
    return this.authorizerIndex;
  }

  /** Whether the authorizer index has been built already (to warm a successor). */
  get hasIndex(): boolean {
    return this.authorizerIndex !== null;
  }

  /** Positions [from, to) of one (type, name, pattern type) in the browse order. */
  private patternRange(t: number, nameId: number, pattern: number): [number, number] {
    const lo = this.typeStart[t]!;
    const hi = this.typeStart[t + 1]!;
    const from = lowerBound(this.nameCol, nameId, lo, hi);
    const to = lowerBound(this.nameCol, nameId + 1, from, hi);
    if (pattern < 0) return [from, to];
    const pFrom = lowerBound(this.patternCol, pattern, from, to);
    return [pFrom, lowerBound(this.patternCol, pattern + 1, pFrom, to)];
  }

  /** The position of exactly this ACL, or -1. */
  positionOf(b: AclBinding): number {
    const t = TYPE_CODE.get(b.resourceType);
    const p = PATTERN_CODE.get(b.patternType);
    const op = OPERATION_CODE.get(b.operation);
    const perm = PERMISSION_CODE.get(b.permissionType);
    if (t === undefined || p === undefined || op === undefined || perm === undefined) return -1;
    const nameId = indexOfString(this.names, b.resourceName);
    const principalId = indexOfString(this.principals, b.principal);
    const hostId = indexOfString(this.hosts, b.host);
    if (nameId < 0 || principalId < 0 || hostId < 0) return -1;
    const [from, to] = this.patternRange(t, nameId, p);
    // Within a pattern: principal, operation, permission, host — ascending.
    const pFrom = lowerBound(this.principalCol, principalId, from, to);
    for (let i = pFrom; i < to && this.principalCol[i] === principalId; i++) {
      if (this.operationCol[i] === op && this.permissionCol[i] === perm && this.hostCol[i] === hostId) return i;
    }
    return -1;
  }

  has(b: AclBinding): boolean {
    return this.positionOf(b) >= 0;
  }

  // ---- queries ------------------------------------------------------------------------------

  private principalIndex(): Postings {
    this.principalPostings ??= buildPostings(this.principalCol, this.principals.length);
    return this.principalPostings;
  }

  private operationIndex(): Postings {
    this.operationPostings ??= buildPostings(this.operationCol, OPERATION_NAMES.length);
    return this.operationPostings;
  }

  private hostIndex(): Postings {
    this.hostPostings ??= buildPostings(this.hostCol, this.hosts.length);
    return this.hostPostings;
  }

  /**
   * The position ranges the resource part of a query allows (type, name, pattern, name
   * prefix), ascending and disjoint, and the pattern code still to check per ACL (-1: none).
   */
  private resourceRanges(q: AclStoreQuery): { ranges: [number, number][]; checkPattern: number } | null {
    const base = this.baseRanges(q);
    const match = q.resourceNameMatch ?? null;
    if (base === null || match === null) return base;
    const typeFilter = q.resourceType ?? "ANY";
    const types = typeFilter === "ANY" ? TYPE_NAMES.map((_, t) => t) : [TYPE_CODE.get(typeFilter)!];
    const only = base.checkPattern >= 0 ? base.checkPattern : q.patternType === "LITERAL" ? LITERAL : q.patternType === "PREFIXED" ? PREFIXED : -1;
    return { ranges: intersectRanges(base.ranges, this.matchRanges(types, match, only, () => true)), checkPattern: base.checkPattern };
  }

  /**
   * Kafka's MATCH for one name: LITERAL name, LITERAL `*`, and PREFIXED p for every
   * prefix p of the name (ResourcePatternFilter.matches), as ascending disjoint ranges;
   * `only` keeps one pattern type (-1: both).
   */
  private matchRanges(types: readonly number[], name: string, only: number, keep: (nameId: number) => boolean): [number, number][] {
    const pieces: [number, number][] = [];
    const literalIds = new Set<number>();
    if (only !== PREFIXED) {
      for (const candidate of [name, WILDCARD_RESOURCE]) {
        const id = indexOfString(this.names, candidate);
        if (id >= 0 && keep(id)) literalIds.add(id);
      }
    }
    const prefixedIds: number[] = [];
    if (only !== LITERAL) {
      for (const len of this.prefixedLengths) {
        if (len > name.length) break;
        const id = indexOfString(this.names, name.slice(0, len));
        if (id >= 0 && keep(id)) prefixedIds.push(id);
      }
    }
    for (const t of types) {
      for (const id of literalIds) pieces.push(this.patternRange(t, id, LITERAL));
      for (const id of prefixedIds) pieces.push(this.patternRange(t, id, PREFIXED));
    }
    return pieces.sort((a, b) => a[0] - b[0]).filter((r) => r[1] > r[0]);
  }

  /** The ranges of the type, name, pattern and prefix fields (resourceRanges without resourceNameMatch). */
  private baseRanges(q: AclStoreQuery): { ranges: [number, number][]; checkPattern: number } | null {
    const typeFilter = q.resourceType ?? "ANY";
    const patternFilter = q.patternType ?? "ANY";
    const name = q.resourceName ?? null;
    const prefix = q.resourceNamePrefix ?? null;
    const types = typeFilter === "ANY" ? TYPE_NAMES.map((_, t) => t) : [TYPE_CODE.get(typeFilter)];
    if (types[0] === undefined) return null;
    const exactPattern = patternFilter === "LITERAL" ? LITERAL : patternFilter === "PREFIXED" ? PREFIXED : -1;
    const startsWithPrefix = (id: number) => prefix === null || this.names[id]!.startsWith(prefix);
    const ranges: [number, number][] = [];
    let checkPattern = -1;
    if (name !== null && patternFilter === "MATCH") return { ranges: this.matchRanges(types as number[], name, -1, startsWithPrefix), checkPattern };
    if (name !== null) {
      const id = indexOfString(this.names, name);
      if (id < 0 || !startsWithPrefix(id)) return { ranges, checkPattern };
      for (const t of types as number[]) {
        const r = this.patternRange(t, id, exactPattern);
        if (r[1] > r[0]) ranges.push(r);
      }
      return { ranges, checkPattern };
    }
    // No name: whole types, or the names under the prefix; the pattern type is checked per ACL.
    checkPattern = exactPattern;
    let loId = 0;
    let hiId = this.names.length;
    if (prefix !== null) {
      loId = lowerBoundString(this.names, prefix);
      const end = prefixEnd(prefix);
      hiId = end === null ? this.names.length : lowerBoundString(this.names, end, loId);
    }
    for (const t of types as number[]) {
      const lo = this.typeStart[t]!;
      const hi = this.typeStart[t + 1]!;
      const from = loId === 0 ? lo : lowerBound(this.nameCol, loId, lo, hi);
      const to = hiId === this.names.length ? hi : lowerBound(this.nameCol, hiId, from, hi);
      if (to > from) ranges.push([from, to]);
    }
    return { ranges, checkPattern };
  }

  /** The positions a query selects, ascending (the browse order). */
  private select(q: AclStoreQuery): Selection {
    const resource = this.resourceRanges(q);
    if (resource === null) return EMPTY_SELECTION;
    const { ranges, checkPattern } = resource;
    const rangeTotal = ranges.reduce((s, [a, b]) => s + (b - a), 0);

    // Entry predicates as ids; a value no ACL has answers "nothing" at once.
    let principalId = -1;
    if (q.principal != null) {
      principalId = indexOfString(this.principals, q.principal);
      if (principalId < 0) return EMPTY_SELECTION;
    }
    let principalMask: Uint8Array | null = null;
    let principalIds: number[] = [];
    if (q.principalContains != null && q.principalContains !== "") {
      const fragment = q.principalContains.toLowerCase();
      this.principalsLower ??= this.principals.map((p) => p.toLowerCase());
      principalMask = new Uint8Array(this.principals.length);
      this.principalsLower.forEach((p, id) => {
        if (p.includes(fragment)) {
          principalMask![id] = 1;
          principalIds.push(id);
        }
      });
      if (principalId >= 0) principalIds = principalMask[principalId] === 1 ? [principalId] : [];
      if (principalIds.length === 0) return EMPTY_SELECTION;
    }
    let hostId = -1;
    if (q.host != null) {
      hostId = indexOfString(this.hosts, q.host);
      if (hostId < 0) return EMPTY_SELECTION;
    }
    const opFilter = q.operation ?? "ANY";
    const op = opFilter === "ANY" ? -1 : (OPERATION_CODE.get(opFilter) ?? -2);
    const permFilter = q.permissionType ?? "ANY";
    const perm = permFilter === "ANY" ? -1 : (PERMISSION_CODE.get(permFilter) ?? -2);
    if (op === -2 || perm === -2) return EMPTY_SELECTION;

    const entryFiltered = principalId >= 0 || principalMask !== null || hostId >= 0 || op >= 0 || perm >= 0;
    if (!entryFiltered && checkPattern < 0) return ranges.length === 0 ? EMPTY_SELECTION : new RangeSelection(ranges);

    // The smallest source of candidates: the resource ranges or one posting list (union).
    type Source = { size: number; positions: () => Uint32Array | null };
    const sources: Source[] = [{ size: rangeTotal, positions: () => null }];
    if (principalId >= 0) {
      const p = this.principalIndex();
      sources.push({ size: postingSize(p, principalId), positions: () => p.positions.subarray(p.offsets[principalId], p.offsets[principalId + 1]) });
    } else if (principalMask !== null) {
      const p = this.principalIndex();
      const size = principalIds.reduce((s, id) => s + postingSize(p, id), 0);
      sources.push({
        size,
        positions: () => {
          const out = new Uint32Array(size);
          let k = 0;
          for (const id of principalIds) {
            out.set(p.positions.subarray(p.offsets[id], p.offsets[id + 1]), k);
            k += postingSize(p, id);
          }
          return principalIds.length > 1 ? out.sort() : out;
        },
      });
    }
    if (op >= 0) {
      const p = this.operationIndex();
      sources.push({ size: postingSize(p, op), positions: () => p.positions.subarray(p.offsets[op], p.offsets[op + 1]) });
    }
    if (hostId >= 0) {
      const p = this.hostIndex();
      sources.push({ size: postingSize(p, hostId), positions: () => p.positions.subarray(p.offsets[hostId], p.offsets[hostId + 1]) });
    }
    const best = sources.reduce((a, b) => (b.size < a.size ? b : a));
    if (best.size === 0) return EMPTY_SELECTION;

    const out = new Uint32Array(best.size);
    let m = 0;
    const accept = (i: number): boolean =>
      (checkPattern < 0 || this.patternCol[i] === checkPattern) &&
      (principalId < 0 || this.principalCol[i] === principalId) &&
      (principalMask === null || principalMask[this.principalCol[i]!] === 1) &&
      (hostId < 0 || this.hostCol[i] === hostId) &&
      (op < 0 || this.operationCol[i] === op) &&
      (perm < 0 || this.permissionCol[i] === perm);
    const listed = best.positions();
    if (listed === null) {
      for (const [from, to] of ranges) for (let i = from; i < to; i++) if (accept(i)) out[m++] = i;
    } else {
      // Walk the ascending candidates and the ascending ranges together.
      let r = 0;
      for (let k = 0; k < listed.length; k++) {
        const i = listed[k]!;
        while (r < ranges.length && ranges[r]![1] <= i) r++;
        if (r === ranges.length) break;
        if (i < ranges[r]![0]) continue;
        if (accept(i)) out[m++] = i;
      }
    }
    if (m === 0) return EMPTY_SELECTION;
    return new ArraySelection(m === out.length ? out : out.slice(0, m));
  }

  /** The whole store in one column's order (that column, then the browse order), counted out once. */
  private order(sort: Exclude<AclStoreSort, "resource" | "resourceType">): Uint32Array {
    if (sort === "principal") return this.principalIndex().positions;
    if (sort === "operation") return this.operationIndex().positions;
    if (sort === "host") return this.hostIndex().positions;
    let order = this.orders.get(sort);
    if (order === undefined) {
      order =
        sort === "resourceName"
          ? buildPostings(this.nameCol, this.names.length).positions
          : sort === "patternType"
            ? buildPostings(this.patternCol, PATTERN_NAMES.length).positions
            : buildPostings(this.permissionCol, PERMISSION_NAMES.length).positions;
      this.orders.set(sort, order);
    }
    return order;
  }

  private column(sort: Exclude<AclStoreSort, "resource" | "resourceType">): Uint8Array | Uint32Array {
    const columns = {
      resourceName: this.nameCol,
      patternType: this.patternCol,
      principal: this.principalCol,
      host: this.hostCol,
      operation: this.operationCol,
      permissionType: this.permissionCol,
    } as const;
    return columns[sort];
  }

  /**
   * `selection` (ascending positions) in a column's order. All of it: the precomputed
   * permutation itself. A small part: its own sort (m log m). A large part: picked out of
   * the permutation in one pass (n), whichever is cheaper.
   */
  private sortedBy(selection: Selection, sort: AclStoreSort): Selection {
    if (sort === "resource" || sort === "resourceType" || selection.length < 2) return selection;
    const n = this.size;
    const m = selection.length;
    if (m === n) return new ArraySelection(this.order(sort));
    const out = new Uint32Array(m);
    if (m * Math.log2(m) > n) {
      const order = this.order(sort);
      const chosen = new Uint8Array(n);
      for (let k = 0; k < m; k++) chosen[selection.at(k)] = 1;
      let j = 0;
      for (let k = 0; k < n && j < m; k++) if (chosen[order[k]!] === 1) out[j++] = order[k]!;
      return new ArraySelection(out);
    }
    const col = this.column(sort);
    const keys = new Float64Array(m);
    for (let k = 0; k < m; k++) {
      const i = selection.at(k);
      keys[k] = col[i]! * n + i;
    }
    keys.sort();
    for (let k = 0; k < m; k++) out[k] = keys[k]! % n;
    return new ArraySelection(out);
  }

  private ordered(q: AclStoreQuery): Selection {
    const key = JSON.stringify([
      q.resourceType ?? "ANY",
      q.resourceName ?? null,
      q.patternType ?? "ANY",
      q.resourceNamePrefix ?? null,
      q.resourceNameMatch ?? null,
      q.principal ?? null,
      q.principalContains || null,
      q.host ?? null,
      q.operation ?? "ANY",
      q.permissionType ?? "ANY",
      q.sort ?? "resource",
      q.descending === true,
    ]);
    const hit = this.cache.get(key);
    if (hit !== undefined) {
      this.cache.delete(key);
      this.cache.set(key, hit);
      return hit;
    }
    let s = this.select(q);
    s = this.sortedBy(s, q.sort ?? "resource");
    if (q.descending === true && s.length > 1) s = new ReversedSelection(s);
    this.cache.set(key, s);
    if (this.cache.size > QUERY_CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
    return s;
  }

  /** How many ACLs a query matches. */
  count(q: AclStoreQuery = {}): number {
    return this.ordered(q).length;
  }

  /** One page of a query: a slice of its order. Cost: the matching ACLs (once; cached), then the page. */
  query(q: AclStorePageRequest = {}): AclStorePage {
    const pageSize = Math.max(1, Math.floor(q.pageSize ?? DEFAULT_STORE_PAGE_SIZE));
    const s = this.ordered(q);
    const pages = Math.max(1, Math.ceil(s.length / pageSize));
    const page = Math.min(Math.max(1, Math.floor(q.page ?? 1)), pages);
    const from = (page - 1) * pageSize;
    const to = Math.min(s.length, from + pageSize);
    const acls: AclBinding[] = [];
    for (let k = from; k < to; k++) acls.push(this.bindingAt(s.at(k)));
    return { acls, total: this.size, matching: s.length, page, pageSize, pages };
  }

  /** Every ACL a query matches, in its order. */
  all(q: AclStoreQuery = {}): AclBinding[] {
    const s = this.ordered(q);
    const shared = this.materialized;
    const out = new Array<AclBinding>(s.length);
    for (let k = 0; k < s.length; k++) {
      const i = s.at(k);
      out[k] = shared !== null ? shared[i]! : this.bindingAt(i);
    }
    return out;
  }

  /** Kafka's AclBindingFilter (DescribeAcls semantics), in the browse order. */
  filter(f: AclBindingFilter): AclBinding[] {
    return this.all(fromKafkaFilter(f));
  }

  /** The distinct names of the type's patterns (of one pattern type when given), sorted. */
  resourceNames(resourceType: ResourceType, patternType?: PatternType): string[] {
    const t = TYPE_CODE.get(resourceType)!;
    const hi = this.typeStart[t + 1]!;
    const out: string[] = [];
    let i = this.typeStart[t]!;
    while (i < hi) {
      const id = this.nameCol[i]!;
      const end = lowerBound(this.nameCol, id + 1, i, hi);
      if (patternType === undefined) out.push(this.names[id]!);
      else {
        const [from, to] = this.patternRange(t, id, PATTERN_CODE.get(patternType)!);
        if (to > from) out.push(this.names[id]!);
      }
      i = end;
    }
    return out;
  }

  // ---- change -------------------------------------------------------------------------------

  /**
   * A new store: this one without `deleted` and with `created` (creating a present ACL
   * and deleting an absent one change nothing; an ACL in both stays). This store is left
   * as it was. Nothing is sorted again: the surviving rows, already in order, are merged
   * with the few new ones, and the string tables with theirs — O(n) copying for k changes.
   */
  withChange(created: Iterable<AclBinding>, deleted: Iterable<AclBinding>): AclStore {
    const n = this.size;
    const gone = new Uint8Array(n);
    let goneCount = 0;
    for (const d of deleted) {
      const i = this.positionOf(d);
      if (i >= 0 && gone[i] === 0) {
        gone[i] = 1;
        goneCount++;
      }
    }
    const adds: AclBinding[] = [];
    for (const c of created) {
      const i = this.positionOf(c);
      if (i < 0) adds.push(c);
      else if (gone[i] === 1) {
        gone[i] = 0;
        goneCount--;
      }
    }
    if (goneCount === 0 && adds.length === 0) return this;
    const add = AclStore.build(adds);

    // The string tables: the entries surviving rows still use, merged with the new ones.
    const used = (col: Uint32Array, size: number): Uint8Array => {
      const u = new Uint8Array(size);
      for (let i = 0; i < n; i++) if (gone[i] === 0) u[col[i]!] = 1;
      return u;
    };
    const names = mergeTables(this.names, used(this.nameCol, this.names.length), add.names);
    const principals = mergeTables(this.principals, used(this.principalCol, this.principals.length), add.principals);
    const hosts = mergeTables(this.hosts, used(this.hostCol, this.hosts.length), add.hosts);

    // The rows: two sorted sequences (ids remapped to the merged tables keep their order).
    const m = n - goneCount + add.size;
    const out: Columns = {
      type: new Uint8Array(m),
      name: new Uint32Array(m),
      pattern: new Uint8Array(m),
      principal: new Uint32Array(m),
      operation: new Uint8Array(m),
      permission: new Uint8Array(m),
      host: new Uint32Array(m),
    };
    const a = { store: this as AclStore, nameMap: names.oldMap, principalMap: principals.oldMap, hostMap: hosts.oldMap };
    const b = { store: add, nameMap: names.addMap, principalMap: principals.addMap, hostMap: hosts.addMap };
    const key = (side: typeof a, i: number): [number, number, number, number, number, number, number] => [
      side.store.typeCol[i]!,
      side.nameMap[side.store.nameCol[i]!]!,
      side.store.patternCol[i]!,
      side.principalMap[side.store.principalCol[i]!]!,
      side.store.operationCol[i]!,
      side.store.permissionCol[i]!,
      side.hostMap[side.store.hostCol[i]!]!,
    ];
    const put = (k: number, f: readonly number[]) => {
      out.type[k] = f[0]!;
      out.name[k] = f[1]!;
      out.pattern[k] = f[2]!;
      out.principal[k] = f[3]!;
      out.operation[k] = f[4]!;
      out.permission[k] = f[5]!;
      out.host[k] = f[6]!;
    };
    let i = 0;
    let j = 0;
    let k = 0;
    let next = add.size > 0 ? key(b, 0) : null;
    while (i < n) {
      if (gone[i] === 1) {
        i++;
        continue;
      }
      if (next !== null) {
        const mine = key(a, i);
        let before = false;
        for (let f = 0; f < 7; f++) {
          if (next[f] !== mine[f]) {
            before = next[f]! < mine[f]!;
            break;
          }
        }
        if (before) {
          put(k++, next);
          j++;
          next = j < add.size ? key(b, j) : null;
          continue;
        }
      }
      // Unchanged rows between two insertions: copy the stretch, remapping the ids.
      let end = i + 1;
      const limit = next === null ? n : this.upperBoundBefore(next, i, a);
      while (end < limit && gone[end] === 0) end++;
      for (let r = i; r < end; r++) {
        out.type[k] = this.typeCol[r]!;
        out.name[k] = a.nameMap[this.nameCol[r]!]!;
        out.pattern[k] = this.patternCol[r]!;
        out.principal[k] = a.principalMap[this.principalCol[r]!]!;
        out.operation[k] = this.operationCol[r]!;
        out.permission[k] = this.permissionCol[r]!;
        out.host[k] = a.hostMap[this.hostCol[r]!]!;
        k++;
      }
      i = end;
    }
    while (next !== null) {
      put(k++, next);
      j++;
      next = j < add.size ? key(b, j) : null;
    }
    return new AclStore(names.values, principals.values, hosts.values, out.type, out.name, out.pattern, out.principal, out.operation, out.permission, out.host);
  }

  /** The first position in [from, size) whose row (ids remapped by `side`) sorts after `row`; at least from + 1. */
  private upperBoundBefore(row: readonly number[], from: number, side: { nameMap: Uint32Array; principalMap: Uint32Array; hostMap: Uint32Array }): number {
    const cmp = (i: number): number => {
      const mine = [
        this.typeCol[i]!,
        side.nameMap[this.nameCol[i]!]!,
        this.patternCol[i]!,
        side.principalMap[this.principalCol[i]!]!,
        this.operationCol[i]!,
        this.permissionCol[i]!,
        side.hostMap[this.hostCol[i]!]!,
      ];
      for (let f = 0; f < 7; f++) if (mine[f] !== row[f]) return mine[f]! - row[f]!;
      return 0;
    };
    let lo = from + 1;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cmp(mid) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Every ACL that applies to the resource (Kafka's MATCH), in the browse order; not cached. */
  matching(resourceType: ResourceType, resourceName: string): AclBinding[] {
    const r = this.resourceRanges({ resourceType, resourceName, patternType: "MATCH" });
    const out: AclBinding[] = [];
    const shared = this.materialized;
    for (const [from, to] of r?.ranges ?? []) for (let i = from; i < to; i++) out.push(shared !== null ? shared[i]! : this.bindingAt(i));
    return out;
  }

  /** How many ACLs apply to the resource (Kafka's MATCH): a few binary searches, nothing listed. */
  countMatching(resourceType: ResourceType, resourceName: string): number {
    const r = this.resourceRanges({ resourceType, resourceName, patternType: "MATCH" });
    let count = 0;
    for (const [from, to] of r?.ranges ?? []) count += to - from;
    return count;
  }

  /** Whether both stores hold exactly the same ACLs. */
  sameAs(other: AclStore): boolean {
    if (other === this) return true;
    if (other.size !== this.size) return false;
    const tables: [readonly string[], readonly string[]][] = [
      [this.names, other.names],
      [this.principals, other.principals],
      [this.hosts, other.hosts],
    ];
    for (const [a, b] of tables) {
      if (a.length !== b.length) return false;
      for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    }
    const cols: [ArrayLike<number>, ArrayLike<number>][] = [
      [this.typeCol, other.typeCol],
      [this.nameCol, other.nameCol],
      [this.patternCol, other.patternCol],
      [this.principalCol, other.principalCol],
      [this.operationCol, other.operationCol],
      [this.permissionCol, other.permissionCol],
      [this.hostCol, other.hostCol],
    ];
    for (const [a, b] of cols) for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }

  /** Bytes held by the typed arrays and (roughly) the string tables, for diagnostics. */
  approximateBytes(): number {
    let bytes = this.size * 16;
    for (const table of [this.names, this.principals, this.hosts]) for (const s of table) bytes += 16 + s.length * 2;
    return bytes;
  }
}

/** The positions in both lists of ascending disjoint ranges, as ascending disjoint ranges. */
function intersectRanges(a: readonly [number, number][], b: readonly [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const from = Math.max(a[i]![0], b[j]![0]);
    const to = Math.min(a[i]![1], b[j]![1]);
    if (to > from) out.push([from, to]);
    if (a[i]![1] < b[j]![1]) i++;
    else j++;
  }
  return out;
}

/**
 * Merges a sorted table — only the entries `used` marks — with another sorted table,
 * and maps both tables' ids to the merged table's (ids of dropped entries are unused).
 */
function mergeTables(old: readonly string[], used: Uint8Array, added: readonly string[]): { values: string[]; oldMap: Uint32Array; addMap: Uint32Array } {
  const values: string[] = [];
  const oldMap = new Uint32Array(old.length);
  const addMap = new Uint32Array(added.length);
  let i = 0;
  let j = 0;
  while (i < old.length || j < added.length) {
    const x = i < old.length ? old[i]! : undefined;
    const y = j < added.length ? added[j]! : undefined;
    if (y === undefined || (x !== undefined && x < y)) {
      if (used[i] === 1) {
        oldMap[i] = values.length;
        values.push(x!);
      }
      i++;
    } else if (x === undefined || y < x) {
      addMap[j++] = values.length;
      values.push(y);
    } else {
      oldMap[i++] = values.length;
      addMap[j++] = values.length;
      values.push(x);
    }
  }
  return { values, oldMap, addMap };
}

/** An AclBindingFilter as a store query (same semantics). */
export function fromKafkaFilter(f: AclBindingFilter): AclStoreQuery {
  return {
    resourceType: f.resourceType,
    resourceName: f.resourceName,
    patternType: f.patternType,
    principal: f.principal,
    host: f.host,
    operation: f.operation,
    permissionType: f.permissionType,
  };
}
