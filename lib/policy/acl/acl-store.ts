/**
 * AclStore: one full ACL set held for browsing — deduplicated (Kafka's set semantics),
 * interned and pre-sorted once, so that a page is a slice of a sorted order and a filter
 * walks an index: a query costs in proportion to its answer, not to the number of ACLs.
 * The authorizer's own index (AclIndex, Kafka's scan order) is built from the same
 * interned bindings on first use, so one snapshot answers lists, filters and decisions.
 *
 * The layout (sorted string tables, one typed array per field, the browse order) is in
 * acl-store-columns.ts; loading in acl-store-builder.ts; changing in acl-store-change.ts;
 * the position sets a query works with (ranges, posting lists by principal, operation
 * and host, built on first use) in acl-selection.ts.
 *
 * Filters follow Kafka's AclBindingFilter (see filter.ts): pattern ANY = this exact name,
 * any pattern; MATCH = every pattern that applies to the name. The store adds what a
 * console needs beside them (acl-store-query.ts): names starting with a prefix, and a
 * principal fragment.
 */
import {
  WILDCARD_RESOURCE,
  type AclBinding,
  type AclBindingFilter,
  type PatternType,
  type ResourceType,
} from "../types";
import { AclIndex } from "./acl-index";
import {
  ArraySelection,
  EMPTY_SELECTION,
  RangeSelection,
  ReversedSelection,
  buildPostings,
  intersectRanges,
  postingSize,
  type Postings,
  type Selection,
} from "./acl-selection";
import { AclRowsBuilder } from "./acl-store-builder";
import { mergeRows } from "./acl-store-change";
import {
  LITERAL,
  OPERATION_CODE,
  OPERATION_NAMES,
  PATTERN_CODE,
  PATTERN_NAMES,
  PERMISSION_CODE,
  PERMISSION_NAMES,
  PREFIXED,
  TYPE_CODE,
  TYPE_NAMES,
  indexOfString,
  lowerBound,
  lowerBoundString,
  prefixEnd,
  type AclRows,
} from "./acl-store-columns";
import {
  DEFAULT_STORE_PAGE_SIZE,
  fromKafkaFilter,
  type AclStorePage,
  type AclStorePageRequest,
  type AclStoreQuery,
  type AclStoreSort,
} from "./acl-store-query";

/**
 * Collects ACLs one at a time (e.g. straight from a DescribeAcls answer, without an
 * AclBinding object each), interning the strings, then sorts once.
 */
export class AclStoreBuilder extends AclRowsBuilder {
  /** The store; the builder is spent. `keyLimit` (tests) forces the comparator sort when small. */
  build(options: { keyLimit?: number } = {}): AclStore {
    return new AclStore(this.sortRows(options));
  }
}

const QUERY_CACHE_SIZE = 32;

export class AclStore {
  readonly names: readonly string[];
  readonly principals: readonly string[];
  readonly hosts: readonly string[];
  private readonly typeCol: Uint8Array;
  private readonly nameCol: Uint32Array;
  private readonly patternCol: Uint8Array;
  private readonly principalCol: Uint32Array;
  private readonly operationCol: Uint8Array;
  private readonly permissionCol: Uint8Array;
  private readonly hostCol: Uint32Array;
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
  constructor(rows: AclRows) {
    const { names, type: typeCol, name: nameCol, pattern: patternCol } = rows;
    this.names = names;
    this.principals = rows.principals;
    this.hosts = rows.hosts;
    this.typeCol = typeCol;
    this.nameCol = nameCol;
    this.patternCol = patternCol;
    this.principalCol = rows.principal;
    this.operationCol = rows.operation;
    this.permissionCol = rows.permission;
    this.hostCol = rows.host;
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
    const only =
      base.checkPattern >= 0
        ? base.checkPattern
        : q.patternType === "LITERAL"
          ? LITERAL
          : q.patternType === "PREFIXED"
            ? PREFIXED
            : -1;
    return {
      ranges: intersectRanges(
        base.ranges,
        this.matchRanges(types, match, only, () => true),
      ),
      checkPattern: base.checkPattern,
    };
  }

  /**
   * Kafka's MATCH for one name: LITERAL name, LITERAL `*`, and PREFIXED p for every
   * prefix p of the name (ResourcePatternFilter.matches), as ascending disjoint ranges;
   * `only` keeps one pattern type (-1: both).
   */
  private matchRanges(
    types: readonly number[],
    name: string,
    only: number,
    keep: (nameId: number) => boolean,
  ): [number, number][] {
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
    if (name !== null && patternFilter === "MATCH")
      return { ranges: this.matchRanges(types as number[], name, -1, startsWithPrefix), checkPattern };
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
      sources.push({
        size: postingSize(p, principalId),
        positions: () => p.positions.subarray(p.offsets[principalId], p.offsets[principalId + 1]),
      });
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
      sources.push({
        size: postingSize(p, op),
        positions: () => p.positions.subarray(p.offsets[op], p.offsets[op + 1]),
      });
    }
    if (hostId >= 0) {
      const p = this.hostIndex();
      sources.push({
        size: postingSize(p, hostId),
        positions: () => p.positions.subarray(p.offsets[hostId], p.offsets[hostId + 1]),
      });
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
    return new AclStore(mergeRows(this.rows(), gone, goneCount, AclStore.build(adds).rows()));
  }

  /** The store's content as AclRows (the arrays themselves, not copies). */
  private rows(): AclRows {
    return {
      names: this.names,
      principals: this.principals,
      hosts: this.hosts,
      type: this.typeCol,
      name: this.nameCol,
      pattern: this.patternCol,
      principal: this.principalCol,
      operation: this.operationCol,
      permission: this.permissionCol,
      host: this.hostCol,
    };
  }

  /** Every ACL that applies to the resource (Kafka's MATCH), in the browse order; not cached. */
  matching(resourceType: ResourceType, resourceName: string): AclBinding[] {
    const r = this.resourceRanges({ resourceType, resourceName, patternType: "MATCH" });
    const out: AclBinding[] = [];
    const shared = this.materialized;
    for (const [from, to] of r?.ranges ?? [])
      for (let i = from; i < to; i++) out.push(shared !== null ? shared[i]! : this.bindingAt(i));
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
