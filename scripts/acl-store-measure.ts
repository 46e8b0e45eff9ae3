/**
 * How long building the console's ACL snapshot takes, and what it holds, at 100,000 and
 * 300,000 ACLs of a realistic shape (teams, services, topics; PREFIXED stems; groups,
 * transactional ids; some User:*, host-pinned and DENY entries):
 *
 *   npx tsx scripts/acl-store-measure.ts [100000 300000 ...]
 *
 * Prints one JSON line per size: the store build (sort, intern, dedupe), the authorizer
 * index built from it, a page-1 / page-50 / filter / MATCH query, and the heap the
 * snapshot holds (gc() before and after). Times are CPU milliseconds of this process, so
 * that a loaded machine does not inflate them.
 */
import v8 from "node:v8";
import vm from "node:vm";
import { AclStore, AclStoreBuilder } from "../lib/policy/acl/acl-store";
import { ACL_STORE_SORTS } from "../lib/policy/acl/acl-store-query";
import { lintAcls } from "../lib/policy/acl/lint";
import { authorize } from "../lib/policy/acl/authorize";
import type { AclBinding, AclOperation, ResourceType } from "../lib/policy/types";

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;

function mulberry32(seed: number): () => number {
  let s = seed | 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TOPIC_OPERATIONS: AclOperation[] = [
  "ALL",
  "READ",
  "WRITE",
  "CREATE",
  "DELETE",
  "ALTER",
  "DESCRIBE",
  "DESCRIBE_CONFIGS",
  "ALTER_CONFIGS",
];

/** Wire-like: every string a fresh copy, as a decoded DescribeAcls answer gives them. */
export function realisticAcls(total: number, seed = 20_241_130): AclBinding[] {
  const rand = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const int = (n: number): number => Math.floor(rand() * n);
  const hosts = ["*", "*", "*", "*", "*", "*", "10.1.0.7", "10.1.0.8", "10.2.3.4", "192.168.10.20"];
  const teams = Math.max(50, Math.ceil(total / 2000));
  const out: AclBinding[] = [];
  const seen = new Set<string>();
  const fresh = (s: string) => Buffer.from(s).toString();
  const push = (b: AclBinding): void => {
    const k =
      `${b.resourceType}|${b.resourceName}|${b.patternType}|${b.principal}|${b.host}|${b.operation}|` +
      `${b.permissionType}`;
    if (seen.has(k)) return;
    seen.add(k);
    out.push({ ...b, resourceName: fresh(b.resourceName), principal: fresh(b.principal), host: fresh(b.host) });
  };
  const principal = (): string =>
    rand() < 0.02 ? "User:*" : rand() < 0.1 ? `Group:team${int(teams)}` : `User:app-${int(3000)}`;
  const acl = (
    resourceType: ResourceType,
    resourceName: string,
    patternType: "LITERAL" | "PREFIXED",
    operation: AclOperation,
  ): AclBinding => ({
    resourceType,
    resourceName,
    patternType,
    principal: principal(),
    host: pick(hosts),
    operation,
    permissionType: rand() < 0.1 ? "DENY" : "ALLOW",
  });
  for (let i = 0; i < 20; i++) push(acl("TOPIC", "*", "LITERAL", pick(["DESCRIBE", "DESCRIBE_CONFIGS", "READ"])));
  while (out.length < total) {
    const team = int(teams);
    const svc = int(20);
    const r = rand();
    if (r < 0.62) push(acl("TOPIC", `team${team}.svc${svc}.topic${int(20)}`, "LITERAL", pick(TOPIC_OPERATIONS)));
    else if (r < 0.72) push(acl("TOPIC", `team${team}.svc${svc}.`, "PREFIXED", pick(TOPIC_OPERATIONS)));
    else if (r < 0.76) push(acl("TOPIC", `team${team}.`, "PREFIXED", pick(TOPIC_OPERATIONS)));
    else if (r < 0.92)
      push(
        acl(
          "GROUP",
          `team${team}.svc${svc}.consumer${int(5)}`,
          rand() < 0.3 ? "PREFIXED" : "LITERAL",
          pick(["READ", "DESCRIBE", "DELETE"] as AclOperation[]),
        ),
      );
    else if (r < 0.98)
      push(
        acl(
          "TRANSACTIONAL_ID",
          `team${team}.svc${svc}.tx${int(3)}`,
          "LITERAL",
          pick(["WRITE", "DESCRIBE"] as AclOperation[]),
        ),
      );
    else
      push(
        acl("CLUSTER", "kafka-cluster", "LITERAL", pick(["IDEMPOTENT_WRITE", "DESCRIBE", "CREATE"] as AclOperation[])),
      );
  }
  return out;
}

const heapMb = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1048576;
};
/** CPU time of this process (ms): on a shared, loaded machine wall time says more about the neighbours. */
const time = <T>(f: () => T): [T, number] => {
  const t0 = process.cpuUsage();
  const r = f();
  const d = process.cpuUsage(t0);
  return [r, Math.round((d.user + d.system) / 100) / 10];
};
const best = (f: () => unknown, n = 5): number => {
  let m = Infinity;
  for (let i = 0; i < n; i++) m = Math.min(m, time(f)[1]);
  return m;
};

