/**
 * What previewing an ACL import costs (issue #8), without Kafka: the steps prepareAclPlan
 * runs on the snapshot (computePlan, the console's universe, the blast radius, its
 * summary and first page, the basis, the kafka-acls.sh commands) for --import bindings of
 * scripts/acl-store-measure.ts's realistic mix added to --acls of the same mix (the shape
 * `npm run bench -- console` imports). Wall and CPU ms per step, median of --runs.
 *
 *   npm run bench -- preview [--acls 100000] [--import 5000] [--runs 3]
 *
 * Prints one JSON line; with --out FILE also writes it there.
 */
import os from "node:os";
import { writeFileSync } from "node:fs";
import { AclStoreBuilder, blastRadius, computePlan, consoleUniverse } from "../lib/policy";
import { aclPlanBasis } from "../lib/services/acl-plan-basis";
import { aclPlanCommands } from "../lib/services/cli-equivalent";
import { realisticAcls } from "./acl-store-measure";

export function main(argv: readonly string[]): void {
  const arg = (name: string, fallback: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1]! : fallback;
  };
  const acls = Number(arg("acls", "100000"));
  const importing = Number(arg("import", "5000"));
  const runs = Number(arg("runs", "3"));
  const out = arg("out", "");
  const all = realisticAcls(acls + importing);
  const builder = new AclStoreBuilder();
  for (const a of all.slice(0, acls))
    builder.add(a.resourceType, a.resourceName, a.patternType, a.principal, a.host, a.operation, a.permissionType);
  const store = builder.build();
  const desired = all.slice(acls);
  const superUsers = ["User:admin"];
  const steps = new Map<string, { wall: number[]; cpu: number[] }>();
  const time = <T>(step: string, f: () => T): T => {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const r = f();
    const wall = performance.now() - t0;
    const c = process.cpuUsage(c0);
    const s = steps.get(step) ?? { wall: [], cpu: [] };
    s.wall.push(wall);
    s.cpu.push((c.user + c.system) / 1000);
    steps.set(step, s);
    return r;
  };
  let shape: Record<string, number> = {};
  for (let run = 0; run < runs; run++) {
    time("whole preview", () => {
      const current = store.bindings();
      const plan = time("computePlan", () => computePlan({ desired, mode: "add-only", current }));
      const { universe } = time("universe", () =>
        consoleUniverse({ acls: [current, plan.create], superUsers, topics: [], groups: [], transactionalIds: [] }),
      );
      const change = { create: plan.create, delete: plan.delete };
      const blast = time("blastRadius", () =>
        blastRadius({
          before: current,
          change,
          universe,
          config: { superUsers: new Set(superUsers), allowEveryoneIfNoAclFound: false },
        }),
      );
      const summary = time("summary + first page", () => (blast.page(0, 50), blast.summary()));
      time("basis", () => aclPlanBasis(current, change, { superUsers, allowEveryoneIfNoAclFound: false }));
      time("kafka-acls.sh commands", () => aclPlanCommands(change, "127.0.0.1:9092"));
      shape = {
        creates: plan.create.length,
        decisionChanges: summary.changes,
        decisionsEvaluated: blast.evaluated,
        principals: universe.principals.length,
        resources: universe.resources.length,
      };
    });
  }
  const median = (xs: number[]) => Math.round([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!);
  const report = {
    suite: "acl-import-preview",
    acls,
    importing,
    runs,
    ...shape,
    loadAverage: os.loadavg().map((l) => Math.round(l * 10) / 10),
    medianMs: Object.fromEntries([...steps].map(([k, v]) => [k, { wall: median(v.wall), cpu: median(v.cpu) }])),
  };
  console.log(JSON.stringify(report));
  if (out !== "") writeFileSync(out, JSON.stringify(report, null, 2) + "\n");
}
