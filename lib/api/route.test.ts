import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { resetEnvForTests } from "@/lib/env";
import { apiRoute, isJsonContentType } from "./route";

/**
 * The wrapper's checks before a handler runs, on routes without sign-in (auth: false,
 * like POST /api/v1/session) so no session or broker is needed.
 */
let calls: unknown[] = [];
const route = apiRoute({ auth: false, body: z.object({ name: z.string() }) }, async ({ body }) => {
  calls.push(body);
  return { ok: true, data: { hello: body.name } };
});
const bodyless = apiRoute({ auth: false }, async () => {
  calls.push("called");
  return { ok: true, data: { done: true } };
});

const url = "http://127.0.0.1:3000/api/v1/things";
const post = (
  body: BodyInit | null,
  headers: Record<string, string> = { "content-type": "application/json" },
  target = url,
) =>
  new Request(target, {
    method: "POST",
    body,
    headers: { host: "127.0.0.1:3000", ...headers },
    duplex: "half",
  } as RequestInit);

beforeEach(() => {
  calls = [];
  process.env.MAX_BODY_BYTES = "1000";
  process.env.REQUEST_TIMEOUT_SECONDS = "0.3";
  resetEnvForTests();
});
afterEach(() => {
  delete process.env.MAX_BODY_BYTES;
  delete process.env.REQUEST_TIMEOUT_SECONDS;
  resetEnvForTests();
});

async function answer(response: Response) {
  return {
    status: response.status,
    body: (await response.json()) as { error: string; code: string; fieldErrors?: Record<string, string[]> },
  };
}

