import { describe, expect, it } from "vitest";
import { clusterOfPageUrl, isPagePath, splitClusterPath, withClusterPrefix } from "./cluster-path";

describe("the cluster in a page's address", () => {
  it("splits /c/<id>/… into the cluster and the page", () => {
    expect(splitClusterPath("/c/prod/acls")).toEqual({ clusterId: "prod", rest: "/acls" });
    expect(splitClusterPath("/c/prod/principals/User%3Aalice")).toEqual({
      clusterId: "prod",
      rest: "/principals/User%3Aalice",
    });
    expect(splitClusterPath("/c/prod")).toEqual({ clusterId: "prod", rest: "/" });
    expect(splitClusterPath("/c/prod?x=1")).toEqual({ clusterId: "prod", rest: "/?x=1" });
    expect(splitClusterPath("/c/prod/")).toEqual({ clusterId: "prod", rest: "/" });
  });

  it("never leaves an address of another site as the page: /c/<id>//host is /host", () => {
    expect(splitClusterPath("/c/prod//evil.example/x")).toEqual({ clusterId: "prod", rest: "/evil.example/x" });
    expect(splitClusterPath("/c/prod/\\evil.example")).toEqual({ clusterId: "prod", rest: "/evil.example" });
    expect(withClusterPrefix("dev", splitClusterPath("/c/prod//evil.example").rest)).toBe("/c/dev/evil.example");
  });

  it("finds no cluster where the address has none, or only looks like it", () => {
    expect(splitClusterPath("/acls")).toEqual({ clusterId: null, rest: "/acls" });
    expect(splitClusterPath("/")).toEqual({ clusterId: null, rest: "/" });
    expect(splitClusterPath("/c")).toEqual({ clusterId: null, rest: "/c" });
    expect(splitClusterPath("/c/")).toEqual({ clusterId: null, rest: "/c/" });
    expect(splitClusterPath("/cc/prod/acls")).toEqual({ clusterId: null, rest: "/cc/prod/acls" });
    expect(splitClusterPath("/acls/c/prod")).toEqual({ clusterId: null, rest: "/acls/c/prod" });
  });

  it("prefixes console pages, keeping query and fragment, and leaves everything else alone", () => {
    expect(withClusterPrefix("prod", "/acls?principal=User%3Aa#list")).toBe("/c/prod/acls?principal=User%3Aa#list");
    expect(withClusterPrefix("prod", "/")).toBe("/c/prod");
    expect(withClusterPrefix("prod", "/?ok=1")).toBe("/c/prod?ok=1");
    expect(withClusterPrefix("prod", "/api/v1/acls")).toBe("/api/v1/acls");
    expect(withClusterPrefix("prod", "/sign-in?next=%2F")).toBe("/sign-in?next=%2F");
    expect(withClusterPrefix("prod", "https://example.com/acls")).toBe("https://example.com/acls");
    expect(withClusterPrefix("prod", "//example.com/acls")).toBe("//example.com/acls");
    expect(withClusterPrefix("prod", "#content")).toBe("#content");
    expect(withClusterPrefix("prod", "/c/staging/acls")).toBe("/c/staging/acls"); // already names one
    expect(withClusterPrefix(null, "/acls")).toBe("/acls"); // one cluster: no prefix
  });

  it("round-trips: the page of a prefixed address is the address it was made from", () => {
    for (const page of ["/", "/acls", "/acls?page=2", "/principals/User%3Aa%2Fb", "/tokens#x"]) {
      const { clusterId, rest } = splitClusterPath(withClusterPrefix("eu-west-1", page));
      expect(clusterId).toBe("eu-west-1");
      expect(rest).toBe(page);
    }
  });

  it("tells pages from the API, the sign-in and static files", () => {
    expect(isPagePath("/quotas")).toBe(true);
    expect(isPagePath("/api/v1/plans")).toBe(false);
    expect(isPagePath("/sign-in")).toBe(false);
    expect(isPagePath("/_next/static/x.js")).toBe(false);
    expect(isPagePath("/icons/logo.svg")).toBe(false);
  });

  it("takes the cluster of a Referer only from the console's own origin", () => {
    const own = (origin: string) => origin === "http://127.0.0.1:3000";
    expect(clusterOfPageUrl("http://127.0.0.1:3000/c/prod/acls?x=1", own)).toBe("prod");
    expect(clusterOfPageUrl("http://127.0.0.1:3000/acls", own)).toBeNull();
    expect(clusterOfPageUrl("http://127.0.0.1:4000/c/prod/acls", own)).toBeNull();
    expect(clusterOfPageUrl("not a url", own)).toBeNull();
    expect(clusterOfPageUrl(null, own)).toBeNull();
  });
});
