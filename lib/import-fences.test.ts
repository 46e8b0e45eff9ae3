/**
 * The import fences of eslint.config.js, run through ESLint itself, so a later edit of the
 * config cannot silently reopen them: the policy core imports only itself, and pages and
 * components never reach the database or the Kafka client directly.
 */
import path from "node:path";
import { ESLint } from "eslint";
import tseslint from "typescript-eslint";
import { beforeAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
let eslint: ESLint;

beforeAll(() => {
  // The files linted here do not exist, so the TS project cannot type them: the fences need no types.
  eslint = new ESLint({ cwd: root, overrideConfig: tseslint.configs.disableTypeChecked });
});

/** The restricted-import messages ESLint gives `source` imported from a (not necessarily existing) file. */
async function refusals(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`import "${source}";\n`, { filePath: path.join(root, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message);
}

describe("the lib/policy fence", () => {
  it.each([
    ["lib/policy/acl/fixture.ts", "@/lib/kafka"],
    ["lib/policy/acl/fixture.ts", "@/lib/kafka/errors"],
    ["lib/policy/acl/fixture.ts", "@/lib/db"],
    ["lib/policy/acl/fixture.ts", "@/lib/db/client"],
    ["lib/policy/acl/fixture.ts", "@/lib/auth"],
    ["lib/policy/acl/fixture.ts", "@/lib/auth/crypto"],
    ["lib/policy/acl/fixture.ts", "@/lib/services/acls"],
    ["lib/policy/acl/fixture.ts", "@/lib/api/route"],
    ["lib/policy/acl/fixture.ts", "@/lib/schemas/result"],
    ["lib/policy/acl/fixture.ts", "@/lib/schemas/acls"],
    ["lib/policy/acl/fixture.ts", "@/lib/env"],
    ["lib/policy/acl/fixture.ts", "next/server"],
    ["lib/policy/acl/fixture.ts", "react"],
    ["lib/policy/acl/fixture.ts", "server-only"],
    ["lib/policy/acl/fixture.ts", "@prisma/client"],
    ["lib/policy/acl/fixture.ts", "pg"],
    ["lib/policy/acl/fixture.ts", "@platformatic/kafka"],
    ["lib/policy/acl/fixture.ts", "node:fs"],
    ["lib/policy/acl/fixture.ts", "fs/promises"],
    ["lib/policy/acl/fixture.ts", "crypto"],
    // Relative paths that climb out of lib/policy, from each depth.
    ["lib/policy/acl/fixture.ts", "../../kafka/errors"],
    ["lib/policy/acl/fixture.ts", "../../db/client"],
    ["lib/policy/fixture.ts", "../auth/crypto"],
    ["lib/policy/fixture.test.ts", "@/lib/kafka"],
    ["lib/policy/quota/fixture.test.ts", "node:net"],
    // Test helpers: policy tests get only the pure ones, and production code none.
    ["lib/policy/acl/fixture.ts", "@/test/policy/acl-helpers"],
    ["lib/policy/acl/fixture.test.ts", "@/test/db"],
    ["test/policy/fixture.ts", "@/lib/kafka"],
    ["test/policy/fixture.ts", "node:fs"],
  ])("%s may not import %s", async (file, source) => {
    expect(await refusals(file, source)).toEqual([expect.stringContaining("lib/policy is the pure policy core")]);
  });

  it.each([
    ["lib/policy/acl/fixture.ts", "../types"],
    ["lib/policy/acl/fixture.ts", "./validate"],
    ["lib/policy/token/fixture.ts", "../crypto/sha512"],
    ["lib/policy/fixture.ts", "./crypto"],
    ["lib/policy/acl/fixture.ts", "@/lib/policy"],
    ["lib/policy/acl/fixture.ts", "@/lib/policy/types"],
    // Tests may drive the Java harness in scripts/.
    ["lib/policy/fixture.integration.test.ts", "../../scripts/java-harness"],
    ["lib/policy/acl/fixture.test.ts", "@/test/policy/acl-helpers"],
    ["test/policy/fixture.ts", "@/lib/policy/types"],
  ])("%s may import %s", async (file, source) => {
    expect(await refusals(file, source)).toEqual([]);
  });
});

describe("the app/ and components/ fence", () => {
  it.each([
    ["app/c/[cluster]/(console)/fixture/page.tsx", "@/lib/db/audit"],
    ["app/api/v1/fixture/route.ts", "@/lib/db"],
    ["app/c/[cluster]/(console)/fixture/actions.ts", "@/lib/kafka"],
    ["components/fixture.tsx", "@/lib/kafka/errors"],
    ["components/ui/fixture.tsx", "../../lib/db/client"],
  ])("%s may not import %s", async (file, source) => {
    expect(await refusals(file, source)).toEqual([expect.stringContaining("Go through lib/services")]);
  });

  it.each([
    ["app/c/[cluster]/(console)/fixture/page.tsx", "@/lib/services/acls"],
    ["app/api/v1/fixture/route.ts", "@/lib/api/route"],
    ["components/fixture.tsx", "@/lib/policy"],
    ["components/fixture.tsx", "@/lib/dbx"],
  ])("%s may import %s", async (file, source) => {
    expect(await refusals(file, source)).toEqual([]);
  });
});
