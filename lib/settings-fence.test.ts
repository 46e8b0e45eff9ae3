/**
 * The settings fence of eslint.config.js, run through ESLint itself: only lib/env.ts reads
 * process.env in app/, components/, lib/, proxy.ts and instrumentation.ts (tests, scripts
 * and next.config.ts may; so may a check of NEXT_RUNTIME).
 */
import { describe, expect, it } from "vitest";
import { lintMessages } from "@/test/eslint";

const refusals = (file: string, code: string) => lintMessages(file, code, "no-restricted-syntax");

const READ = "export const port = process.env.PORT;\n";

describe("the settings fence", () => {
  it.each([
    ["lib/services/fixture.ts", READ],
    ["lib/db/fixture.ts", READ],
    ["lib/fixture.ts", READ],
    ["app/c/[cluster]/(console)/fixture/page.tsx", READ],
    ["app/api/v1/fixture/route.ts", READ],
    ["components/ui/fixture.tsx", READ],
    ["proxy.ts", "export const dev = process.env.NODE_ENV === 'development';\n"],
    ["instrumentation.ts", "export const url = process.env.DATABASE_URL;\n"],
    ["lib/fixture.ts", 'export const all = process["env"];\n'],
    ["lib/fixture.ts", "export const all = globalThis.process.env;\n"],
    ["lib/fixture.ts", "const { env } = process;\nexport const all = env;\n"],
    ["lib/fixture.ts", 'import { env } from "node:process";\nexport const all = env;\n'],
  ])("%s may not read the environment: %j", async (file, code) => {
    expect(await refusals(file, code)).toEqual([expect.stringContaining("Read settings through lib/env.ts")]);
  });

  it.each([
    ["lib/env.ts", READ],
    ["lib/fixture.test.ts", READ],
    ["lib/fixture.integration.test.ts", READ],
    ["scripts/fixture.ts", READ],
    ["test/fixture.ts", READ],
    ["next.config.ts", READ],
    ["instrumentation.ts", "export const node = process.env.NEXT_RUNTIME === 'nodejs';\n"],
    ["lib/fixture.ts", "export const platform = process.platform;\n"],
  ])("%s may: %j", async (file, code) => {
    expect(await refusals(file, code)).toEqual([]);
  });
});
