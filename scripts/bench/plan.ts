/**
 * Part 4 of the policy bench (suite `plan`): the blast radius of one ACL change over
 * 100,000 ACLs, in a child process of its own so that its peak RSS is its own.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

import {
  ANY_OTHER_HOST,
  AclIndex,
  blastRadius,
  computePlan,
  type PlanResource,
  type PlanUniverse,
} from "../../lib/policy/index";
import type { AclBinding } from "../../lib/policy/types";
import { bestOf, fmt, peakRssMb } from "./measure";
import { QUICK, SEED } from "./policy-options";
import { realisticAcls } from "./policy-workloads";

interface PlanCase {
  name: string;
  bestMs: number;
  medianMs: number;
  cpuMedianMs: number;
  fromIndexMs: number;
  decisionsChecked: number;
  decisionChanges: number;
  universeRequests: number;
}

export interface PlanResult {
  cases: PlanCase[];
  peakRssMb: number;
  peakRssWithIndexMb: number;
}

/** 10,000 topics (team0..49 x svc0..19 x topic0..9), 5,000 principals, the ACLs' hosts plus one they do not name. */
function benchUniverse(acls: readonly AclBinding[]): PlanUniverse {
  const resources: PlanResource[] = [];
  for (let t = 0; t < 50; t++)
    for (let s = 0; s < 20; s++)
      for (let k = 0; k < 10; k++)
        resources.push({ resourceType: "TOPIC", resourceName: `team${t}.svc${s}.topic${k}` });
  const others = new Map<string, PlanResource>();
  const hosts = new Set<string>();
  for (const b of acls) {
    if (b.host !== "*") hosts.add(b.host);
    if (b.resourceType !== "TOPIC" && b.patternType === "LITERAL" && b.resourceName !== "*")
      others.set(`${b.resourceType}|${b.resourceName}`, { resourceType: b.resourceType, resourceName: b.resourceName });
  }
  hosts.add(ANY_OTHER_HOST);
  const principals = [
    ...Array.from({ length: 4950 }, (_, i) => `User:app-${i}`),
    ...Array.from({ length: 50 }, (_, i) => `Group:team${i}`),
  ];
  return { principals, hosts: [...hosts], resources: [...resources, ...others.values()] };
}

export function planBench(): PlanResult {
  const acls = realisticAcls(100_000, SEED);
  const universe = benchUniverse(acls);
  const topics = universe.resources.filter((r) => r.resourceType === "TOPIC").length;
  console.log(
    `blast radius of one ACL change: ${acls.length} ACLs, ${topics} topics (${universe.resources.length} ` +
      `resources), ${universe.principals.length} principals, ${universe.hosts.length} hosts`,
  );
  const deny = (patternType: "LITERAL" | "PREFIXED", resourceName: string): AclBinding => ({
    resourceType: "TOPIC",
    resourceName,
    patternType,
    principal: "User:*",
    host: "*",
    operation: "WRITE",
    permissionType: "DENY",
  });
  const changes = [
    { name: "DENY User:* WRITE TOPIC PREFIXED team7.", binding: deny("PREFIXED", "team7.") },
    { name: "DENY User:* WRITE TOPIC LITERAL team7.svc3.topic4", binding: deny("LITERAL", "team7.svc3.topic4") },
  ];
  interface Measured {
    full: ReturnType<typeof bestOf>;
    checked: number;
    rows: number;
    universeRequests: number;
  }
  // Plan, blast radius, every row walked once, the summary. A full GC before each run:
  // every run starts from the same heap, so the peak RSS is the blast radius's, not the
  // garbage of earlier runs.
  const measure = (binding: AclBinding, current: AclIndex | readonly AclBinding[]): Measured => {
    const m = { checked: 0, rows: 0, universeRequests: 0 };
    const full = bestOf(
      QUICK ? 3 : 11,
      () => {
        const plan = computePlan({ current, create: [binding] });
        const blast = blastRadius({ before: current, change: { create: plan.create, delete: plan.delete }, universe });
        let walked = 0;
        blast.forEach(() => {
          walked++;
        });
        blast.summary();
        if (walked !== blast.total) throw new Error(`walked ${walked} rows of ${blast.total}`);
        m.checked = blast.checked;
        m.rows = blast.total;
        m.universeRequests = blast.universeRequests;
      },
      true,
    );
    return { full, ...m };
  };
  // From the ACL list as Kafka returns it, then (peak RSS noted in between) from an index
  // of the whole set that the caller built beforehand.
  const fromList = changes.map(({ binding }) => measure(binding, acls));
  const peak = peakRssMb();
  const index = AclIndex.build(acls);
  const fromIndex = changes.map(({ binding }) => measure(binding, index));
  const cases = changes.map(({ name }, i): PlanCase => {
    const l = fromList[i]!;
    const x = fromIndex[i]!;
    console.log(
      `  ${name}: ${l.rows} decision changes, ${l.checked} decisions compared (of ${l.universeRequests} in the ` +
        `universe)\n` +
        `    from the ACL list ${fmt(l.full.bestMs)} ms (median ${fmt(l.full.medianMs)}, ` +
        `CPU ${fmt(l.full.cpuMedianMs)}); from a prebuilt index ${fmt(x.full.bestMs)} ms   target < 1000 ms`,
    );
    return {
      name,
      bestMs: l.full.bestMs,
      medianMs: l.full.medianMs,
      cpuMedianMs: l.full.cpuMedianMs,
      fromIndexMs: x.full.bestMs,
      decisionsChecked: l.checked,
      decisionChanges: l.rows,
      universeRequests: l.universeRequests,
    };
  });
  const peakWithIndex = peakRssMb();
  console.log(
    `  peak RSS of this process   ${fmt(peak)} MB from the ACL list, ${fmt(peakWithIndex)} MB with the ` +
      `whole-set index as well   target < 300 MB`,
  );
  return { cases, peakRssMb: peak, peakRssWithIndexMb: peakWithIndex };
}

/** Part 4 in a child with Node's default heap settings, so the peak RSS is its own. */
export function planChild(): PlanResult {
  const out = path.join(os.tmpdir(), `policy-bench-plan-${process.pid}.json`);
  const child = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: "inherit",
    env: { ...process.env, BENCH_PLAN_OUT: out },
  });
  if (child.status !== 0) throw new Error(`the plan child failed (exit ${child.status})`);
  const result = JSON.parse(readFileSync(out, "utf8")) as PlanResult;
  rmSync(out, { force: true });
  return result;
}
