import { readFileSync } from "node:fs";
import type { z } from "zod";
import { describe, expect, it } from "vitest";
import { envSchema, EXTERNAL_SETTINGS, settingDocs } from "../lib/env";
import { CONFIGURATION_DOC, configurationMarkdown, schemaDefault } from "./docs-config";

describe("docs/configuration.md", () => {
  it("is what scripts/docs-config.ts writes from lib/env.ts (run `npx tsx scripts/docs-config.ts`)", () => {
    expect(readFileSync(CONFIGURATION_DOC, "utf8")).toBe(configurationMarkdown());
  });

  it("documents every setting of the schema, and each setting once", () => {
    const fields = Object.entries(envSchema.shape) as [string, z.ZodType][];
    expect(fields.filter(([, schema]) => !settingDocs.get(schema)?.description).map(([name]) => name)).toEqual([]);
    const names = [...fields.map(([name]) => name), ...EXTERNAL_SETTINGS.map((s) => s.name)];
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(configurationMarkdown()).toContain(`| \`${name}\` |`);
  });

  it("gives the schema's own default where it words a default itself", () => {
    const wrong = (Object.entries(envSchema.shape) as [string, z.ZodType][]).flatMap(([name, schema]) => {
      const stated = settingDocs.get(schema)?.default;
      const actual = schemaDefault(schema);
      const differs = stated !== undefined && actual !== undefined && actual !== "none" && !stated.includes(actual);
      return differs ? [name] : [];
    });
    expect(wrong).toEqual([]);
  });
});
