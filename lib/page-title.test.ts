import { describe, expect, it } from "vitest";
import { MAX_TITLE_NAME, objectTitle } from "./page-title";

describe("objectTitle", () => {
  it("names the object before the kind of page", () => {
    expect(objectTitle("Principal", "User:alice")).toBe("User:alice · Principal");
    expect(objectTitle("Resource", "TOPIC", "audit-log")).toBe("TOPIC audit-log · Resource");
  });

  it("is the kind alone when the address names nothing", () => {
    expect(objectTitle("Quotas", undefined, "", "  ", null)).toBe("Quotas");
  });

  it("takes the first of repeated query values and keeps a name's case", () => {
    expect(objectTitle("Audit", ["User:Bob", "User:carol"])).toBe("User:Bob · Audit");
  });

  it("cuts a very long name", () => {
    const title = objectTitle("Resource", "x".repeat(500));
    expect(title).toBe(`${"x".repeat(MAX_TITLE_NAME - 1)}… · Resource`);
  });
});
