/**
 * The position sets an AclStore query works with: selections (a sequence of positions in
 * the order a page slices: listed, ranges, or reversed), posting lists (CSR: offsets + one
 * Uint32Array, by principal, operation and host, each list ascending; concatenated in id
 * order they ARE the permutation "sorted by that column, then the browse order") and the
 * intersection of range lists.
 */

/** A sequence of positions, in the order a page slices. */
export interface Selection {
  readonly length: number;
  at(i: number): number;
}

export const EMPTY_SELECTION: Selection = { length: 0, at: () => -1 };

export class ArraySelection implements Selection {
  constructor(readonly positions: Uint32Array) {}
  get length(): number {
    return this.positions.length;
  }
  at(i: number): number {
    return this.positions[i]!;
  }
}

/** Disjoint ascending ranges [from, to), paged without listing their positions. */
export class RangeSelection implements Selection {
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

export class ReversedSelection implements Selection {
  constructor(private readonly inner: Selection) {}
  get length(): number {
    return this.inner.length;
  }
  at(i: number): number {
    return this.inner.at(this.inner.length - 1 - i);
  }
}

/** Posting lists: ids 0..k-1 -> ascending positions, as offsets into one array. */
export interface Postings {
  readonly offsets: Uint32Array;
  readonly positions: Uint32Array;
}

export function buildPostings(ids: Uint8Array | Uint32Array, idCount: number): Postings {
  const offsets = new Uint32Array(idCount + 1);
  for (let i = 0; i < ids.length; i++) offsets[ids[i]! + 1]! += 1;
  for (let k = 0; k < idCount; k++) offsets[k + 1]! += offsets[k]!;
  const fill = offsets.slice(0, idCount);
  const positions = new Uint32Array(ids.length);
  for (let i = 0; i < ids.length; i++) positions[fill[ids[i]!]!++] = i;
  return { offsets, positions };
}

export function postingSize(p: Postings, id: number): number {
  return p.offsets[id + 1]! - p.offsets[id]!;
}

/** The positions in both lists of ascending disjoint ranges, as ascending disjoint ranges. */
export function intersectRanges(a: readonly [number, number][], b: readonly [number, number][]): [number, number][] {
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
