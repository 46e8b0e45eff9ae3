import { test, expect } from "./fixtures";

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;

test.describe("JSON API /api/v1", () => {
  const badSignIns = [
    { name: "missing password", data: { username: "admin" }, status: 400, field: "password" },
    {
      name: "unknown mechanism",
      data: { username: "admin", password: "x", mechanism: "GSSAPI" },
      status: 400,
      field: "mechanism",
    },
    { name: "blank username", data: { username: "  ", password: "x" }, status: 400, field: "username" },
  ];
  for (const c of badSignIns) {
    test(`POST /session rejects ${c.name} with the field error`, async ({ request }) => {
      const res = await request.post("/api/v1/session", { data: c.data });
      expect(res.status()).toBe(c.status);
      const body = await res.json();
      expect(body.error).toEqual(expect.any(String));
      expect(Object.keys(body.fieldErrors)).toContain(c.field);
    });
  }

  test("POST /session with a wrong password is 401 with an error and no cookie", async ({ request }) => {
    const res = await request.post("/api/v1/session", { data: { username: "bob", password: "wrong" } });
    expect(res.status()).toBe(401);
    expect((await res.json()).error).toContain("Kafka rejected these credentials");
    expect(res.headers()["set-cookie"]).toBeUndefined();
  });

  test("a session from POST /session reads the cluster, and DELETE ends it", async ({ request }) => {
    const signIn = await request.post("/api/v1/session", { data: { username: "admin", password: "admin-secret" } });
    expect(signIn.status()).toBe(200);
    expect(await signIn.json()).toMatchObject({ principal: "User:admin" });
    expect(signIn.headers()["set-cookie"]).toMatch(/ksc_session=.*HttpOnly.*SameSite=lax/i);

    const cluster = await request.get("/api/v1/cluster");
    expect(cluster.status()).toBe(200);
    const body = await cluster.json();
    expect(body.principal).toBe("User:admin");
    expect(body.clusterId).toEqual(expect.any(String));
    expect(body.brokers.length).toBeGreaterThan(0);
    expect(body.brokers.map((b: { id: number }) => b.id)).toContain(body.controllerId);

    expect((await request.delete("/api/v1/session")).status()).toBe(200);
    expect((await request.get("/api/v1/cluster")).status()).toBe(401);
  });

  test("Basic credentials work on every route, with the mechanism header honoured", async ({ request }) => {
    const ok = await request.get("/api/v1/cluster", {
      headers: { authorization: basic("admin", "admin-secret"), "x-kafka-mechanism": "SCRAM-SHA-256" },
    });
    expect(ok.status()).toBe(200);
    expect((await ok.json()).principal).toBe("User:admin");
    const wrong = await request.get("/api/v1/cluster", { headers: { authorization: basic("admin", "nope") } });
    expect(wrong.status()).toBe(401);
    expect((await wrong.json()).error).toEqual(expect.any(String));
  });

  test("anonymous calls are refused", async ({ request }) => {
    for (const path of ["/api/v1/cluster", "/api/v1/audit", "/api/v1/openapi.json"]) {
      const res = await request.get(path);
      expect(res.status(), path).toBe(401);
    }
  });

  test("GET /audit filters and exports CSV", async ({ request }) => {
    const auth = { authorization: basic("admin", "admin-secret") };
    await request.post("/api/v1/session", { data: { username: "admin", password: "admin-secret" } });
    const json = await request.get("/api/v1/audit?action=session.sign-in&outcome=success", { headers: auth });
    expect(json.status()).toBe(200);
    const page = await json.json();
    expect(page.events.length).toBeGreaterThan(0);
    for (const e of page.events) {
      expect(e.action).toBe("session.sign-in");
      expect(e.outcome).toBe("success");
      expect(JSON.stringify(e)).not.toContain("admin-secret");
    }
    const bad = await request.get("/api/v1/audit?from=yesterday", { headers: auth });
    expect(bad.status()).toBe(400);
    expect(Object.keys((await bad.json()).fieldErrors)).toContain("from");

    const csv = await request.get("/api/v1/audit?format=csv&action=session.sign-in", { headers: auth });
    expect(csv.headers()["content-type"]).toContain("text/csv");
    const text = await csv.text();
    expect(text.split("\r\n")[0]).toBe("id,at,principal,action,target,outcome,kafkaError,message,request,before,after");
    expect(text).toContain("session.sign-in");
    expect(text).not.toContain("admin-secret");
  });

  test("openapi.json describes the routes", async ({ request }) => {
    const res = await request.get("/api/v1/openapi.json", {
      headers: { authorization: basic("admin", "admin-secret") },
    });
    expect(res.status()).toBe(200);
    const doc = await res.json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(["/api/v1/session", "/api/v1/cluster", "/api/v1/audit"]),
    );
  });
});
