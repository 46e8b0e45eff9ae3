/**
 * `npm run bench -- ui`: the auditor views' exports at scale, in this process, through
 * the same functions the pages and GET /api/v1/effective-permissions use
 * (lib/services/effective-permissions.ts), on synthetic data (no broker):
 *
 *  - 100,000 ACLs over 10,000 topics (`teamT.svcS.topicK`, 50 teams x 20 services x 10),
 *    their consumer groups and transactional ids, 5,000 principals (4,950 `User:app-N`,
 *    50 `Group:teamT`), PREFIXED grants on the team and service stems, some `User:*`,
 *    LITERAL `*`, host-pinned and DENY entries;
 *  - principalViewMs: "what can P do" for one principal as the CSV export, from the
 *    ACL snapshot's store: the authorizer index of the whole set (built on first use and
 *    kept by the snapshot: timed here cold, i.e. included), the known resources, every
 *    decision, the rows and the CSV. `principalViewWarmMs` is the same with the index
 *    already built (every later request on the same snapshot);
 *  - resourceWhoCanMs: "who can do what" on one topic as the CSV export (an index of just
 *    the ACLs that apply, every principal they name, the super users and User:*), and
 *    `prefixWhoCanMs` for the 200 topics under one team's service stem `team7.svc3.`.
 *
 * Each figure is the slowest of the principals/topics tried (best of 3 runs each), wall
 * time, with this process's CPU time beside it (`...CpuMs`): on a shared machine the wall
 * time includes waiting for a core, and the load average is reported with them.
 * Writes { ui: { principalViewMs, resourceWhoCanMs, ... } } to bench/ui-report.json.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { AclIndex, AclStore, type AclBinding, type AclOperation, type ResourceType } from "../lib/policy/index";
import type { EffectiveExport } from "../lib/schemas/effective-permissions";
import {
  exportToCsv,
  knownResources,
  principalPermissions,
  principalRows,
  resourcesUnderPrefix,
  whoCan,
} from "../lib/services/effective-permissions";

const ROOT = path.resolve(import.meta.dirname, "..");
const TEAMS = 50;
const SERVICES = 20;
const TOPICS_PER_SERVICE = 10;
const PRINCIPALS = 5_000;
const ACL_COUNT = 100_000;
const CONFIG = { superUsers: new Set(["User:admin"]), allowEveryoneIfNoAclFound: false };

function random(seed: number): () => number {
  let s = seed | 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const topicName = (t: number, s: number, k: number) => `team${t}.svc${s}.topic${k}`;

/** The synthetic cluster: its ACLs and the names Kafka would list. */
function syntheticCluster(): {
  acls: AclBinding[];
  topics: string[];
  groups: string[];
  transactionalIds: string[];
  principals: string[];
} {
  const rand = random(20_261_201);
  const int = (n: number) => Math.floor(rand() * n);
  const principals = [
    ...Array.from({ length: PRINCIPALS - TEAMS }, (_, i) => `User:app-${i}`),
    ...Array.from({ length: TEAMS }, (_, i) => `Group:team${i}`),
  ];
  const hosts = ["*", "*", "*", "*", "*", "*", "*", "10.1.0.7", "10.2.3.4", "192.168.10.20"];
  const topicOps: AclOperation[] = ["READ", "WRITE", "DESCRIBE", "DESCRIBE_CONFIGS", "ALTER_CONFIGS", "DELETE", "ALL"];
  const topics: string[] = [];
  for (let t = 0; t < TEAMS; t++)
    for (let s = 0; s < SERVICES; s++) for (let k = 0; k < TOPICS_PER_SERVICE; k++) topics.push(topicName(t, s, k));
  const groups = topics.filter((_, i) => i % 4 === 0).map((n) => n.replace(".topic", ".consumer"));
  const transactionalIds = topics.filter((_, i) => i % 10 === 0).map((n) => n.replace(".topic", ".tx"));
  const seen = new Set<string>();
  const acls: AclBinding[] = [];
  const push = (
    resourceType: ResourceType,
    resourceName: string,
    patternType: "LITERAL" | "PREFIXED",
    operation: AclOperation,
  ) => {
    const principal = rand() < 0.01 ? "User:*" : principals[int(principals.length)]!;
    const b: AclBinding = {
      resourceType,
      resourceName,
      patternType,
      principal,
      host: hosts[int(hosts.length)]!,
      operation,
      permissionType: rand() < 0.08 ? "DENY" : "ALLOW",
    };
    const key =
      `${resourceType}|${resourceName}|${patternType}|${principal}|${b.host}|${operation}|` + `${b.permissionType}`;
    if (seen.has(key)) return;
    seen.add(key);
    acls.push(b);
  };
  for (let i = 0; i < 10; i++) push("TOPIC", "*", "LITERAL", "DESCRIBE");
  while (acls.length < ACL_COUNT) {
    const t = int(TEAMS);
    const s = int(SERVICES);
    const r = rand();
    const op = topicOps[int(topicOps.length)]!;
    if (r < 0.66) push("TOPIC", topicName(t, s, int(TOPICS_PER_SERVICE)), "LITERAL", op);
    else if (r < 0.74) push("TOPIC", `team${t}.svc${s}.`, "PREFIXED", op);
    else if (r < 0.77) push("TOPIC", `team${t}.`, "PREFIXED", op);
    else if (r < 0.92)
      push(
        "GROUP",
        groups[int(groups.length)]!,
        rand() < 0.2 ? "PREFIXED" : "LITERAL",
        rand() < 0.8 ? "READ" : "DESCRIBE",
      );
    else if (r < 0.985)
      push(
        "TRANSACTIONAL_ID",
        transactionalIds[int(transactionalIds.length)]!,
        "LITERAL",
        rand() < 0.8 ? "WRITE" : "DESCRIBE",
      );
    else push("CLUSTER", "kafka-cluster", "LITERAL", rand() < 0.5 ? "IDEMPOTENT_WRITE" : "DESCRIBE");
  }
  return { acls, topics, groups, transactionalIds, principals };
}

