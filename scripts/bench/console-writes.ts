/**
 * The console bench's writes: 500 bindings created and deleted in one request each
 * through the console, and 500 of kafka-acls.sh's own, with the broker's request counts.
 */
import type { AclBinding } from "../../lib/policy/types";
import type { ConsoleUser } from "./console-http";
import { JMX_PORT } from "./console-options";
import { log } from "./console-server";
import { requestCounts, type AclCli } from "./kafka-cli";

// ---- writes ---------------------------------------------------------------------------------

const COUNTED = ["CreateAcls", "DeleteAcls", "DescribeAcls"] as const;

export interface WriteMeasure {
  bindings: number;
  ms: number;
  outcome: string;
  failed: number;
  /** Requests the broker received during the call (JMX RequestsPerSec counts), from every client. */
  brokerRequests: Record<string, number> | null;
}

async function counted<T>(f: () => Promise<T>): Promise<[T, Record<string, number> | null]> {
  const before = await requestCounts(JMX_PORT, COUNTED).catch((error: unknown) => (log(`JMX: ${String(error)}`), null));
  const r = await f();
  const after = before ? await requestCounts(JMX_PORT, COUNTED).catch(() => null) : null;
  return [r, before && after ? Object.fromEntries(COUNTED.map((k) => [k, after[k]! - before[k]!])) : null];
}

function newBindings(size: number, n: number): AclBinding[] {
  return Array.from({ length: n }, (_, i) => ({
    resourceType: "TOPIC",
    resourceName: `bench.write.${size}.t${i % 20}`,
    patternType: "LITERAL",
    principal: `User:bench-write-${size}-${Math.floor(i / 20)}`,
    host: "*",
    operation: "READ",
    permissionType: "ALLOW",
  }));
}

export async function writes(
  user: ConsoleUser,
  size: number,
): Promise<{ create500: WriteMeasure; delete500: WriteMeasure }> {
  const bindings = newBindings(size, 500);
  type Apply = { outcome: string; results: { ok: boolean }[] };
  const [created, createCounts] = await counted(() => user.request<Apply>("POST", "/api/v1/acls", { bindings }));
  const [deleted, deleteCounts] = await counted(() => user.request<Apply>("DELETE", "/api/v1/acls", { bindings }));
  const measure = (r: typeof created, n: number, counts: Record<string, number> | null): WriteMeasure => ({
    bindings: n,
    ms: Math.round(r.ms),
    outcome: r.body.outcome,
    failed: r.body.results.filter((x) => !x.ok).length,
    brokerRequests: counts,
  });
  return { create500: measure(created, 500, createCounts), delete500: measure(deleted, 500, deleteCounts) };
}

/** kafka-acls.sh --add of 500 bindings: 50 topics x 10 principals, READ (one describe and one create per topic). */
export async function cliCreate500(
  cli: AclCli,
  size: number,
  action: "--add" | "--remove" = "--add",
): Promise<{ ms: number; brokerRequests: Record<string, number> | null }> {
  const args = action === "--add" ? ["--add", "--operation", "Read"] : ["--remove", "--force", "--operation", "Read"];
  for (let p = 0; p < 10; p++) args.push("--allow-principal", `User:bench-cli-${size}-${p}`);
  for (let t = 0; t < 50; t++) args.push("--topic", `bench.cli.${size}.t${t}`);
  const [run, counts] = await counted(() => cli.run(args));
  return { ms: Math.round(run.ms), brokerRequests: counts };
}
