import { describe, expect, it } from "vitest";
import { MAX_TITLE_NAME, objectTitle, titleFromId } from "./page-title";

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

describe("titleFromId", () => {
  it("names a plan or request page by the first 8 characters of its id, as the pages show them", async () => {
    const generate = titleFromId("Request");
    await expect(
      generate({ params: Promise.resolve({ id: "3f2a9c1e-77aa-4b1e-9d0e-0123456789ab" }) }),
    ).resolves.toEqual({
      title: "3f2a9c1e · Request",
    });
  });
});
