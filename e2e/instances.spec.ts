/**
 * Several console instances on one PostgreSQL (issue #11), and what running it for real
 * needs of one instance: probes, metrics, JSON logs without secrets, graceful shutdown.
 *
 * Two console processes (scripts/server.ts, as `npm start` runs it) on ports of their own,
 * over the same production build, database (DATABASE_URL) and dev broker as the rest of
 * the e2e run, are driven through their JSON API with plain fetch: a session made on one
 * works (and ends) on the other; the sign-in throttle counts parallel wrong passwords
 * sent to both together; a plan previewed on one is applied exactly once when both apply
 * it at the same moment; two quota plans whose sum exceeds a user's KIP-55 budget, applied
 * on both at the same moment, apply at most one; a token request is approved once and
 * retrieved once when both instances are asked at the same moment.
 *
 * Why here and not in the integration suite: it needs a production build (minutes on this
 * machine), which the e2e stage of scripts/test-all.ts makes anyway; the instances reuse it
 * (NEXT_DIST_DIR) and bind ports the system picks (PORT=0), so parallel runs never collide.
 * Nothing here uses the browser.
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import { test, expect } from "@playwright/test";
import { startInstance, type Instance } from "./console-instance";

const RUN = `${Date.now().toString(36)}${randomBytes(2).toString("hex")}`;
const METRICS_TOKEN = randomBytes(24).toString("hex");
const basic = (user: string, password = `${user}-secret`) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;

async function call(
  instance: Instance,
  method: string,
  pathname: string,
  options: { auth?: string; cookie?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const response = await fetch(`${instance.url}${pathname}`, {
    method,
    headers: {
      ...(options.auth ? { Authorization: options.auth } : {}),
      ...(options.cookie ? { Cookie: options.cookie } : {}),
      ...(options.body !== undefined ? { "Content-Type": "application/json" } : {}),
      ...options.headers,
    },
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
  });
  const text = await response.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // not JSON (metrics)
  }
  return { status: response.status, headers: response.headers, text, json };
}

const sessionCookie = (headers: Headers) => /ksc_session=[^;]+/.exec(headers.get("set-cookie") ?? "")?.[0] ?? "";

test.describe.serial("two console instances on one database", () => {
  let a: Instance;
  let b: Instance;
  /** Every secret the tests sent or received: none may appear in any log. */
  const secrets = new Set<string>(["admin-secret", "alice-secret", "bob-secret", "carol-secret", METRICS_TOKEN]);

  test.beforeAll(async () => {
    test.setTimeout(200_000);
    [a, b] = await Promise.all([startInstance("A", { METRICS_TOKEN, METRICS_PORT: "0" }), startInstance("B")]);
  });

  test.afterAll(async () => {
    for (const instance of [a, b]) if (instance && instance.child.exitCode === null) instance.child.kill("SIGKILL");
  });

  test("health and readiness answer without a session and say nothing but up", async () => {
    for (const instance of [a, b]) {
      for (const probe of ["/api/health", "/api/ready"]) {
        const answer = await call(instance, "GET", probe);
        expect(answer.status, `${instance.name} ${probe}`).toBe(200);
        expect(answer.text).toBe('{"status":"up"}');
        expect(answer.headers.get("cache-control")).toBe("no-store");
        expect(answer.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
      }
      expect((await call(instance, "POST", "/api/ready")).status).toBe(405);
    }
  });

  test(
    "Kafka unreachable: readiness is down and says only that; at SIGTERM a request outlasting " +
      "SHUTDOWN_TIMEOUT_SECONDS is cut, and the process exits 0",
    async () => {
      test.setTimeout(120_000);
      const broken = await startInstance("no-kafka", {
        KAFKA_BOOTSTRAP_SERVERS: "127.0.0.1:1",
        SHUTDOWN_TIMEOUT_SECONDS: "1",
      });
      try {
        const ready = await call(broken, "GET", "/api/ready");
        expect(ready.status).toBe(503);
        expect(ready.text).toBe('{"status":"down"}');
        expect((await call(broken, "GET", "/api/health")).text).toBe('{"status":"up"}');
        // The reason is in the instance's own log, once.
        expect(broken.lines().filter((l) => l.msg === "not ready")).toHaveLength(1);
        expect(JSON.stringify(broken.lines().find((l) => l.msg === "not ready"))).toContain("kafka:");

        // A body that never finishes (REQUEST_TIMEOUT_SECONDS would allow it 30 s).
        const { port } = new URL(broken.url);
        const cut = new Promise<string>((resolve) => {
          const req = http.request(
            {
              host: "127.0.0.1",
              port,
              method: "POST",
              path: "/api/v1/session",
              headers: { "Content-Type": "application/json", "Content-Length": 100 },
            },
            (res) => resolve(`answered ${res.statusCode}`),
          );
          req.on("error", (error) => resolve(`cut: ${error.message}`));
          req.write('{"username":');
        });
        await new Promise((r) => setTimeout(r, 300));
        const stoppedAt = Date.now();
        broken.child.kill("SIGTERM");
        expect(await cut).toMatch(/^cut: /);
        expect(await broken.exited).toBe(0);
        expect(Date.now() - stoppedAt).toBeLessThan(6_000);
        expect(broken.lines().map((l) => String(l.msg))).toContain(
          "shutdown: requests still running after the timeout are cut off",
        );
      } finally {
        if (broken.child.exitCode === null) broken.child.kill("SIGKILL");
      }
    },
  );

  test("a session made on one instance works on the other, and ending it there ends it everywhere", async () => {
    const signIn = await call(a, "POST", "/api/v1/session", { body: { username: "alice", password: "alice-secret" } });
    expect(signIn.status, signIn.text).toBe(200);
    const cookie = sessionCookie(signIn.headers);
    expect(cookie).not.toBe("");
    secrets.add(cookie.slice("ksc_session=".length));
    expect((await call(b, "GET", "/api/v1/cluster", { cookie })).status).toBe(200);
    expect((await call(a, "GET", "/api/v1/cluster", { cookie })).status).toBe(200);
    expect((await call(b, "DELETE", "/api/v1/session", { cookie })).status).toBe(200);
    expect((await call(a, "GET", "/api/v1/cluster", { cookie })).status).toBe(401);
    expect((await call(b, "GET", "/api/v1/cluster", { cookie })).status).toBe(401);
  });

  test("the sign-in throttle counts wrong passwords sent to both instances together", async () => {
    const username = `ops-throttle-${RUN}`;
    const password = `wrong-${RUN}`;
    secrets.add(password);
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        call(i % 2 === 0 ? a : b, "POST", "/api/v1/session", { body: { username, password } }),
      ),
    );
    const took = Date.now() - started;
    const statuses = answers.map((r) => r.status);
    // 3 free attempts for this client and username in all (lib/db/sign-in-throttle.ts), not
    // 3 per instance; the rest wait. (A burst under a second earns no further attempt.)
    expect(
      statuses.filter((s) => s === 401),
      `${statuses.join(",")} in ${took} ms`,
    ).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
    // Both instances refused some: each knew of the attempts the other let through.
    expect(statuses.filter((s, i) => i % 2 === 0 && s === 429).length).toBeGreaterThan(0);
    expect(statuses.filter((s, i) => i % 2 === 1 && s === 429).length).toBeGreaterThan(0);
  });

  test("a plan previewed on one instance is applied once when both apply it at the same moment", async () => {
    const binding = {
      resourceType: "TOPIC",
      resourceName: `ops-instances-${RUN}`,
      patternType: "LITERAL",
      principal: `User:ops-instances-${RUN}`,
      host: "*",
      operation: "READ",
      permissionType: "ALLOW",
    };
    const auth = basic("admin");
    const plan = await call(a, "POST", "/api/v1/plans", { auth, body: { kind: "acl.create", bindings: [binding] } });
    expect(plan.status, plan.text).toBe(200);
    const id = String(plan.json.id);
    const applies = await Promise.all(
      [a, b].map((instance) => call(instance, "POST", `/api/v1/plans/${id}/apply`, { auth })),
    );
    expect(applies.map((r) => r.status).sort(), applies.map((r) => r.text).join("\n")).toEqual([200, 409]);
    const listed = await call(b, "GET", `/api/v1/acls?principal=${encodeURIComponent(binding.principal)}`, { auth });
    expect(listed.json.matching).toBe(1);

    // Clean up through the same path.
    const removal = await call(b, "POST", "/api/v1/plans", { auth, body: { kind: "acl.delete", bindings: [binding] } });
    expect((await call(a, "POST", `/api/v1/plans/${String(removal.json.id)}/apply`, { auth })).status).toBe(200);
  });

  test(
    "KIP-55: two quota plans that together exceed a user's total, applied on both instances at " +
      "once: at most one applies",
    async () => {
      const user = `ops-kip55-${RUN}`;
      const auth = basic("admin");
      const set = (entity: Record<string, string>, value: number | null, dryRun = false) =>
        call(a, "POST", "/api/v1/quotas", { auth, body: { entity, key: "producer_byte_rate", value, dryRun } });
      try {
        expect((await set({ user }, 1000)).status).toBe(200);
        expect((await set({ user, "client-id": "base" }, 500)).status).toBe(200);
        // Each plan alone fits (500 + 400 <= 1000); both together do not (1300).
        const planA = await call(a, "POST", "/api/v1/quotas", {
          auth,
          body: { entity: { user, "client-id": "a" }, key: "producer_byte_rate", value: 400, dryRun: true },
        });
        const planB = await call(b, "POST", "/api/v1/quotas", {
          auth,
          body: { entity: { user, "client-id": "b" }, key: "producer_byte_rate", value: 400, dryRun: true },
        });
        expect(planA.status, planA.text).toBe(200);
        expect(planB.status, planB.text).toBe(200);
        const applies = await Promise.all([
          call(a, "POST", `/api/v1/plans/${String(planA.json.id)}/apply`, { auth }),
          call(b, "POST", `/api/v1/plans/${String(planB.json.id)}/apply`, { auth }),
        ]);
        expect(applies.map((r) => r.status).sort(), applies.map((r) => r.text).join("\n")).toEqual([200, 409]);

        const overview = await call(b, "GET", "/api/v1/quotas", { auth });
        type Group = {
          entities: { entity: Record<string, string | null>; values: { key: string; value: number }[] }[];
        };
        const subQuotas = (overview.json.groups as Group[])
          .flatMap((g) => g.entities)
          .filter((e) => e.entity.user === user && typeof e.entity["client-id"] === "string")
          .flatMap((e) => e.values.filter((v) => v.key === "producer_byte_rate").map((v) => v.value));
        expect(subQuotas.reduce((sum, v) => sum + v, 0)).toBe(900);
      } finally {
        for (const clientId of ["a", "b", "base"]) await set({ user, "client-id": clientId }, null);
        await set({ user }, null);
      }
    },
  );

  test(
    "a token request is approved once and retrieved once when both instances are asked at the same " + "moment",
    async () => {
      const submitted = await call(a, "POST", "/api/v1/token-requests", {
        auth: basic("carol"),
        body: {
          owner: "User:svc-orders",
          renewers: ["User:carol"],
          maxLifetimeMs: 3_600_000,
          reason: `instances ${RUN}: two approvers at once`,
        },
      });
      expect(submitted.status, submitted.text).toBe(200);
      const id = String(submitted.json.id);
      const approvals = await Promise.all([
        call(a, "POST", `/api/v1/token-requests/${id}/approve`, { auth: basic("bob") }),
        call(b, "POST", `/api/v1/token-requests/${id}/approve`, { auth: basic("admin") }),
      ]);
      expect(approvals.map((r) => r.status).sort(), approvals.map((r) => r.text).join("\n")).toEqual([200, 409]);

      const retrievals = await Promise.all(
        [a, b].map((instance) =>
          call(instance, "POST", `/api/v1/token-requests/${id}/retrieve`, { auth: basic("carol") }),
        ),
      );
      expect(retrievals.map((r) => r.status).sort(), retrievals.map((r) => r.text).join("\n")).toEqual([200, 409]);
      const hmac = String(retrievals.find((r) => r.status === 200)!.json.hmac);
      expect(hmac.length).toBeGreaterThan(10);
      secrets.add(hmac);
      const expired = await call(b, "POST", "/api/v1/tokens/expire", {
        auth: basic("carol"),
        body: { hmac, when: "now" },
      });
      expect(expired.status, expired.text).toBe(200);
    },
  );

  test(
    "metrics: only with the token (or on the metrics port), request latency by route pattern, " +
      "Kafka calls by API and outcome",
    async () => {
      expect((await call(a, "GET", "/api/metrics")).status).toBe(401);
      expect(
        (await call(a, "GET", "/api/metrics", { headers: { Authorization: "Bearer not-the-token-at-all-0000000" } }))
          .status,
      ).toBe(401);
      // Not configured on B: no metrics there (the session gate answers).
      expect(
        (await call(b, "GET", "/api/metrics", { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).status,
      ).toBe(401);

      const wrong = `wrong-${RUN}-metrics`;
      secrets.add(wrong);
      expect(
        (await call(a, "POST", "/api/v1/session", { body: { username: `ops-metrics-${RUN}`, password: wrong } }))
          .status,
      ).toBe(401);
      expect((await call(a, "GET", "/api/v1/acls?principal=User%3Aalice", { auth: basic("admin") })).status).toBe(200);

      const metrics = await call(a, "GET", "/api/metrics", { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(metrics.status).toBe(200);
      expect(metrics.headers.get("content-type")).toContain("text/plain");
      const body = metrics.text;
      expect(body).toMatch(
        /ksc_http_request_duration_seconds_count\{method="POST",route="\/api\/v1\/plans\/\[id\]\/apply",status="200"\} [1-9]/,
      );
      expect(body).toMatch(
        /ksc_http_request_duration_seconds_count\{method="GET",route="\/api\/health",status="200"\} [1-9]/,
      );
      expect(body).not.toMatch(/route="\/api\/v1\/plans\/[0-9a-f]{8}-/);
      expect(body).toMatch(/ksc_kafka_requests_total\{api="SaslAuthenticate",outcome="ok"\} [1-9]/);
      expect(body).toMatch(
        /ksc_kafka_requests_total\{api="SaslAuthenticate",outcome="SASL_AUTHENTICATION_FAILED"\} [1-9]/,
      );
      expect(body).toMatch(/ksc_kafka_requests_total\{api="DeleteAcls",outcome="ok"\} [1-9]/);
      expect(body).toMatch(/ksc_kafka_pooled_connections [1-9]/);
      expect(body).toMatch(/ksc_acl_snapshot_age_seconds \d/);
      expect(body).toMatch(/ksc_ready 1/);

      expect(a.metricsUrl).toBeDefined();
      const port = await fetch(a.metricsUrl!);
      expect(port.status).toBe(200);
      expect(await port.text()).toContain("ksc_http_requests_in_flight");
    },
  );

  test(
    "logs: one JSON line per request with its request id, and no password, cookie, token or HMAC " + "anywhere",
    async () => {
      const answer = await call(b, "GET", "/api/v1/cluster", {
        auth: basic("admin"),
        headers: { "X-Request-Id": "client-chosen-id" },
      });
      const requestId = answer.headers.get("x-request-id")!;
      // Without TRUST_PROXY a client's own id is not taken.
      expect(requestId).not.toBe("client-chosen-id");
      // Written once the answer has gone out: it may follow the answer by a moment.
      await expect.poll(() => b.lines().some((l) => l.msg === "request" && l.requestId === requestId)).toBe(true);
      const line = b.lines().find((l) => l.msg === "request" && l.requestId === requestId);
      expect(line).toMatchObject({
        level: "info",
        method: "GET",
        route: "/api/v1/cluster",
        status: 200,
        name: "server",
      });
      expect(typeof line!.ms).toBe("number");

      for (const user of ["admin", "alice", "bob", "carol"]) secrets.add(basic(user).slice("Basic ".length));
      for (const instance of [a, b]) {
        const output = instance.output();
        expect(output.length).toBeGreaterThan(0);
        for (const secret of secrets) expect(output, `${instance.name}'s log holds a secret`).not.toContain(secret);
        // Every line is JSON.
        for (const l of output.split("\n").filter(Boolean)) expect(() => JSON.parse(l), l).not.toThrow();
      }
    },
  );

  test(
    "graceful shutdown: a request in flight at SIGTERM completes, new connections are refused, the " +
      "process exits 0",
    async () => {
      const body = JSON.stringify({ username: "alice", password: "alice-secret" });
      const { port } = new URL(b.url);
      const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = http.request(
          {
            host: "127.0.0.1",
            port,
            method: "POST",
            path: "/api/v1/session",
            headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) },
          },
          (res) => {
            let text = "";
            res.on("data", (c: Buffer) => (text += c.toString()));
            res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
          },
        );
        req.on("error", reject);
        // Half the body now, the rest after the server was told to stop.
        req.write(body.slice(0, 10));
        setTimeout(() => {
          b.child.kill("SIGTERM");
          setTimeout(
            () =>
              void (async () => {
                const refused = await fetch(`${b.url}/api/health`).then(
                  () => false,
                  () => true,
                );
                expect(refused, "a new connection during the drain").toBe(true);
                req.end(body.slice(10));
              })().catch(reject),
            1_000,
          );
        }, 500);
      });
      const answer = await response;
      expect(answer.status, answer.text).toBe(200);
      expect(await b.exited).toBe(0);
      const messages = b.lines().map((l) => String(l.msg));
      expect(messages).toContain("SIGTERM: stopping");
      expect(messages).toContain("stopped: requests drained, Kafka connections and the database pool closed");
    },
  );
});
