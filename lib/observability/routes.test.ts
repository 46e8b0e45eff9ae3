import { describe, expect, it } from "vitest";
import { routeNormaliser } from "./routes";

describe("request addresses as metric labels", () => {
  const routeOf = routeNormaliser([
    "/",
    "/acls",
    "/acls/new",
    "/acls/[id]",
    "/api/v1/plans/[id]",
    "/api/v1/plans/[id]/apply",
    "/principals/[...name]",
    "/docs/[[...slug]]",
    "/(console)/audit",
  ]);

  it("names the route pattern, never the ids in the address", () => {
    expect(routeOf("/api/v1/plans/0b6c1f6e-1c84-4b8e-9a53-0d1a7d8f0e11/apply")).toBe("/api/v1/plans/[id]/apply");
    expect(routeOf("/api/v1/plans/0b6c1f6e-1c84-4b8e-9a53-0d1a7d8f0e11")).toBe("/api/v1/plans/[id]");
    expect(routeOf("/principals/User%3Aalice/x")).toBe("/principals/[...name]");
    expect(routeOf("/docs")).toBe("/docs/[[...slug]]");
    expect(routeOf("/docs/a/b")).toBe("/docs/[[...slug]]");
  });

  it("prefers literal segments over parameters, and strips route groups", () => {
    expect(routeOf("/acls/new")).toBe("/acls/new");
    expect(routeOf("/acls/42")).toBe("/acls/[id]");
    expect(routeOf("/audit")).toBe("/audit");
    expect(routeOf("/")).toBe("/");
  });

  it("counts Next's static files as one route and anything unknown as other", () => {
    expect(routeOf("/_next/static/chunks/abc123.js")).toBe("/_next/static");
    expect(routeOf("/wp-admin/setup.php")).toBe("other");
    expect(routeOf("/api/v1/plans")).toBe("other");
  });
});
