import { describe, expect, it } from "vitest";
import { safeNextPath } from "./safe-next";

describe("safeNextPath", () => {
  it("keeps paths of the console, with query and fragment", () => {
    expect(safeNextPath("/audit")).toBe("/audit");
    expect(safeNextPath("/acls?principal=User%3Aalice#list")).toBe("/acls?principal=User%3Aalice#list");
    expect(safeNextPath("/")).toBe("/");
    expect(safeNextPath("/tokens/../audit")).toBe("/audit");
  });

  it.each([
    ["a backslash the browser reads as a slash", "/\\evil.example"],
    ["a tab the browser drops (the decoded form of /%09/host)", "/\t/evil.example"],
    ["a newline the browser drops", "/\n/evil.example"],
    ["a protocol-relative URL", "//evil.example"],
    ["a protocol-relative URL with a path", "//evil.example/audit"],
    ["an absolute URL", "https://evil.example"],
    ["an absolute URL of the same scheme", "http://evil.example/"],
    ["a javascript: URL", "javascript:alert(document.domain)"],
    ["a data: URL", "data:text/html,<script>alert(1)</script>"],
    ["a path that normalises to a protocol-relative one", "/.//evil.example"],
    ["credentials in the authority", "//user:pass@evil.example"],
    ["a relative path", "audit"],
    ["an empty string", ""],
  ])("refuses %s", (_what, next) => {
    expect(safeNextPath(next)).toBe("/");
  });

  it("keeps the still-encoded /%09/host as a path of the console (it never becomes //host)", () => {
    // The page receives next already decoded (the tab case above); if it arrives encoded
    // twice, the parser keeps %09 encoded and the browser stays on the console.
    const path = safeNextPath("/%09/evil.example");
    expect(path).toBe("/%09/evil.example");
    expect(new URL(path, "https://console.example.com").origin).toBe("https://console.example.com");
  });

  it("refuses anything that is not a string, and over-long values", () => {
    expect(safeNextPath(undefined)).toBe("/");
    expect(safeNextPath(null)).toBe("/");
    expect(safeNextPath(["/audit"])).toBe("/");
    expect(safeNextPath(`/${"a".repeat(3000)}`)).toBe("/");
  });

  it("decides the same against the console's real origin", () => {
    for (const origin of ["https://console.example.com", "http://127.0.0.1:3000"]) {
      expect(safeNextPath("/audit?x=1", origin)).toBe("/audit?x=1");
      expect(safeNextPath("/\\evil.example", origin)).toBe("/");
      expect(safeNextPath("/\t/evil.example", origin)).toBe("/");
      expect(safeNextPath("//evil.example", origin)).toBe("/");
    }
  });
});
