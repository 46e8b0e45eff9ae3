import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, REDACTED, routeConsoleTo, scrubText } from "./logger";
import { runWithRequestId } from "./request-context";

function capture() {
  const lines: Record<string, unknown>[] = [];
  let raw = "";
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      raw += chunk.toString();
      for (const line of chunk.toString().split("\n").filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { log: createLogger(stream), lines, raw: () => raw };
}

describe("the console's logger", () => {
  it("writes one JSON object per line with an ISO time, the level's name and the message", () => {
    const { log, lines } = capture();
    log.info({ route: "/api/v1/plans/[id]" }, "request");
    expect(lines[0]).toMatchObject({ level: "info", msg: "request", route: "/api/v1/plans/[id]" });
    expect(String(lines[0]!.time)).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it("puts the request id of the request being served on every line, and none outside a request", () => {
    const { log, lines } = capture();
    runWithRequestId("req-123", () => log.warn("inside"));
    log.warn("outside");
    expect(lines[0]).toMatchObject({ msg: "inside", requestId: "req-123" });
    expect(lines[1]).not.toHaveProperty("requestId");
  });

  it("never writes passwords, Authorization, Cookie, Set-Cookie, tokens or HMACs, at the top or nested", () => {
    const { log, raw } = capture();
    log.info({
      password: "top-secret-1",
      body: { username: "alice", password: "alice-secret-2", credential: { password: "nested-3" } },
      req: {
        headers: {
          authorization: "Basic YWxpY2U6c2VjcmV0",
          cookie: "ksc_session=abc.def",
          "set-cookie": "ksc_session=ghi",
        },
      },
      token: { hmac: "hmac-value-4", tokenHmac: "hmac-value-5" },
      CONSOLE_SECRET_KEY: "key-6",
    });
    for (const secret of [
      "top-secret-1",
      "alice-secret-2",
      "nested-3",
      "YWxpY2U6c2VjcmV0",
      "abc.def",
      "ghi",
      "hmac-value-4",
      "hmac-value-5",
      "key-6",
    ]) {
      expect(raw()).not.toContain(secret);
    }
    expect(raw()).toContain(REDACTED);
    expect(raw()).toContain('"username":"alice"');
  });

  it("scrubs secret shapes from free text: messages, console output and error messages", () => {
    const { log, raw } = capture();
    log.error("retrying with Authorization: Basic YWxpY2U6c2VjcmV0 and Cookie: ksc_session=s3ss10n");
    log.error({ err: new Error('login failed for {"username":"bob","password":"bob-secret"}') }, "sign-in");
    const original = { ...console };
    try {
      routeConsoleTo(log);
      console.error("connecting with password=hunter2 token: t0k3n", new Error("Bearer abc.def.ghi"));
    } finally {
      Object.assign(console, original);
    }
    for (const secret of ["YWxpY2U6c2VjcmV0", "s3ss10n", "bob-secret", "hunter2", "t0k3n", "abc.def.ghi"])
      expect(raw()).not.toContain(secret);
    expect(scrubText("password=x&user=alice")).toBe(`password=${REDACTED}&user=alice`);
  });
});