describe("apiRoute", () => {
  it("runs the handler for a same-origin JSON body", async () => {
    const response = await route(
      post(JSON.stringify({ name: "alice" }), {
        "content-type": "application/json; charset=utf-8",
        origin: "http://127.0.0.1:3000",
      }),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ hello: "alice" });
  });

  it("refuses a cross-site post (403) before reading or handling it, also on routes without sign-in", async () => {
    for (const headers of <Record<string, string>[]>[
      { "content-type": "application/json", origin: "http://127.0.0.1:4000" },
      { "content-type": "text/plain", origin: "http://127.0.0.1:4000" },
      { "content-type": "application/json", "sec-fetch-site": "same-site" },
    ]) {
      const { status, body } = await answer(await route(post(JSON.stringify({ name: "x" }), headers)));
      expect(status).toBe(403);
      expect(body.error).toMatch(/Cross-site request refused/);
    }
    const { status } = await answer(await bodyless(post(null, { origin: "null" })));
    expect(status).toBe(403);
    expect(calls).toEqual([]);
  });

  it("requires Content-Type: application/json for a body (415), also where the route reads none", async () => {
    for (const type of [
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/json; charset=latin1",
    ]) {
      const { status, body } = await answer(await route(post(JSON.stringify({ name: "x" }), { "content-type": type })));
      expect(status, type).toBe(415);
      expect(body.error).toBe("Send the request body as JSON, with the header Content-Type: application/json.");
    }
    expect((await route(post(JSON.stringify({ name: "x" }), {}))).status).toBe(415);
    expect((await bodyless(post("a=1", { "content-type": "application/x-www-form-urlencoded" }))).status).toBe(415);
    expect((await bodyless(post(null, {}))).status).toBe(200);
    expect(calls).toEqual(["called"]);
  });

  it("answers 413 with the limit for a body over MAX_BODY_BYTES, declared or not", async () => {
    const big = JSON.stringify({ name: "x".repeat(2000) });
    const declared = await answer(
      await route(post(big, { "content-type": "application/json", "content-length": String(big.length) })),
    );
    expect(declared).toEqual({
      status: 413,
      body: { error: "The request body is larger than 1000 bytes.", code: "PAYLOAD_TOO_LARGE" },
    });
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 5; i++) controller.enqueue(new TextEncoder().encode(big.slice(i * 500, (i + 1) * 500)));
        controller.close();
      },
    });
    expect((await answer(await route(post(stream)))).status).toBe(413);
    expect(calls).toEqual([]);
  });

  it("answers 408 when the body stops arriving", async () => {
    const stalled = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"name":'));
      },
    });
    const started = Date.now();
    const { status, body } = await answer(await route(post(stalled)));
    expect(status).toBe(408);
    expect(body.error).toBe("The request body did not arrive within 0.3 seconds.");
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it(
    "answers 400 for invalid or overlong UTF-8, and for NUL, controls or lone surrogates, before the " + "handler",
    async () => {
      const overlong = Uint8Array.from([
        ...new TextEncoder().encode('{"name":"a'),
        0xc0,
        0x80,
        ...new TextEncoder().encode('"}'),
      ]);
      const bad = await answer(await route(post(overlong)));
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatch(/not valid UTF-8/);
      for (const [raw, message] of [
        ['{"name":"al\\u0000ice"}', /NUL/],
        ['{"name":"a\\u001bb"}', /control characters/],
        ['{"name":"\\ud800"}', /lone surrogate/],
      ] as const) {
        const { status, body } = await answer(await route(post(raw)));
        expect(status, raw).toBe(400);
        expect(body.fieldErrors?.name?.[0]).toMatch(message);
      }
      expect(calls).toEqual([]);
    },
  );

  it(
    "refuses JSON nested more than 64 levels with 400 before parsing it, not a 500 from a stack " + "overflow",
    async () => {
      process.env.MAX_BODY_BYTES = "1000000";
      resetEnvForTests();
      for (const depth of [65, 5_000, 100_000]) {
        const deep = `{"name":${"[".repeat(depth)}${"]".repeat(depth)}}`;
        const { status, body } = await answer(await route(post(deep, { "content-type": "application/json" }, url)));
        expect(status, String(depth)).toBe(400);
        expect(body).toEqual({
          error: "The request body nests arrays and objects more than 64 levels deep; no request needs that many.",
          code: "VALIDATION",
        });
      }
      // Brackets inside strings are text, and 64 levels are still read (here: a field error).
      const fine = await answer(await route(post(JSON.stringify({ name: "[".repeat(1000), more: [[[["x"]]]] }))));
      expect(fine.status).toBe(200);
      const deepest = await answer(await route(post(`{"name":${"[".repeat(63)}${"]".repeat(63)}}`)));
      expect(deepest.body.fieldErrors?.name).toBeDefined();
      expect(calls).toEqual([{ name: "[".repeat(1000) }]);
    },
  );

  it("answers every request Cache-Control: no-store, the handler's answer and every refusal", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const answers = [
      await route(post(JSON.stringify({ name: "alice" }))),
      await route(post("{", { "content-type": "application/json" })),
      await route(post(JSON.stringify({ name: "x" }), { "content-type": "text/plain" })),
      await route(
        post(JSON.stringify({ name: "x" }), { "content-type": "application/json", origin: "http://127.0.0.1:4000" }),
      ),
      await route(post(JSON.stringify({ name: "x".repeat(2000) }))),
      await apiRoute({ auth: false }, async () => ({ ok: false, code: "NOT_FOUND", message: "No such thing." }))(
        post(null, {}),
      ),
      await apiRoute(
        { auth: false },
        async () => new Response("a,b\n", { headers: { "content-type": "text/csv" } }),
      )(post(null, {})),
      await apiRoute({ auth: false }, async () => {
        throw new Error("boom");
      })(post(null, {})),
    ];
    logged.mockRestore();
    expect(answers.map((r) => r.status)).toEqual([200, 400, 415, 403, 413, 404, 200, 500]);
    for (const r of answers) expect(r.headers.get("cache-control"), String(r.status)).toBe("no-store");
  });

  it("checks the query string and path the same way", async () => {
    for (const target of [
      `${url}?q=%00`,
      `${url}?q=%C0%80`,
      `${url}?q=%ED%A0%80`,
      "http://127.0.0.1:3000/api/v1/x%C0%80/approve",
    ]) {
      const { status, body } = await answer(
        await bodyless(new Request(target, { headers: { host: "127.0.0.1:3000" } })),
      );
      expect(status, target).toBe(400);
      expect(body.code).toBe("VALIDATION");
    }
    expect(calls).toEqual([]);
  });
});

describe("isJsonContentType", () => {
  it("accepts application/json and +json types in UTF-8 only", () => {
    expect(isJsonContentType("application/json")).toBe(true);
    expect(isJsonContentType("Application/JSON; charset=UTF-8")).toBe(true);
    expect(isJsonContentType("application/merge-patch+json")).toBe(true);
    expect(isJsonContentType("text/plain")).toBe(false);
    expect(isJsonContentType("text/json")).toBe(false);
    expect(isJsonContentType(null)).toBe(false);
    expect(isJsonContentType("application/json; charset=utf-16")).toBe(false);
  });
});
