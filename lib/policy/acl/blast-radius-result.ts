/**
 * BlastRadius: the decision changes of one ACL change, held per resource and principal
 * class (equal changes stored once), so that counting, summarising and paging never
 * materialise rows that are not asked for. blast-radius.ts computes it.
 *
 * Rows are ordered by resource type (RESOURCE_TYPES order), resource name, principal,
 * host (names in UTF-16 code unit order) and operation (SUPPORTED_OPERATIONS order).
 */
import type { AclBinding, AclOperation, ResourceType } from "../types";
import type { Decision } from "./model";

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

export interface OpCell {
  operation: AclOperation;
  before: Decision;
  after: Decision;
}

/** The changes of one principal (or of every principal of a class) on one resource. */
export interface PrincipalChanges {
  /** On hosts that ACLs on the resource name, ascending. */
  hostCells: { host: string; cells: OpCell[] }[];
  /** On each universe host no ACL on the resource names. */
  otherHostCells: OpCell[];
  rows: number;
  gained: number;
  lost: number;
}

export interface Block {
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
    this.summaryCache = {
      changes: this.total,
      gained,
      lost,
      principals: byPrincipal.length,
      resources: byResource.length,
      byPrincipal,
      byResource,
    };
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
            fn({
              principal,
              host: r.host,
              resourceType: block.resourceType,
              resourceName: block.resourceName,
              operation: r.operation,
              before: r.before,
              after: r.after,
            });
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