/**
 * Wall time and this process's CPU time (the machine is shared: CPU time shows the work without the wait for a core).
 */
function timed<T>(fn: () => T): { ms: number; cpuMs: number; value: T } {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = fn();
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000, value };
}

function bestOf<T>(runs: number, fn: () => T): { ms: number; cpuMs: number; value: T } {
  let best = timed(fn);
  for (let i = 1; i < runs; i++) {
    const next = timed(fn);
    if (next.ms < best.ms) best = { ...next, cpuMs: Math.min(next.cpuMs, best.cpuMs) };
    else best.cpuMs = Math.min(best.cpuMs, next.cpuMs);
  }
  return best;
}

const round = (n: number) => Math.round(n * 10) / 10;

const csvOf = (rows: EffectiveExport["rows"]): string =>
  exportToCsv({ rows, aclSnapshot: { takenAt: new Date().toISOString(), ageMs: 0, size: ACL_COUNT } });

export async function runUiBench(): Promise<number> {
  const cluster = syntheticCluster();
  const built = timed(() => AclStore.build(cluster.acls));
  console.log(
    `ui bench: ${cluster.acls.length} ACLs, ${cluster.topics.length} topics, ${cluster.principals.length} ` +
      `principals (store built in ${round(built.ms)} ms)`,
  );
  const listed = { TOPIC: cluster.topics, GROUP: cluster.groups, TRANSACTIONAL_ID: cluster.transactionalIds };

  // The principal with the most ACLs of its own, and two ordinary ones.
  const counts = new Map<string, number>();
  for (const a of cluster.acls) counts.set(a.principal, (counts.get(a.principal) ?? 0) + 1);
  const busiest = [...counts].filter(([p]) => p !== "User:*").sort((a, b) => b[1] - a[1])[0]![0];
  const tried = [busiest, "User:app-17", "Group:team7"];

  const principalExport = (store: AclStore, principal: string) => {
    const permissions = principalPermissions(store.index(), principal, knownResources(store, listed), CONFIG, {
      host: null,
    });
    const rows = principalRows(permissions);
    return { rows: rows.length, csvBytes: csvOf(rows).length };
  };

  // Cold: a fresh store each run (its build is the snapshot's fetch, untimed), so the whole-set index is built inside
  // the timing.
  const cold = tried.map((principal) => {
    let best = Number.POSITIVE_INFINITY;
    let cpuMs = Number.POSITIVE_INFINITY;
    let value = { rows: 0, csvBytes: 0 };
    for (let i = 0; i < 3; i++) {
      const fresh = AclStore.build(cluster.acls);
      const run = timed(() => principalExport(fresh, principal));
      if (run.ms < best) [best, value] = [run.ms, run.value];
      cpuMs = Math.min(cpuMs, run.cpuMs);
    }
    return { principal, ms: best, cpuMs, value };
  });
  const store = AclStore.build(cluster.acls);
  store.index();
  const warm = tried.map((principal) => ({ principal, ...bestOf(3, () => principalExport(store, principal)) }));

  const topicsTried = [topicName(7, 3, 4), topicName(42, 19, 9), topicName(0, 0, 0)];
  const resourceExport = (name: string) => {
    const index = AclIndex.build(store.matching("TOPIC", name));
    const rows = whoCan(index, [{ resourceType: "TOPIC", resourceName: name, origin: "listed+acl" }], CONFIG, null);
    return { rows: rows.length, csvBytes: csvOf(rows).length };
  };
  const topic = topicsTried.map((name) => ({ name, ...bestOf(3, () => resourceExport(name)) }));
  const prefix = bestOf(3, () => {
    const under = resourcesUnderPrefix(knownResources(store, listed), "TOPIC", "team7.svc3.");
    const rows = whoCan(store.index(), under, CONFIG, null);
    return { resources: under.length, rows: rows.length, csvBytes: csvOf(rows).length };
  });

  console.log(
    `  (wall ms; CPU ms of this process in brackets; load average ${os.loadavg()[0]!.toFixed(1)} ` +
      `on ${os.cpus().length} cores)`,
  );
  for (const c of cold)
    console.log(
      `  what can ${c.principal} do (CSV, index built cold): ${round(c.ms)} ms ` +
        `(${round(c.cpuMs)}), ${c.value.rows} rows, ${c.value.csvBytes} bytes`,
    );
  for (const w of warm)
    console.log(`  what can ${w.principal} do (CSV, index kept): ${round(w.ms)} ms (${round(w.cpuMs)})`);
  for (const t of topic)
    console.log(`  who can do what on ${t.name} (CSV): ${round(t.ms)} ms (${round(t.cpuMs)}), ${t.value.rows} rows`);
  console.log(
    `  who can do what under team7.svc3. (CSV): ${round(prefix.ms)} ms, ${prefix.value.resources} ` +
      `resources, ${prefix.value.rows} rows`,
  );

  const ui = {
    principalViewMs: round(Math.max(...cold.map((c) => c.ms))),
    principalViewCpuMs: round(Math.max(...cold.map((c) => c.cpuMs))),
    principalViewWarmMs: round(Math.max(...warm.map((w) => w.ms))),
    resourceWhoCanMs: round(Math.max(...topic.map((t) => t.ms))),
    resourceWhoCanCpuMs: round(Math.max(...topic.map((t) => t.cpuMs))),
    prefixWhoCanMs: round(prefix.ms),
    loadAverage: round(os.loadavg()[0]!),
    acls: cluster.acls.length,
    topics: cluster.topics.length,
    principals: cluster.principals.length,
    targetMs: 2000,
  };
  const out = path.join(ROOT, "bench", "ui-report.json");
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify({ ui }, null, 2)}\n`);
  console.log(`\n${JSON.stringify({ ui })}\nwrote ${path.relative(ROOT, out)}`);
  const within = (ms: number) => (ms < ui.targetMs ? "within" : "over");
  console.log(
    `target ${ui.targetMs} ms: principal export ${within(ui.principalViewMs)} ` +
      `(wall), ${within(ui.principalViewCpuMs)} (CPU); ` +
      `topic export ${within(ui.resourceWhoCanMs)} (wall), ${within(ui.resourceWhoCanCpuMs)} (CPU)`,
  );
  return 0;
}
