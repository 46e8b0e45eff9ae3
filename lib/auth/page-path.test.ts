import { describe, expect, it } from "vitest";
import { signInAgainPath } from "./page-path";
import { safeNextPath } from "./safe-next";

describe("signInAgainPath", () => {
  it("returns to the page with its query, and says the session ended", () => {
    const path = signInAgainPath("/quotas?user=svc-orders&clientId=orders-api", true);
    expect(path).toBe("/sign-in?ended=1&next=%2Fquotas%3Fuser%3Dsvc-orders%26clientId%3Dorders-api");
    const next = new URL(path, "http://x").searchParams.get("next");
    expect(safeNextPath(next)).toBe("/quotas?user=svc-orders&clientId=orders-api");
  });
  it("no next for the start page, the sign-in page itself, or no known page", () => {
    expect(signInAgainPath("/", true)).toBe("/sign-in?ended=1");
    expect(signInAgainPath("/sign-in?next=%2Facls", false)).toBe("/sign-in");
    expect(signInAgainPath(null, false)).toBe("/sign-in");
  });
  it("never another origin", () => {
    expect(signInAgainPath("//evil.example/x", false)).toBe("/sign-in");
    expect(signInAgainPath("https://evil.example/", true)).toBe("/sign-in?ended=1");
  });
});
