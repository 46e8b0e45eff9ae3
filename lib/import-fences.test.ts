/**
 * The import fences of eslint.config.js, run through ESLint itself, so a later edit of the
 * config cannot silently reopen them: the policy core imports only itself, pages and
 * components never reach the database or the Kafka client directly, and production code
 * imports only its own layer or lower ones (eslint-layers.js), never test/.
 */
import path from "node:path";
import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

/** The messages of `rule` ESLint gives `source` imported from a (not necessarily existing) file. */
async function refusals(file: string, source: string, rule = "no-restricted-imports"): Promise<string[]> {
  const [result] = await eslint.lintText(`import "${source}";\n`, { filePath: path.join(root, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === rule).map((m) => m.message);
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

describe("the layer order", () => {
  const order = (file: string, source: string) => refusals(file, source, "layers/order");

  it.each([
    // Each layer refuses the one above it, through the alias and through relative paths.
    ["lib/schemas/fixture.ts", "@/lib/env"],
    ["lib/schemas/fixture.ts", "../clusters"],
    ["lib/clusters.ts", "@/lib/kafka/config"],
    ["lib/clusters.ts", "./kafka"],
    ["lib/fixture.ts", "@/lib/db/client"],
    ["lib/env.ts", "./services/authorizer-config"],
    ["lib/kafka/fixture.ts", "@/lib/auth/sign-in"],
    ["lib/db/fixture.ts", "../auth/current"],
    ["lib/auth/fixture.ts", "@/lib/services/session"],
    ["lib/services/fixture.ts", "@/lib/api/route"],
    ["lib/services/fixture.ts", "../actions/cluster-switch"],
    ["lib/services/fixture.ts", "@/lib/observability/readiness"],
    ["lib/kafka/fixture.ts", "@/lib/observability/metrics"],
    ["lib/api/fixture.ts", "@/components/link"],
    ["lib/actions/fixture.ts", "@/app/sign-in/actions"],
    ["components/fixture.tsx", "@/app/sign-in/actions"],
    ["components/ui/fixture.tsx", "../../app/layout"],
    ["lib/observability/logger.ts", "./metrics"],
    ["lib/observability/hooks.ts", "@/lib/kafka"],
    ["lib/fixture.ts", "@/proxy"],
  ])("%s may not import %s", async (file, source) => {
    expect(await order(file, source)).toEqual([expect.stringContaining("may not import")]);
  });

  it.each([
    ["lib/schemas/fixture.ts", "@/lib/policy"],
    ["lib/clusters.ts", "./env"],
    ["lib/clusters.ts", "./schemas/access-check"],
    ["lib/kafka/fixture.ts", "@/lib/clusters"],
    ["lib/kafka/fixture.ts", "@/lib/observability/hooks"],
    ["lib/db/fixture.ts", "../generated/prisma/client"],
    ["lib/db/fixture.ts", "@/lib/kafka/errors"],
    ["lib/auth/fixture.ts", "@/lib/db/session"],
    ["lib/services/fixture.ts", "@/lib/observability/logger"],
    ["lib/observability/readiness.ts", "../kafka/api-versions"],
    ["lib/observability/metrics.ts", "../services/acl-snapshot"],
    ["lib/api/fixture.ts", "@/lib/actions/cluster-switch"],
    ["components/fixture.tsx", "@/lib/actions/cluster-switch"],
    ["app/sign-in/fixture.ts", "@/components/link"],
    ["proxy.ts", "@/lib/api/same-origin"],
    ["lib/fixture.ts", "zod"],
    // Outside the order: tests, test helpers and scripts may import anything.
    ["lib/kafka/fixture.test.ts", "@/lib/services/acls"],
    ["test/fixture.ts", "@/app/sign-in/actions"],
    ["scripts/fixture.ts", "../app/sign-in/actions"],
  ])("%s may import %s", async (file, source) => {
    expect(await order(file, source)).toEqual([]);
  });

  it.each([
    ["lib/services/fixture.ts", "@/test/db"],
    ["lib/kafka/fixture.ts", "../../test/kafka/fixtures"],
    ["components/fixture.tsx", "@/test/policy/acl-helpers"],
    ["app/api/v1/fixture/route.ts", "@/test"],
    ["proxy.ts", "./test/db"],
  ])("production code: %s may not import the test helper %s", async (file, source) => {
    expect(await order(file, source)).toEqual([expect.stringContaining("never imports the test helpers")]);
  });

  it("refuses a lib/ folder the order does not place", async () => {
    expect(await order("lib/newfolder/fixture.ts", "zod")).toEqual([expect.stringContaining("is in no layer")]);
  });
});
