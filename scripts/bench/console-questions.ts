/**
 * The questions the console bench asks (the ACL list, filters, the access check, a topic's
 * detail, the resources index), each cold once and then warm, and the same questions of
 * kafka-acls.sh.
 */
import type { AclBinding } from "../../lib/policy/types";
import { median, round, type ConsoleUser } from "./console-http";
import type { TargetKey } from "./console-options";
import { serverCpuMs } from "./console-server";
import type { AclCli, ToolRun } from "./kafka-cli";

// ---- the questions --------------------------------------------------------------------------

export interface Sample {
  principals: string[];
  topics: string[];
  operations: string[];
}

export function sampleOf(acls: readonly AclBinding[], n: number): Sample {
  const principals: string[] = [];
  const topics: string[] = [];
  const seenP = new Set<string>();
  const seenT = new Set<string>();
  for (
    let i = 0;
    i < acls.length && (principals.length < n || topics.length < n);
    i += Math.max(1, Math.floor(acls.length / (4 * n)))
  ) {
    const a = acls[i]!;
    if (a.principal.startsWith("User:app-") && !seenP.has(a.principal) && principals.length < n) {
      seenP.add(a.principal);
      principals.push(a.principal);
    }
    if (
      a.resourceType === "TOPIC" &&
      a.patternType === "LITERAL" &&
      a.resourceName !== "*" &&
      !seenT.has(a.resourceName) &&
      topics.length < n
    ) {
      seenT.add(a.resourceName);
      topics.push(a.resourceName);
    }
  }
  return {
    principals,
    topics,
    operations: [
      "WRITE",
      "READ",
      "DESCRIBE",
      "ALTER",
      "DELETE",
      "CREATE",
      "ALL",
      "DESCRIBE_CONFIGS",
      "ALTER_CONFIGS",
      "IDEMPOTENT_WRITE",
    ],
  };
}

export const q = (params: Record<string, string | number>) =>
  new URLSearchParams(Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)]))).toString();

interface Question {
  key: string;
  what: string;
  target: TargetKey | null;
  /** The path of warm run i (run -1 is the cold one). */
  path: (run: number) => string;
  /** kafka-acls.sh arguments answering the same question, or null. */
  cli: ((run: number) => string[]) | null;
  cliWhat?: string;
}

export function questions(s: Sample, pages: number): Question[] {
  const pick = <T>(xs: readonly T[], run: number): T => xs[(run + 1 + xs.length) % xs.length]!;
  const listAll = () => ["--list"];
  return [
    {
      key: "listPage1",
      what: "ACL list, page 1 (GET /api/v1/acls)",
      target: "listPage",
      path: () => `/api/v1/acls?page=1`,
      cli: listAll,
      cliWhat: "--list (every ACL)",
    },
    {
      key: "listPage50",
      what: "ACL list, page 50",
      target: "listPage",
      path: () => `/api/v1/acls?${q({ page: Math.min(50, pages) })}`,
      cli: listAll,
      cliWhat: "--list",
    },
    {
      key: "listLastPage",
      what: `ACL list, last page (${pages})`,
      target: "listPage",
      path: () => `/api/v1/acls?${q({ page: pages })}`,
      cli: listAll,
      cliWhat: "--list",
    },
    {
      key: "filterPrincipal",
      what: "filter by principal (a different one each run)",
      target: "filter",
      path: (run) => `/api/v1/acls?${q({ principal: pick(s.principals, run) })}`,
      cli: (run) => ["--list", "--principal", pick(s.principals, run)],
      cliWhat: "--list --principal P",
    },
    {
      key: "filterResourceName",
      what: "filter by resource name (exact, any pattern type)",
      target: "filter",
      path: (run) => `/api/v1/acls?${q({ resourceName: pick(s.topics, run) })}`,
      cli: (run) => ["--list", "--topic", pick(s.topics, run), "--resource-pattern-type", "any"],
      cliWhat: "--list --topic T --resource-pattern-type any",
    },
    {
      key: "filterOperation",
      what: "filter by operation, page 3",
      target: "filter",
      path: (run) => `/api/v1/acls?${q({ operation: pick(s.operations, run), page: 3 })}`,
      cli: listAll,
      cliWhat: "--list (the CLI cannot filter by operation)",
    },
    {
      key: "accessCheck",
      what: "access check (GET /api/v1/access-check)",
      target: "accessOrDetail",
      path: (run) =>
        `/api/v1/access-check?${q({
          principal: pick(s.principals, run),
          operation: "READ",
          resourceType: "TOPIC",
          resourceName: pick(s.topics, run),
          host: "10.1.0.7",
        })}`,
      cli: (run) => ["--list", "--topic", pick(s.topics, run), "--resource-pattern-type", "match"],
      cliWhat: "--list --topic T --resource-pattern-type match",
    },
    {
      key: "topicDetail",
      what: "topic detail with the matrix (GET /api/v1/resources)",
      target: "accessOrDetail",
      path: (run) => `/api/v1/resources?${q({ type: "TOPIC", name: pick(s.topics, run) })}`,
      cli: (run) => ["--list", "--topic", pick(s.topics, run), "--resource-pattern-type", "match"],
      cliWhat: "--list --topic T --resource-pattern-type match",
    },
    {
      key: "resourcesIndex",
      what: "resources index (the Resources page, HTML)",
      target: "resourcesIndex",
      path: () => `/resources`,
      cli: listAll,
      cliWhat: "--list",
    },
    { key: "aclsPage", what: "ACLs page, page 1 (HTML; no target)", target: null, path: () => `/acls`, cli: null },
  ];
}

