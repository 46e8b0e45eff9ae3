import { describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import path from "node:path";
import { AREAS, isCurrentArea } from "./nav-links";

const consoleDir = path.resolve(import.meta.dirname, "..", "app", "c", "[cluster]", "(console)");

describe("the sidebar's areas", () => {
  it("each has a page (the menu lists only pages that exist)", () => {
    for (const area of AREAS) expect(existsSync(path.join(consoleDir, area.href, "page.tsx")), area.href).toBe(true);
  });
  it("an area is current on its own pages only", () => {
    expect(isCurrentArea("/", "/")).toBe(true);
    expect(isCurrentArea("/", "/acls")).toBe(false);
    expect(isCurrentArea("/acls", "/acls/new")).toBe(true);
    expect(isCurrentArea("/tokens", "/token-requests")).toBe(false);
    expect(isCurrentArea("/requests", "/requests/0b1f7c9e")).toBe(true);
    expect(isCurrentArea("/requests", "/token-requests")).toBe(false);
  });
});
