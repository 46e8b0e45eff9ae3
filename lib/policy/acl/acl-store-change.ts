/**
 * An AclStore changed without sorting again (Kafka keeps its AclChanges apart from the
 * AclCache they produce): the rows that survive the deletes, already in the browse order,
 * are merged with the created ones (sorted on their own), and the string tables with
 * theirs — O(n) copying for k changes.
 */
import { emptyColumns, type AclRows } from "./acl-store-columns";

/**
 * The rows of `old` less the `goneCount` ones `gone` marks, merged with `add` (rows `old`
 * does not hold), on the merged string tables.
 */
export function mergeRows(old: AclRows, gone: Uint8Array, goneCount: number, add: AclRows): AclRows {
  const n = old.type.length;
  const added = add.type.length;
  // The string tables: the entries surviving rows still use, merged with the new ones.
  const used = (col: Uint32Array, size: number): Uint8Array => {
    const u = new Uint8Array(size);
    for (let i = 0; i < n; i++) if (gone[i] === 0) u[col[i]!] = 1;
    return u;
  };
  const names = mergeTables(old.names, used(old.name, old.names.length), add.names);
  const principals = mergeTables(old.principals, used(old.principal, old.principals.length), add.principals);
  const hosts = mergeTables(old.hosts, used(old.host, old.hosts.length), add.hosts);

  // The rows: two sorted sequences (ids remapped to the merged tables keep their order).
  const m = n - goneCount + added;
  const out = emptyColumns(m);
  const a = { rows: old, nameMap: names.oldMap, principalMap: principals.oldMap, hostMap: hosts.oldMap };
  const b = { rows: add, nameMap: names.addMap, principalMap: principals.addMap, hostMap: hosts.addMap };
  const key = (side: typeof a, i: number): [number, number, number, number, number, number, number] => [
    side.rows.type[i]!,
    side.nameMap[side.rows.name[i]!]!,
    side.rows.pattern[i]!,
    side.principalMap[side.rows.principal[i]!]!,
    side.rows.operation[i]!,
    side.rows.permission[i]!,
    side.hostMap[side.rows.host[i]!]!,
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
  let next = added > 0 ? key(b, 0) : null;
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
        next = j < added ? key(b, j) : null;
        continue;
      }
    }
    // Unchanged rows between two insertions: copy the stretch, remapping the ids.
    let end = i + 1;
    const limit = next === null ? n : upperBoundBefore(old, next, i, a);
    while (end < limit && gone[end] === 0) end++;
    for (let r = i; r < end; r++) {
      out.type[k] = old.type[r]!;
      out.name[k] = a.nameMap[old.name[r]!]!;
      out.pattern[k] = old.pattern[r]!;
      out.principal[k] = a.principalMap[old.principal[r]!]!;
      out.operation[k] = old.operation[r]!;
      out.permission[k] = old.permission[r]!;
      out.host[k] = a.hostMap[old.host[r]!]!;
      k++;
    }
    i = end;
  }
  while (next !== null) {
    put(k++, next);
    j++;
    next = j < added ? key(b, j) : null;
  }
  return { names: names.values, principals: principals.values, hosts: hosts.values, ...out };
}

/**
 * The first position in [from, size) of `old` whose row (ids remapped by `side`) sorts after `row`; at least from + 1.
 */
function upperBoundBefore(
  old: AclRows,
  row: readonly number[],
  from: number,
  side: { nameMap: Uint32Array; principalMap: Uint32Array; hostMap: Uint32Array },
): number {
  const cmp = (i: number): number => {
    const mine = [
      old.type[i]!,
      side.nameMap[old.name[i]!]!,
      old.pattern[i]!,
      side.principalMap[old.principal[i]!]!,
      old.operation[i]!,
      old.permission[i]!,
      side.hostMap[old.host[i]!]!,
    ];
    for (let f = 0; f < 7; f++) if (mine[f] !== row[f]) return mine[f]! - row[f]!;
    return 0;
  };
  let lo = from + 1;
  let hi = old.type.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cmp(mid) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Merges a sorted table — only the entries `used` marks — with another sorted table,
 * and maps both tables' ids to the merged table's (ids of dropped entries are unused).
 */
function mergeTables(
  old: readonly string[],
  used: Uint8Array,
  added: readonly string[],
): { values: string[]; oldMap: Uint32Array; addMap: Uint32Array } {
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