export interface Measured {
  key: string;
  what: string;
  coldMs: number;
  warmMs: number[];
  medianMs: number;
  /**
   * The server's CPU time per warm request (its whole process, over all warm runs / runs): what the request costs,
   * whatever the neighbours do.
   */
  serverCpuMsPerRequest: number;
  bytes: number;
  cli: { what: string; medianMs: number; runsMs: number[]; bytes: number } | null;
  /** console / CLI (below 1: the console answers faster). */
  ratio: number | null;
  target: { key: TargetKey; limit: number; pass: boolean } | null;
}

export async function ask(
  user: ConsoleUser,
  question: Question,
  runs: number,
  pid: number,
): Promise<Omit<Measured, "cli" | "ratio" | "target">> {
  const cold = await user.get(question.path(-1));
  const warm: number[] = [];
  let bytes = cold.bytes;
  const cpu0 = serverCpuMs(pid);
  for (let run = 0; run < runs; run++) {
    const r = await user.get(question.path(run));
    warm.push(round(r.ms));
    bytes = r.bytes;
  }
  const serverCpuMsPerRequest = round((serverCpuMs(pid) - cpu0) / runs);
  return {
    key: question.key,
    what: question.what,
    coldMs: round(cold.ms),
    warmMs: warm,
    medianMs: round(median(warm)),
    serverCpuMsPerRequest,
    bytes,
  };
}

/** CLI runs by their arguments: rows asking kafka-acls.sh the same thing share its runs. */
const cliRuns = new Map<string, ToolRun>();

export async function askCli(cli: AclCli, question: Question, runs: number, size: number): Promise<Measured["cli"]> {
  if (!question.cli) return null;
  const times: number[] = [];
  let bytes = 0;
  for (let run = 0; run < runs; run++) {
    const args = question.cli(run);
    const key = `${size} ${run} ${JSON.stringify(args)}`;
    let r = cliRuns.get(key);
    if (!r) {
      r = await cli.run(args);
      cliRuns.set(key, r);
    }
    times.push(Math.round(r.ms));
    bytes = r.bytes;
  }
  return {
    what: `kafka-acls.sh ${question.cliWhat ?? question.cli(0).join(" ")}`,
    medianMs: Math.round(median(times)),
    runsMs: times,
    bytes,
  };
}