const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const main = import.meta.url === `file://${process.argv[1]}`;
for (const size of !main ? [] : sizes.length > 0 ? sizes : [100_000, 300_000]) {
  const acls = realisticAcls(size);
  const before = heapMb();
  const [store, buildMs] = time(() => {
    const b = new AclStoreBuilder();
    for (const a of acls) b.addBinding(a);
    return b.build();
  });
  const storeMb = heapMb() - before;
  const [, indexMs] = time(() => store.index());
  const withIndexMb = heapMb() - before;
  const rebuildMs = best(() => AclStore.build(acls), 3);
  const principal = acls[1234]!.principal;
  const topic = acls.find(
    (a) => a.resourceType === "TOPIC" && a.patternType === "LITERAL" && a.resourceName !== "*",
  )!.resourceName;
  const fresh = () => AclStore.build(acls.slice(0, 2000)); // small store: query cost without cache
  void fresh;
  const q = {
    page1Ms: best(() => store.query({ page: 1 })),
    page50Ms: best(() => store.query({ page: 50 })),
    principalFilterMs: time(() => store.query({ principal, page: 1 }))[1],
    principalContainsMs: time(() => store.query({ principalContains: "app-12", page: 1 }))[1],
    operationFilterMs: time(() => store.query({ operation: "WRITE", page: 3 }))[1],
    resourceNameMs: time(() => store.query({ resourceName: topic, page: 1 }))[1],
    prefixMs: time(() => store.query({ resourceNamePrefix: "team7.", page: 1 }))[1],
    matchMs: time(() => store.query({ resourceType: "TOPIC", resourceName: topic, patternType: "MATCH" }))[1],
    byPrincipalSortMs: time(() => store.query({ sort: "principal", page: 10 }))[1],
    byPrincipalFilteredSortMs: time(() => store.query({ operation: "READ", sort: "principal", page: 10 }))[1],
    // The ACL list's column sorts: the first page of each whole order (its permutation counted out), then again
    // (cached).
    columnSortFirstMs: Object.fromEntries(
      ACL_STORE_SORTS.map((sort) => [sort, time(() => store.query({ sort, descending: true, page: 1 }))[1]]),
    ),
    columnSortAgainMs: best(() => store.query({ sort: "resourceName", descending: true, page: 2 })),
    largeFilterSortedMs: time(() =>
      store.query({ operation: "READ", sort: "resourceName", descending: true, page: 5 }),
    )[1],
    smallFilterSortedMs: time(() => store.query({ principal, sort: "host", page: 1 }))[1],
    nameMatchFilterMs: time(() => store.query({ resourceNameMatch: topic, sort: "principal", page: 1 }))[1],
    authorizeUs:
      (best(() => {
        for (let i = 0; i < 1000; i++)
          authorize(store.index(), {
            principal,
            host: "10.1.0.7",
            operation: "READ",
            resourceType: "TOPIC",
            resourceName: topic,
          });
      }) *
        1000) /
      1000,
  };
  const [, lintMs] = time(() => lintAcls(store.bindings()));
  const changeMs = time(() => store.withChange([{ ...acls[0]!, principal: "User:new-one" }], [acls[1]!]))[1];
  console.log(
    JSON.stringify({
      acls: size,
      distinct: store.size,
      names: store.names.length,
      principals: store.principals.length,
      storeBuildMs: buildMs,
      storeRebuildBestMs: rebuildMs,
      storeHeapMb: Math.round(storeMb * 10) / 10,
      authorizerIndexBuildMs: indexMs,
      storePlusIndexHeapMb: Math.round(withIndexMb * 10) / 10,
      withChangeMs: changeMs,
      lintOnceMs: lintMs,
      queries: q,
      rssMb: Math.round(process.memoryUsage().rss / 1048576),
    }),
  );
}
