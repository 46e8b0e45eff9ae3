/**
 * Every declared change is reachable from a page as well as from its route (the route side
 * is lib/api/openapi.test.ts): the server actions name the change they run (changeFromForm
 * or runChange with its id, or the break-glass actions' changeOnPlan over changeFromForm),
 * and never call the service that runs it themselves, so a form
 * cannot skip the declared input schema, the unsafe-text check or the plan.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));
const { CHANGES } = await import("@/lib/schemas/changes");

const ROOT = path.resolve(import.meta.dirname, "../..");

function actionFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return actionFiles(full);
    return /actions\.ts$/.test(entry.name) ? [full] : [];
  });
}

const sources = actionFiles(path.join(ROOT, "app")).map((file) => ({
  file: path.relative(ROOT, file),
  source: readFileSync(file, "utf8"),
}));
const named = new Set(
  sources.flatMap(({ source }) =>
    [...source.matchAll(/\b(?:changeFromForm|runChange|changeOnPlan)(?:<\w+>)?\(\s*"([^"]+)"/g)].map((m) => m[1]!),
  ),
);

describe("server actions and the declared changes", () => {
  it("finds the action modules", () => {
    expect(sources.length).toBeGreaterThan(5);
  });

  it("names only declared changes", () => {
    for (const id of named) expect(Object.keys(CHANGES), id).toContain(id);
  });

  it(
    "runs every change a page makes; the API's one-call ACL and quota changes are the pages' two steps " +
      "(plan.create, plan.apply)",
    () => {
      for (const [id, change] of Object.entries(CHANGES)) {
        if (change.plan === "sealed") {
          expect(named, `${id}: its pages preview and apply a plan`).toContain("plan.create");
          expect(named).toContain("plan.apply");
        } else {
          expect(named, `${id} is run by no server action`).toContain(id);
        }
      }
    },
  );

  it("never calls a change's service function directly", () => {
    const direct =
      /\b(createPlan|applyPlan|createToken|renewToken|expireToken|upsertScramUser|deleteScramUser|submitTokenRequest|approveRequest|denyRequest|retrieveRequestedToken|signInAudited|signOutAudited|alterQuota)\(/;
    for (const { file, source } of sources) expect(direct.exec(source)?.[0] ?? null, file).toBeNull();
  });
});
