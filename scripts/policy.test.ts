/**
 * The policy CLI as scripts and CI pipelines use it: spawn `npx tsx scripts/policy.ts <cmd>`,
 * feed stdin, check stdout, stderr and the exit code.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[], stdin: string | null): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn("npx", ["tsx", "scripts/policy.ts", ...args], { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin ?? "");
  });
}

async function json(command: string, input: unknown): Promise<unknown> {
  const r = await run([command], JSON.stringify(input));
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
}

const T = 60_000;
const DAY = 86_400_000;

describe.concurrent("policy CLI — JSON contract", () => {
  it(
    "quota: value, deciding entity and metric tags per request; ip requests",
    async () => {
      const out = await json("quota", {
        configured: [
          { entity: { user: null }, key: "producer_byte_rate", value: 1000 },
          { entity: { user: "userA" }, key: "producer_byte_rate", value: 4000 },
          { entity: { user: "userA", "client-id": "client1" }, key: "producer_byte_rate", value: 5000 },
          { entity: { "client-id": "client1" }, key: "producer_byte_rate", value: 9000 },
          { entity: { ip: null }, key: "connection_creation_rate", value: 200 },
        ],
        requests: [
          { user: "userA", clientId: "client1", key: "producer_byte_rate" },
          { user: "userA", clientId: "client2", key: "producer_byte_rate" },
          { user: "userZ", clientId: "client1", key: "producer_byte_rate" },
          { user: "userA", clientId: "client1", key: "consumer_byte_rate" },
          { ip: "10.0.0.1", key: "connection_creation_rate" },
        ],
      });
      expect(out).toEqual({
        results: [
          {
            value: 5000,
            entity: { user: "userA", "client-id": "client1" },
            metricTags: { user: "userA", "client-id": "client1" },
          },
          { value: 4000, entity: { user: "userA" }, metricTags: { user: "userA", "client-id": "" } },
          { value: 1000, entity: { user: null }, metricTags: { user: "userZ", "client-id": "" } },
          { value: null, entity: null, metricTags: { user: "", "client-id": "client1" } },
          { value: 200, entity: { ip: null } },
        ],
      });
    },
    T,
  );

  it(
    "quota-filter: SPECIFIED includes <default>; errors come back as CODE: message",
    async () => {
      const configured = [
        { entity: { user: "u1" }, key: "request_percentage", value: 1 },
        { entity: { user: null }, key: "request_percentage", value: 2 },
        { entity: { user: "u1", "client-id": "c" }, key: "request_percentage", value: 3 },
      ];
      expect(
        await json("quota-filter", {
          configured,
          filter: { components: [{ entityType: "user", matchType: "SPECIFIED", match: null }], strict: true },
        }),
      ).toEqual({
        entities: [{ user: "u1" }, { user: null }],
      });
      expect(
        await json("quota-filter", {
          configured,
          filter: { components: [{ entityType: "other", matchType: "EXACT", match: "x" }], strict: false },
        }),
      ).toEqual({
        error: "UNSUPPORTED_VERSION: Unsupported entity type other",
      });
    },
    T,
  );

  it(
    "quota-alter: Kafka's validation and messages",
    async () => {
      expect(
        await json("quota-alter", { entity: { user: "alice" }, ops: [{ key: "producer_byte_rate", value: 1024 }] }),
      ).toEqual({ ok: true });
      expect(
        await json("quota-alter", {
          entity: { user: "alice", ip: "1.2.3.4" },
          ops: [{ key: "producer_byte_rate", value: 1 }],
        }),
      ).toEqual({
        ok: false,
        error: "INVALID_REQUEST",
        message: "Invalid quota entity combination, IP entity shouldnot be combined with User or ClientId",
      });
      expect(
        await json("quota-alter", { entity: { "client-id": "" }, ops: [{ key: "producer_byte_rate", value: 1 }] }),
      ).toMatchObject({ message: "Empty client-id not supported" });
    },
    T,
  );

  it(
    "quota-budget: rejects a sub-quota past the user's total and names the clients",
    async () => {
      const configured = [
        { entity: { user: "alice" }, key: "producer_byte_rate", value: 1000 },
        { entity: { user: "alice", "client-id": "a" }, key: "producer_byte_rate", value: 700 },
      ];
      expect(
        await json("quota-budget", {
          configured,
          change: [{ entity: { user: "alice", "client-id": "b" }, key: "producer_byte_rate", value: 400 }],
        }),
      ).toEqual({
        ok: false,
        violations: [{ user: "alice", key: "producer_byte_rate", total: 1000, sum: 1100, clients: ["a", "b"] }],
      });
      expect(
        await json("quota-budget", {
          configured,
          change: [{ entity: { user: "alice", "client-id": "b" }, key: "producer_byte_rate", value: 300 }],
        }),
      ).toEqual({
        ok: true,
        violations: [],
      });
    },
    T,
  );

  it(
    "token create for another owner (KIP-373) needs CREATE_TOKENS on USER:<owner>; the HMAC is Kafka's",
    async () => {
      const base = {
        operation: "create",
        config: { secretKey: "testKey", maxLifetimeMs: 7 * DAY, expiryTimeMs: DAY },
        connection: { principal: "User:nimbus", securityProtocol: "SASL_SSL", tokenAuthenticated: false },
        superUsers: [],
        tokens: [],
        now: 1000,
        request: { owner: "User:joe", renewers: ["User:nimbus"], tokenId: "abc" },
      };
      expect(await json("token", { ...base, acls: [] })).toEqual({
        error: "DELEGATION_TOKEN_AUTHORIZATION_FAILED",
        owner: "User:joe",
        requester: "User:nimbus",
      });
      const acl = {
        resourceType: "USER",
        resourceName: "User:joe",
        patternType: "LITERAL",
        principal: "User:nimbus",
        host: "*",
        operation: "CREATE_TOKENS",
        permissionType: "ALLOW",
      };
      expect(await json("token", { ...base, acls: [acl] })).toEqual({
        error: "NONE",
        tokenId: "abc",
        hmac: "cx96Dkqz9lAlyXgHmGwanR8Q3mJtLrON5piE/VKrpBJ1gC6rmD2r8JvnyoM5lHWBonkXxTv+z0h8hPnVacZAEQ==",
        owner: "User:joe",
        requester: "User:nimbus",
        renewers: ["User:nimbus"],
        issueTimestamp: 1000,
        expiryTimestamp: 1000 + DAY,
        maxTimestamp: 1000 + 7 * DAY,
      });
    },
    T,
  );

  it(
    "token renew / expire / describe against a token list",
    async () => {
      const base = {
        config: { secretKey: "testKey", maxLifetimeMs: 7 * DAY, expiryTimeMs: DAY },
        connection: { principal: "User:joe", securityProtocol: "SASL_PLAINTEXT", tokenAuthenticated: false },
        superUsers: [],
        acls: [],
        tokens: [
          {
            tokenId: "abc",
            owner: "User:joe",
            requester: "User:nimbus",
            renewers: [],
            issueTimestamp: 0,
            expiryTimestamp: DAY,
            maxTimestamp: 7 * DAY,
          },
        ],
      };
      expect(
        await json("token", {
          ...base,
          operation: "renew",
          now: DAY + 1,
          request: { tokenId: "abc", renewPeriodMs: -1 },
        }),
      ).toEqual({ error: "DELEGATION_TOKEN_EXPIRED" });
      expect(
        await json("token", {
          ...base,
          operation: "renew",
          now: DAY,
          request: { tokenId: "abc", renewPeriodMs: 8 * DAY },
        }),
      ).toMatchObject({ error: "NONE", expiryTimestamp: 2 * DAY });
      expect(
        await json("token", {
          ...base,
          operation: "expire",
          now: 5,
          request: { tokenId: "abc", expiryTimePeriodMs: -1 },
        }),
      ).toMatchObject({ error: "NONE", expiryTimestamp: 5, removed: true });
      expect(await json("token", { ...base, operation: "describe", now: 5, request: { owners: [] } })).toEqual({
        error: "NONE",
        tokens: [],
      });
      expect(
        await json("token", {
          ...base,
          connection: { ...base.connection, securityProtocol: "PLAINTEXT" },
          operation: "describe",
          now: 5,
          request: { owners: null },
        }),
      ).toEqual({ error: "DELEGATION_TOKEN_REQUEST_NOT_ALLOWED", tokens: [] });
    },
    T,
  );
});

describe("policy CLI — ACL commands are dispatched to the ACL core", () => {
  it(
    "authorize",
    async () => {
      const acl = {
        resourceType: "TOPIC",
        resourceName: "orders",
        patternType: "LITERAL",
        principal: "User:alice",
        host: "*",
        operation: "READ",
        permissionType: "ALLOW",
      };
      const out = (await json("authorize", {
        acls: [acl],
        requests: [
          {
            principal: "User:alice",
            host: "10.0.0.1",
            operation: "DESCRIBE",
            resourceType: "TOPIC",
            resourceName: "orders",
          },
        ],
      })) as { results: { decision: string }[] };
      expect(out.results.map((r) => r.decision)).toEqual(["ALLOWED"]);
    },
    T,
  );
});

const EMPTY_UNIVERSE = { principals: [], hosts: [], resources: [] };

describe.concurrent("policy CLI — bad input exits 2 with { error } on stdout and a message on stderr", () => {
  it.each([
    ["quota", "{not json"],
    ["quota", JSON.stringify({ configured: [], requests: [{ user: "a", clientId: "b", key: "nope" }] })],
    [
      "quota",
      JSON.stringify({ configured: [{ entity: { group: "x" }, key: "producer_byte_rate", value: 1 }], requests: [] }),
    ],
    [
      "quota-filter",
      JSON.stringify({
        configured: [],
        filter: { components: [{ entityType: "user", matchType: "LIKE", match: null }] },
      }),
    ],
    ["quota-alter", JSON.stringify({ entity: { user: "a" }, ops: [{ key: "producer_byte_rate", value: "10" }] })],
    [
      "quota-budget",
      JSON.stringify({ configured: [], change: [{ entity: { user: "a" }, key: "producer_byte_rate" }] }),
    ],
    ["token", JSON.stringify({ operation: "mint", config: {}, connection: {}, now: 0 })],
    [
      "token",
      JSON.stringify({
        operation: "create",
        config: { secretKey: "k" },
        connection: { principal: "alice", securityProtocol: "SASL_SSL" },
        now: 0,
      }),
    ],
    [
      "token",
      JSON.stringify({
        operation: "create",
        config: { secretKey: "k", maxLifetimeMs: 0 },
        connection: { principal: "User:a", securityProtocol: "SASL_SSL" },
        now: 0,
      }),
    ],
    ["plan", JSON.stringify({ current: [] })],
    ["plan", JSON.stringify({ current: [], universe: EMPTY_UNIVERSE, maxDelete: 1 })],
    ["plan", JSON.stringify({ current: [], universe: EMPTY_UNIVERSE, create: [], desired: [] })],
    ["principal-map", JSON.stringify([])],
    ["principal-map", JSON.stringify({ ssl: null, kerberos: null, requests: 5 })],
    ["principal-map", JSON.stringify({ ssl: "DEFAULT", kerberos: null, requests: [] })],
    ["principal-map", JSON.stringify({ ssl: { rules: 5 }, kerberos: null, requests: [] })],
    ["principal-map", JSON.stringify({ ssl: null, kerberos: { rules: null, defaultRealm: 1 }, requests: [] })],
    [
      "principal-map",
      JSON.stringify({ ssl: null, kerberos: null, requests: [{ type: "tls", distinguishedName: "CN=a" }] }),
    ],
    ["principal-map", JSON.stringify({ ssl: null, kerberos: null, requests: [{ type: "ssl" }] })],
    ["principal-map", JSON.stringify({ ssl: null, kerberos: null, requests: [{ type: "kerberos", principal: null }] })],
  ])(
    "%s %s",
    async (command, stdin) => {
      const r = await run([command], stdin);
      expect(r.code).toBe(2);
      const out = JSON.parse(r.stdout) as { error: unknown };
      expect(typeof out.error).toBe("string");
      expect(r.stderr).toContain(out.error as string);
    },
    T,
  );
});

describe.concurrent("policy CLI — commands for people", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "policy-cli-"));
  const file = path.join(dir, "quotas.json");
  writeFileSync(
    file,
    JSON.stringify([
      { entity: { user: "alice" }, key: "producer_byte_rate", value: 1000 },
      { entity: { user: "alice", "client-id": "app" }, key: "producer_byte_rate", value: 1500 },
      { entity: { user: null, "client-id": null }, key: "consumer_byte_rate", value: 300 },
    ]),
  );

  it(
    "quota --quotas FILE --user --client-id prints the applied quota per key with its level",
    async () => {
      const r = await run(["quota", "--quotas", file, "--user", "alice", "--client-id", "app"], null);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/producer_byte_rate\s+1500\s+level 1 <user, client-id>: user=alice, client-id=app/);
      expect(r.stdout).toMatch(/consumer_byte_rate\s+300\s+level 5 <default user, default client-id>/);
      expect(r.stdout).toMatch(/request_percentage\s+unlimited/);
      expect(r.stdout).toContain("producer_byte_rate        total 1000, sub-quotas 1500 [app=1500]: OVER by 500");
    },
    T,
  );

  it(
    "budget FILE prints KIP-55 findings and exits 1 on a violation",
    async () => {
      const r = await run(["budget", file], null);
      expect(r.code).toBe(1);
      expect(r.stdout).toContain(
        "VIOLATION user=alice producer_byte_rate: client sub-quotas sum to 1500, over the user's total 1000 " +
          "(clients: app)",
      );
      expect(r.stdout).toContain("WARNING   user=<default> consumer_byte_rate");
    },
    T,
  );

  it(
    "explain is handed to the ACL commands; a usage error there exits 2",
    async () => {
      const acls = path.join(dir, "acls.json");
      writeFileSync(
        acls,
        JSON.stringify([
          {
            resourceType: "TOPIC",
            resourceName: "orders",
            patternType: "LITERAL",
            principal: "User:alice",
            host: "*",
            operation: "READ",
            permissionType: "ALLOW",
          },
        ]),
      );
      const r = await run(
        ["explain", "--acls", acls, "--principal", "User:alice", "--operation", "DESCRIBE", "--topic", "orders"],
        null,
      );
      expect(r.code).toBe(0);
      expect(r.stdout).toContain("ALLOWED");
      const bad = await run(["explain", "--acls", acls], null);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain("usage: explain");
    },
    T,
  );

  it(
    "--help lists the JSON and human commands; an unknown command exits 2",
    async () => {
      const h = await run(["--help"], null);
      expect(h.code).toBe(0);
      expect(h.stdout).toContain("quota-budget");
      expect(h.stdout).toContain("budget FILE");
      expect(h.stdout).toContain("explain --acls FILE");
      expect(h.stdout).toMatch(/plan {16}\{ current, create\?, delete\? \| desired\?/);
      const u = await run(["frobnicate"], null);
      expect(u.code).toBe(2);
      expect(u.stderr).toContain("unknown command");
    },
    T,
  );
});

// Not concurrent: these spawn several CLIs each; they run after the suites above.
describe("policy CLI — plan", () => {
  const b = (
    resourceType: string,
    resourceName: string,
    patternType: string,
    principal: string,
    host: string,
    operation: string,
    permissionType: string,
  ) => ({
    resourceType,
    resourceName,
    patternType,
    principal,
    host,
    operation,
    permissionType,
  });
  const current = [
    b("TOPIC", "orders", "LITERAL", "User:svc-orders", "*", "WRITE", "ALLOW"),
    b("TOPIC", "orders-dlq", "LITERAL", "User:svc-orders", "*", "WRITE", "ALLOW"),
    b("GROUP", "orders-app", "LITERAL", "User:svc-orders", "*", "READ", "ALLOW"),
  ];
  const universe = {
    principals: ["User:svc-orders", "User:alice"],
    hosts: ["10.0.0.1"],
    resources: [
      { resourceType: "TOPIC", resourceName: "orders" },
      { resourceType: "TOPIC", resourceName: "orders-dlq" },
      { resourceType: "GROUP", resourceName: "orders-app" },
    ],
  };

  it(
    "a sync deleting more than maxDeletes exits 1, the whole plan still on stdout and the reason on stderr",
    async () => {
      const desired = [current[0]];
      const r = await run(
        ["plan"],
        JSON.stringify({
          current,
          desired,
          mode: "sync",
          scope: { principals: ["User:svc-orders"] },
          universe,
          maxDeletes: 1,
        }),
      );
      expect(r.code).toBe(1);
      expect(r.stderr).toBe("policy plan: the plan deletes 2 bindings, more than maxDeletes (1)\n");
      const out = JSON.parse(r.stdout) as Record<string, unknown>;
      expect(out).toEqual({
        create: [],
        delete: [current[1], current[2]],
        invalid: [],
        decisionChanges: [
          {
            principal: "User:svc-orders",
            host: "10.0.0.1",
            resourceType: "TOPIC",
            resourceName: "orders-dlq",
            operation: "WRITE",
            before: "ALLOWED",
            after: "DENIED",
          },
          {
            principal: "User:svc-orders",
            host: "10.0.0.1",
            resourceType: "TOPIC",
            resourceName: "orders-dlq",
            operation: "DESCRIBE",
            before: "ALLOWED",
            after: "DENIED",
          },
          {
            principal: "User:svc-orders",
            host: "10.0.0.1",
            resourceType: "GROUP",
            resourceName: "orders-app",
            operation: "READ",
            before: "ALLOWED",
            after: "DENIED",
          },
          {
            principal: "User:svc-orders",
            host: "10.0.0.1",
            resourceType: "GROUP",
            resourceName: "orders-app",
            operation: "DESCRIBE",
            before: "ALLOWED",
            after: "DENIED",
          },
        ],
      });
    },
    T,
  );

  it(
    "sync without a scope deletes nothing and says why; the desired creates and the invalid bindings are still listed",
    async () => {
      const aliceRead = b("TOPIC", "orders", "LITERAL", "User:alice", "*", "READ", "ALLOW");
      const noColon = b("TOPIC", "orders", "LITERAL", "alice", "*", "READ", "ALLOW");
      const out = await json("plan", {
        current,
        desired: [aliceRead, aliceRead, noColon],
        mode: "sync",
        universe,
        maxDeletes: 0,
      });
      expect(out).toEqual({
        create: [aliceRead],
        delete: [],
        invalid: [
          {
            binding: noColon,
            message:
              "Could not parse principal from `alice` (no colon is present separating the principal type from " +
              "the principal name)",
          },
        ],
        decisionChanges: [
          {
            principal: "User:alice",
            host: "10.0.0.1",
            resourceType: "TOPIC",
            resourceName: "orders",
            operation: "READ",
            before: "DENIED",
            after: "ALLOWED",
          },
          {
            principal: "User:alice",
            host: "10.0.0.1",
            resourceType: "TOPIC",
            resourceName: "orders",
            operation: "DESCRIBE",
            before: "DENIED",
            after: "ALLOWED",
          },
        ],
        refused: {
          code: "SYNC_WITHOUT_SCOPE",
          message:
            "sync deletes only inside a scope (principals and/or resourcePrefix); without one it deletes nothing.",
        },
      });
    },
    T,
  );

  it(
    "black box: decisionChanges equal deciding every request of the universe through the authorize command " +
      "before and after",
    async () => {
      // A seeded mix of LITERAL, PREFIXED, `*`, `User:*`, host-pinned and DENY ACLs.
      let seed = 11;
      const rand = (n: number) => (seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff) % n;
      const names = ["orders", "orders-dlq", "or", "payments", "*"];
      const principals = ["User:svc-orders", "User:alice", "User:*", "User:bob"];
      const ops = ["READ", "WRITE", "DESCRIBE", "ALL", "CREATE"];
      const random = () =>
        b(
          "TOPIC",
          names[rand(5)]!,
          rand(3) === 0 ? "PREFIXED" : "LITERAL",
          principals[rand(4)]!,
          rand(4) === 0 ? "10.0.0.2" : "*",
          ops[rand(5)]!,
          rand(4) === 0 ? "DENY" : "ALLOW",
        );
      const acls = Array.from({ length: 40 }, random);
      const create = Array.from({ length: 3 }, random);
      const del = [acls[3]!, acls[17]!, acls[29]!];
      const u = {
        principals: ["User:svc-orders", "User:alice", "User:bob", "User:carol"],
        hosts: ["10.0.0.1", "10.0.0.2"],
        resources: ["orders", "orders-dlq", "orx", "payments", "audit"].map((resourceName) => ({
          resourceType: "TOPIC",
          resourceName,
        })),
      };
      const topicOps = ["READ", "WRITE", "CREATE", "DESCRIBE", "DELETE", "ALTER", "DESCRIBE_CONFIGS", "ALTER_CONFIGS"];
      const requests = u.resources.flatMap((r) =>
        u.principals.flatMap((principal) =>
          u.hosts.flatMap((host) => topicOps.map((operation) => ({ principal, host, operation, ...r }))),
        ),
      );
      const planned = (await json("plan", {
        current: acls,
        create,
        delete: del,
        universe: u,
        allowEveryoneIfNoAclFound: true,
      })) as {
        create: unknown[];
        delete: unknown[];
        decisionChanges: Record<string, string>[];
      };
      const k = (x: unknown) => JSON.stringify(x);
      const gone = new Set(planned.delete.map(k));
      const after = [...acls.filter((a) => !gone.has(k(a))), ...planned.create];
      const [was, is] = (await Promise.all([
        json("authorize", { acls, requests, allowEveryoneIfNoAclFound: true }),
        json("authorize", { acls: after, requests, allowEveryoneIfNoAclFound: true }),
      ])) as { results: { decision: string }[] }[];
      const expected = requests.flatMap((r, i) => {
        const before = was!.results[i]!.decision;
        const afterDecision = is!.results[i]!.decision;
        return before === afterDecision
          ? []
          : [
              {
                principal: r.principal,
                host: r.host,
                resourceType: r.resourceType,
                resourceName: r.resourceName,
                operation: r.operation,
                before,
                after: afterDecision,
              },
            ];
      });
      expect(expected.length).toBeGreaterThan(0);
      const sorted = (rows: Record<string, string>[]) => rows.map(k).sort();
      expect(sorted(planned.decisionChanges)).toEqual(sorted(expected));
    },
    T,
  );
});

describe.concurrent("policy CLI — principal-map", () => {
  it(
    "maps SSL DNs, clients without a certificate and Kerberos principals to User:<name>, or Kafka's exception " +
      "per request",
    async () => {
      const out = await json("principal-map", {
        ssl: { rules: "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/L, DEFAULT" },
        kerberos: { rules: "RULE:[1:$1@$0](.*@MYDOMAIN.COM)s/@.*//, DEFAULT", defaultRealm: "EXAMPLE.COM" },
        requests: [
          { type: "ssl", distinguishedName: "CN=Orders,OU=ServiceUsers,O=Acme" },
          { type: "ssl", distinguishedName: "CN=alice,O=Acme" },
          { type: "ssl", distinguishedName: null },
          { type: "kerberos", principal: "alice@MYDOMAIN.COM" },
          { type: "kerberos", principal: "kafka/broker1@EXAMPLE.COM" },
          { type: "kerberos", principal: "bob@OTHER.COM" },
        ],
      });
      expect(out).toEqual({
        results: [
          { name: "orders", principal: "User:orders" },
          { name: "CN=alice,O=Acme", principal: "User:CN=alice,O=Acme" },
          { name: "ANONYMOUS", principal: "User:ANONYMOUS" },
          { name: "alice", principal: "User:alice" },
          { name: "kafka", principal: "User:kafka" },
          {
            error: "NoMatchingRule",
            message: "No rules apply to bob@OTHER.COM, rules [RULE:[1:$1@$0](.*@MYDOMAIN.COM)s/@.*//, DEFAULT]",
          },
        ],
      });
    },
    T,
  );

  it(
    "rules the broker would refuse to start with answer every request with that exception, and still exit 0",
    async () => {
      const out = await json("principal-map", {
        ssl: { rules: "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/L/U" },
        kerberos: null,
        requests: [
          { type: "ssl", distinguishedName: "CN=a,OU=ServiceUsers" },
          { type: "kerberos", principal: "alice" },
        ],
      });
      const refused = {
        error: "IllegalArgumentException",
        message: "Invalid rule: `RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/L/U`, unmatched substring: `/U`",
      };
      expect(out).toEqual({ results: [refused, refused] });
    },
    T,
  );

  it(
    "--help lists principal-map with its input",
    async () => {
      const r = await run(["--help"], null);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(
        "principal-map       { ssl: { rules } | null, kerberos: { rules, defaultRealm } | null,",
      );
    },
    T,
  );
});
