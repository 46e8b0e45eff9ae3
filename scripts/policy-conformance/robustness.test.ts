/**
 * Conformance of the policy CLI with Apache Kafka 4.x, input robustness and speed of the CLI itself.
 * How the cases are translated from Kafka's own tests: ./cli.ts.
 */
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { acl, request, ROOT, type Run, runCli, T, token, tokenDoc } from "./cli";

// ---- robustness and speed -------------------------------------------------------------------

describe.concurrent("input robustness and speed", () => {
  it.each([
    [
      "authorize",
      {
        acls: [],
        requests: [{ principal: "User:a", host: "h", operation: "ANY", resourceType: "TOPIC", resourceName: "t" }],
      },
    ],
    ["quota", { configured: [], requests: [{ user: "u", clientId: 7, key: "producer_byte_rate" }] }],
    [
      "token",
      {
        operation: "renew",
        config: { secretKey: "k" },
        connection: { principal: "User:a", securityProtocol: "SASL_SSL" },
        now: "soon",
        request: { hmac: "x" },
      },
    ],
  ])(
    "wrong types exit 2 with { error } and no stack trace: %s %j",
    async (command, input) => {
      const r = await runCli([command], JSON.stringify(input));
      expect(r.code).toBe(2);
      const out = JSON.parse(r.stdout) as { error: unknown };
      expect(typeof out.error).toBe("string");
      expect(r.stderr).not.toMatch(/\n\s+at /);
    },
    T,
  );

  it(
    "the documented entry point `npm run --silent policy -- <command>` prints exactly one JSON document",
    async () => {
      const r = await new Promise<Run>((resolve, reject) => {
        const started = Date.now();
        const child = spawn("npm", ["run", "--silent", "policy", "--", "quota-alter"], {
          cwd: ROOT,
          stdio: ["pipe", "pipe", "pipe"],
        });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
        child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
        child.on("error", reject);
        child.on("close", (code) => resolve({ code, stdout, stderr, ms: Date.now() - started }));
        child.stdin.end(
          JSON.stringify({ entity: { "client-id": "c" }, ops: [{ key: "consumer_byte_rate", value: 2.245 }] }),
        );
      });
      expect(r.code).toBe(0);
      // ClientQuotaControlManagerTest.testValidateQuotaKeyValueForFractionalConsumerByteRate
      expect(JSON.parse(r.stdout)).toEqual({
        ok: false,
        error: "INVALID_REQUEST",
        message: "consumer_byte_rate cannot be a fractional value.",
      });
    },
    T,
  );

  it(
    "one call with 3000 ACLs x 3000 requests, or 2000 tokens whose HMACs the CLI derives, answers in a few " +
      "seconds even on a loaded machine",
    async () => {
      const acls = Array.from({ length: 3000 }, (_, i) =>
        acl(
          i % 2 ? "TOPIC" : "GROUP",
          `t${i}`,
          i % 3 ? "LITERAL" : "PREFIXED",
          `User:u${i % 50}`,
          "*",
          "READ",
          i % 7 ? "ALLOW" : "DENY",
        ),
      );
      const requests = Array.from({ length: 3000 }, (_, i) =>
        request(`User:u${i % 60}`, "10.0.0.1", "DESCRIBE", "TOPIC", `t${(i * 7) % 4000}`),
      );
      const tokens = Array.from({ length: 2000 }, (_, i) => {
        const { hmac: _hmac, ...rest } = token(`tok${i}`, `User:o${i % 100}`, [`User:r${i % 10}`]);
        return rest;
      });
      const [a, t] = await Promise.all([
        runCli(["authorize"], JSON.stringify({ acls, requests })),
        runCli(
          ["token"],
          JSON.stringify(
            tokenDoc({
              operation: "describe",
              connection: { principal: "User:r3", securityProtocol: "SASL_SSL" },
              tokens,
              request: { owners: null },
            }),
          ),
        ),
      ]);
      expect(a.code).toBe(0);
      expect(t.code).toBe(0);
      expect(JSON.parse(a.stdout).results).toHaveLength(3000);
      expect(JSON.parse(t.stdout).tokens).toHaveLength(200);
      // ~1 s each when run alone; generous here because the whole suite runs in parallel.
      expect(a.ms).toBeLessThan(15_000);
      expect(t.ms).toBeLessThan(15_000);
    },
    T,
  );
});
