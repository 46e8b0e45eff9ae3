/**
 * The import fences of eslint.config.js, run through ESLint itself, so a later edit of the
 * config cannot silently reopen them: the policy core imports only itself, pages and
 * components never reach the database or the Kafka client directly, only the audited wrapper
 * reaches a Kafka write, and production code imports only its own layer or lower ones
 * (eslint-layers.js), never test/.
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

/**
 * The messages of the import fences (or of `rule`) ESLint gives `source` imported from a (not necessarily existing)
 * file.
 */
async function refusals(file: string, source: string, rule?: string): Promise<string[]> {
  return refusalsOf(file, `import "${source}";\n`, rule);
}

/** The restricted-import and restricted-syntax messages (or those of `rule`) ESLint gives `code` in a file. */
async function refusalsOf(file: string, code: string, rule?: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  const fences = rule ? [rule] : ["no-restricted-imports", "no-restricted-syntax"];
  return (result?.messages ?? []).filter((m) => fences.includes(m.ruleId ?? "")).map((m) => m.message);
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
    ["app/c/[cluster]/(console)/fixture/actions.ts", "@/lib/kafka/writes"],
    ["components/fixture.tsx", "@platformatic/kafka"],
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

describe("the Kafka write fence", () => {
  const refused = [expect.stringContaining("Kafka writes go through auditedMutation")];

  it.each([
    ["lib/services/fixture.ts", "@/lib/kafka/writes"],
    ["lib/services/fixture.ts", "../kafka/writes"],
    ["lib/services/acls.ts", "@/lib/kafka/writes"],
    ["lib/services/fixture.ts", "@platformatic/kafka"],
    ["lib/auth/fixture.ts", "@/lib/kafka/writes"],
    ["lib/api/fixture.ts", "@/lib/kafka/writes.ts"],
    ["lib/actions/fixture.ts", "../kafka/writes"],
    ["lib/db/fixture.ts", "@/lib/kafka/writes"],
    ["lib/fixture.ts", "./kafka/writes"],
    ["scripts/fixture.ts", "../lib/kafka/writes"],
    ["scripts/policy/fixture.ts", "../../lib/kafka/writes"],
    // The test helpers make writes of their own.
    ["lib/services/fixture.ts", "@/test/kafka/fixtures"],
    ["lib/api/fixture.ts", "../../test/kafka/fixtures"],
  ])("%s may not import %s", async (file, source) => {
    expect(await refusals(file, source)).toEqual(refused);
  });

  it.each([
    ["lib/services/fixture.ts", `import { createAcls } from "@/lib/kafka/acls";`],
    ["lib/services/fixture.ts", `import { describeAcls, deleteAcls } from "../kafka/acls";`],
    ["lib/services/fixture.ts", `import { alterClientQuotas } from "@/lib/kafka/quotas";`],
    ["lib/services/fixture.ts", `import { upsertScramCredential } from "@/lib/kafka/scram";`],
    ["lib/services/fixture.ts", `import { expireDelegationToken } from "@/lib/kafka/tokens";`],
    ["lib/services/fixture.ts", `import { produce } from "@/lib/kafka/data-plane";`],
    ["lib/services/fixture.ts", `import { withAdmin } from "@/lib/kafka/client";`],
    ["lib/services/fixture.ts", `import { anyBrokerConnection } from "@/lib/kafka/brokers";`],
    ["lib/services/fixture.ts", `import { createAcls } from "@/lib/kafka";`],
    ["lib/services/fixture.ts", `import * as acls from "@/lib/kafka/acls";\nvoid acls;`],
    ["lib/services/fixture.ts", `export { createDelegationToken } from "@/lib/kafka/tokens";`],
    ["lib/services/fixture.ts", `import type { KafkaWriter } from "@/lib/kafka/writes";\nexport type W = KafkaWriter;`],
    ["lib/services/fixture.ts", `export const w = await import("@/lib/kafka/writes");`],
    ["lib/services/fixture.ts", `export const c = await import("../kafka/client");`],
    ["scripts/fixture.ts", `import { createAcls } from "../lib/kafka/acls";\nvoid createAcls;`],
  ])("%s: %s is refused", async (file, code) => {
    expect(await refusalsOf(file, `${code}\n`)).toEqual(refused);
  });

  it.each([
    // The audited wrapper: it hands each mutation its KafkaWriter.
    ["lib/services/audited-mutation.ts", "@/lib/kafka/writes"],
    // lib/kafka itself, the seed, the benches and measurement scripts, tests and their helpers.
    ["lib/kafka/fixture.ts", "./writes"],
    ["lib/kafka/fixture.ts", "@platformatic/kafka"],
    ["scripts/seed.ts", "@/lib/kafka/writes"],
    ["scripts/seed/fixture.ts", "@/lib/kafka/writes"],
    ["scripts/bench.ts", "../lib/kafka/writes"],
    ["scripts/bench-console.ts", "../lib/kafka/writes"],
    ["scripts/bench/fixture.ts", "../../lib/kafka/writes"],
    ["scripts/acl-load.ts", "../lib/kafka/writes"],
    ["scripts/acl-delete-measure.ts", "../lib/kafka/writes"],
    ["lib/services/fixture.test.ts", "@/lib/kafka/writes"],
    ["lib/services/fixture.integration.test.ts", "@/lib/kafka/writes"],
    ["test/kafka/fixture.ts", "@/lib/kafka/writes"],
    ["e2e/fixture.ts", "../lib/kafka/writes"],
    ["lib/services/fixture.test.ts", "@/test/kafka/fixtures"],
    // What only reads.
    ["lib/services/fixture.ts", "@/lib/kafka"],
    ["lib/services/fixture.ts", "@/lib/kafka/error-result"],
    ["lib/services/fixture.ts", "./kafka-cluster-id"],
  ])("%s may import %s", async (file, source) => {
    expect(await refusals(file, source)).toEqual([]);
  });

  it.each([
    ["lib/services/fixture.ts", `import { describeAclStore, onAclChange } from "@/lib/kafka/acls";`],
    ["lib/services/fixture.ts", `import { describeAcls, validateClientQuotas } from "@/lib/kafka";`],
    ["lib/services/fixture.ts", `import { brokersDown } from "@/lib/kafka/brokers";`],
    ["lib/services/fixture.ts", `import { auditedMutation, type KafkaWriter } from "./audited-mutation";`],
    ["lib/services/audited-mutation.ts", `import { openKafkaWriter, type KafkaWriter } from "@/lib/kafka/writes";`],
    ["scripts/bench-console.ts", `export const c = await import("../lib/kafka/client");`],
  ])("%s: %s passes", async (file, code) => {
    expect(await refusalsOf(file, `${code}\n`)).toEqual([]);
  });
});
