/**
 * How AclStore lays out its ACLs (n distinct ACLs, positions 0..n-1 in the browse order):
 * - three sorted string tables — resource names, principals, hosts — whose index IS the
 *   string's rank, so comparing two ids compares the strings (UTF-16 code units, like
 *   JavaScript's `<` and Java's String.compareTo);
 * - seven parallel typed arrays, one field each: resource type, name id, pattern type,
 *   principal id, host id, operation, permission (16 bytes per ACL), the enum fields as
 *   codes that compare like Kafka's names;
 * - the browse order is (resource type, resource name, pattern type, principal,
 *   operation, permission, host), each compared as the name Kafka gives it. So every
 *   resource type, every (type, name) and every (type, name, pattern) is a contiguous
 *   range (binary search), and so are the names starting with a prefix.
 * The binary searches over those tables and columns live here too.
 */
import { OPERATIONS, PATTERN_TYPES, PERMISSION_TYPES, RESOURCE_TYPES } from "../types";

// ---- codes: each enum's names sorted as strings, so codes compare like the names ----------

const sortedCopy = <T extends string>(xs: readonly T[]): readonly T[] => Object.freeze([...xs].sort());

export const TYPE_NAMES = sortedCopy(RESOURCE_TYPES);
export const PATTERN_NAMES = sortedCopy(PATTERN_TYPES);
export const OPERATION_NAMES = sortedCopy(OPERATIONS);
export const PERMISSION_NAMES = sortedCopy(PERMISSION_TYPES);

const codes = <T extends string>(names: readonly T[]): ReadonlyMap<string, number> =>
  new Map(names.map((n, i) => [n, i]));
export const TYPE_CODE = codes(TYPE_NAMES);
export const PATTERN_CODE = codes(PATTERN_NAMES);
export const OPERATION_CODE = codes(OPERATION_NAMES);
export const PERMISSION_CODE = codes(PERMISSION_NAMES);
export const LITERAL = PATTERN_CODE.get("LITERAL")!;
export const PREFIXED = PATTERN_CODE.get("PREFIXED")!;

export function codeOf(table: ReadonlyMap<string, number>, value: string, what: string): number {
  const c = table.get(value);
  if (c === undefined) throw new Error(`Not a Kafka ${what}: ${JSON.stringify(value)}.`);
  return c;
}

/** The seven columns, one entry per ACL. */
export interface Columns {
  type: Uint8Array;
  name: Uint32Array;
  pattern: Uint8Array;
  principal: Uint32Array;
  operation: Uint8Array;
  permission: Uint8Array;
  host: Uint32Array;
}

export function emptyColumns(n: number): Columns {
  return {
    type: new Uint8Array(n),
    name: new Uint32Array(n),
    pattern: new Uint8Array(n),
    principal: new Uint32Array(n),
    operation: new Uint8Array(n),
    permission: new Uint8Array(n),
    host: new Uint32Array(n),
  };
}

/** A whole store's content: the sorted string tables and the columns in the browse order. */
export interface AclRows extends Columns {
  names: readonly string[];
  principals: readonly string[];
  hosts: readonly string[];
}

/** First index in [lo, hi) of the sorted `table` whose value is >= `value`. */
export function lowerBoundString(table: readonly string[], value: string, lo = 0, hi = table.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (table[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function indexOfString(table: readonly string[], value: string): number {
  const i = lowerBoundString(table, value);
  return i < table.length && table[i] === value ? i : -1;
}

/** First position in [lo, hi) whose `column` value is >= `value` (the column is sorted on that stretch). */
export function lowerBound(column: Uint8Array | Uint32Array, value: number, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (column[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The smallest string greater than every string that starts with `prefix` (null: none). */
export function prefixEnd(prefix: string): string | null {
  let p = prefix;
  while (p.length > 0) {
    const last = p.charCodeAt(p.length - 1);
    if (last < 0xffff) return p.slice(0, -1) + String.fromCharCode(last + 1);
    p = p.slice(0, -1);
  }
  return null;
}
