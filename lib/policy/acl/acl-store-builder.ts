/**
 * Loading an AclStore: ACLs are collected one at a time (e.g. straight from a DescribeAcls
 * answer, without an AclBinding object each), their strings interned, then sorted once
 * into the browse order (acl-store-columns.ts) with the duplicates dropped — Kafka keeps
 * ACLs as a set. AclStoreBuilder (acl-store.ts) is this, handing the rows to a store.
 */
import type { AclBinding, AclOperation, AclPermissionType, PatternType, ResourceType } from "../types";
import {
  OPERATION_CODE,
  OPERATION_NAMES,
  PATTERN_CODE,
  PATTERN_NAMES,
  PERMISSION_CODE,
  PERMISSION_NAMES,
  TYPE_CODE,
  TYPE_NAMES,
  codeOf,
  emptyColumns,
  type AclRows,
  type Columns,
} from "./acl-store-columns";

/** The rows of AclStoreBuilder (see the module comment); `sortRows` spends it. */
export class AclRowsBuilder {
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
    this.name[i] = AclRowsBuilder.intern(this.names, resourceName);
    this.principal[i] = AclRowsBuilder.intern(this.principals, principal);
    this.host[i] = AclRowsBuilder.intern(this.hosts, host);
    this.count = i + 1;
  }

  addBinding(b: AclBinding): void {
    this.add(b.resourceType, b.resourceName, b.patternType, b.principal, b.host, b.operation, b.permissionType);
  }

  /** The rows, sorted and without duplicates; `keyLimit` (tests) forces the comparator sort when small. */
  sortRows(options: { keyLimit?: number } = {}): AclRows {
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
    const out = emptyColumns(n);
    const keyFits = radix.reduce((a, b) => a * b, 1) <= (options.keyLimit ?? Number.MAX_SAFE_INTEGER);
    const m = keyFits ? this.sortByKey(radix, out) : this.sortByColumns(out);
    const trim = <A extends Uint8Array | Uint32Array>(a: A): A => (m === n ? a : (a.slice(0, m) as A));
    return {
      names: names.values,
      principals: principals.values,
      hosts: hosts.values,
      type: trim(out.type),
      name: trim(out.name),
      pattern: trim(out.pattern),
      principal: trim(out.principal),
      operation: trim(out.operation),
      permission: trim(out.permission),
      host: trim(out.host),
    };
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
      keys[i] =
        (((((type[i]! * r1 + name[i]!) * r2 + pattern[i]!) * r3 + principal[i]!) * r4 + operation[i]!) * r5 +
          permission[i]!) *
          r6 +
        host[i]!;
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
