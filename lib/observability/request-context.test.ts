import { describe, expect, it } from "vitest";
import { currentRequestId, requestIdFor, runWithRequestId } from "./request-context";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("request ids", () => {
  it("takes the proxy's X-Request-Id only when the proxy is trusted", () => {
    expect(requestIdFor("lb-7f3a.42", true)).toBe("lb-7f3a.42");
    expect(requestIdFor("lb-7f3a.42", false)).toMatch(UUID);
    expect(requestIdFor(undefined, true)).toMatch(UUID);
  });

  it("replaces an id that could forge log fields or flood them", () => {
    for (const bad of ['x" "level":"fatal', "a b", "a\nb", "", "x".repeat(129), "é", "-leading-dash"]) {
      expect(requestIdFor(bad, true), bad).toMatch(UUID);
    }
    expect(requestIdFor(["first-id", "second-id"], true)).toBe("first-id");
  });

  it("new ids differ per request, and the id is seen across awaits inside the request only", async () => {
    expect(requestIdFor(undefined, false)).not.toBe(requestIdFor(undefined, false));
    const seen = await runWithRequestId("abc", async () => {
      await new Promise((r) => setTimeout(r, 5));
      return currentRequestId();
    });
    expect(seen).toBe("abc");
    expect(currentRequestId()).toBeUndefined();
  });
});
