/**
 * Black-box conformance of the policy CLI with Apache Kafka 4.x: the CLI runner and the
 * vocabulary the conformance tests of this folder share (one test file per area).
 *
 * Every case below is a case of one of Kafka's own tests, translated the way an outside
 * tester would: the CLI is spawned (`tsx scripts/policy.ts <command>`, what
 * `npm run --silent policy -- <command>` runs), fed one JSON document on stdin, and its
 * stdout compared with what Kafka's test asserts. The Kafka test each case comes from is
 * named next to it (paths relative to the apache/kafka repository):
 *
 *   StandardAuthorizerTest      metadata/src/test/java/org/apache/kafka/metadata/authorizer/
 *   AclControlManagerTest       metadata/src/test/java/org/apache/kafka/controller/
 *   ClientQuotaControlManagerTest  (same folder)
 *   ClientQuotasImage           metadata/src/main/java/org/apache/kafka/image/ (describe's errors)
 *   AuthorizerTest, BaseAuthorizerTest  core/src/test/scala/unit/kafka/security/authorizer/
 *   ClientQuotaManagerTest, ClientQuotasRequestTest, DelegationTokenRequests*Test
 *                               core/src/test/scala/unit/kafka/server/
 *   DelegationTokenEndToEndAuthorizationWithOwnerTest  core/src/test/scala/integration/kafka/api/
 *   ResourcePatternFilterTest   clients/src/test/java/org/apache/kafka/common/acl/
 *   AclBindingFilterTest        clients/src/test/java/org/apache/kafka/common/acl/
 *   SslPrincipalMapperTest      clients/src/test/java/org/apache/kafka/common/security/ssl/
 *   KerberosNameTest, KerberosRuleTest  clients/src/test/java/org/apache/kafka/common/security/kerberos/
 *   DefaultKafkaPrincipalBuilderTest    clients/src/test/java/org/apache/kafka/common/security/auth/
 *
 * Kafka tests that mutate state step by step are translated into one stateless input per
 * step. To keep the number of CLI spawns small (each costs ~0.5-1 s on a loaded machine),
 * independent steps share one call where that cannot change the answer:
 *  - by namespacing the principal per step (`User:s1-user1`): with the default DENY, ACLs of
 *    other principals only decide between "noAclMatched" and "default", which such cases
 *    do not assert;
 *  - by prefixing every resource name of one Kafka test with a tag (`d.foo`), which keeps
 *    all prefix relations within the test and none across tests;
 *  - for quotas, by giving each independent configuration its own quota key (Kafka resolves
 *    every key separately, with its own quota manager).
 * Hosts Kafka reads from InetAddress.getLocalHost() are written as 10.0.0.5.
 */
import { spawn } from "node:child_process";
import { createHmac } from "node:crypto";
import path from "node:path";
import { expect } from "vitest";

export const ROOT = path.resolve(import.meta.dirname, "../..");
const TSX_CLI = path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs");
export const T = 60_000;

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Spawn the CLI with the Node that runs the tests, as `npm run --silent policy -- <args>` would. */
export function runCli(args: string[], stdin: string): Promise<Run> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TSX_CLI, "scripts/policy.ts", ...args], {
      cwd: ROOT,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr, ms: Date.now() - started }));
    child.stdin.end(stdin);
  });
}

// The CLI's answers are JSON of known shape; the tests read them loosely typed.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export async function cli(command: string, input: unknown): Promise<Json> {
  const r = await runCli([command], JSON.stringify(input));
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
}

// ---- ACL vocabulary -----------------------------------------------------------------

export interface Acl {
  resourceType: string;
  resourceName: string;
  patternType: string;
  principal: string;
  host: string;
  operation: string;
  permissionType: string;
}

export const acl = (
  resourceType: string,
  resourceName: string,
  patternType: string,
  principal: string,
  host: string,
  operation: string,
  permissionType: string,
): Acl => ({
  resourceType,
  resourceName,
  patternType,
  principal,
  host,
  operation,
  permissionType,
});

export const request = (
  principal: string,
  host: string,
  operation: string,
  resourceType: string,
  resourceName: string,
) => ({ principal, host, operation, resourceType, resourceName });

/** One expected authorize() answer next to its request, so that long batches stay readable. */
export type Expect = "ALLOWED" | "DENIED";
export interface Case {
  req: ReturnType<typeof request>;
  decision: Expect;
  rule?: Json;
}

export async function authorizeCases(
  doc: { acls: Acl[]; superUsers?: unknown; allowEveryoneIfNoAclFound?: unknown },
  cases: Case[],
) {
  const out = await cli("authorize", { ...doc, requests: cases.map((c) => c.req) });
  expect(out.results).toHaveLength(cases.length);
  cases.forEach((c, i) => {
    const where = `${JSON.stringify(c.req)}`;
    expect(out.results[i].decision, where).toBe(c.decision);
    if (c.rule !== undefined) expect(out.results[i].rule, where).toEqual(c.rule);
  });
}

export const LOCALHOST = "10.0.0.5"; // InetAddress.getLocalHost().getHostAddress() in Kafka's tests

// Valid operations of AclOperation (BaseAuthorizerTest.validOp: all but ANY and UNKNOWN).
export const OPS = [
  "ALL",
  "READ",
  "WRITE",
  "CREATE",
  "DELETE",
  "ALTER",
  "DESCRIBE",
  "CLUSTER_ACTION",
  "DESCRIBE_CONFIGS",
  "ALTER_CONFIGS",
  "IDEMPOTENT_WRITE",
  "CREATE_TOKENS",
  "DESCRIBE_TOKENS",
] as const;

// ---- delegation tokens --------------------------------------------------------------------

export const DAY = 86_400_000;
export const NOW = 1_700_000_000_000;
export const kafkaHmac = (secret: string, tokenId: string) =>
  createHmac("sha512", Buffer.from(secret, "utf8")).update(tokenId, "utf8").digest("base64");

/** DelegationTokenRequestsTest: SASL_PLAINTEXT, secret "testKey", default lifetimes. */
export const tokenDoc = (over: Record<string, unknown>) => ({
  config: { secretKey: "testKey", maxLifetimeMs: 7 * DAY, expiryTimeMs: DAY },
  connection: { principal: "User:admin", securityProtocol: "SASL_PLAINTEXT", tokenAuthenticated: false },
  superUsers: [],
  acls: [],
  tokens: [],
  now: NOW,
  ...over,
});

export const token = (tokenId: string, owner: string, renewers: string[], requester = owner) => ({
  tokenId,
  hmac: kafkaHmac("testKey", tokenId),
  owner,
  requester,
  renewers,
  issueTimestamp: NOW - 1000,
  expiryTimestamp: NOW - 1000 + DAY,
  maxTimestamp: NOW - 1000 + 7 * DAY,
});
