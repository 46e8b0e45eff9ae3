/**
 * Writes docs/configuration.md, the configuration reference, from the settings schema of
 * lib/env.ts (each setting's description, default and whether the build reads it) and the
 * clusters file example of lib/clusters.ts. scripts/docs-config.test.ts fails when the
 * committed file differs from what this writes.
 *
 *   npx tsx scripts/docs-config.ts
 */
import { writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { CLUSTERS_FILE_EXAMPLE } from "../lib/clusters";
import { envSchema, EXTERNAL_SETTINGS, SETTING_SECTIONS, settingDocs } from "../lib/env";
import type { SettingDoc, SettingSection } from "../lib/env";

export const CONFIGURATION_DOC = path.resolve(import.meta.dirname, "..", "docs", "configuration.md");

type Row = { name: string } & Omit<SettingDoc, "section">;

/** The schema's own default of a setting, as text, or undefined when it has none. */
export function schemaDefault(schema: z.ZodType): string | undefined {
  if (!(schema instanceof z.ZodDefault)) return undefined;
  const value: unknown = schema.def.defaultValue;
  return Array.isArray(value) ? (value.length === 0 ? "none" : value.join(",")) : String(value);
}

/** Each setting of the schema with its documentation, by section, in the schema's order. */
export function documentedSettings(): Map<SettingSection, Row[]> {
  const sections = new Map<SettingSection, Row[]>(Object.keys(SETTING_SECTIONS).map((s) => [s as SettingSection, []]));
  for (const [name, schema] of Object.entries(envSchema.shape) as [string, z.ZodType][]) {
    const doc = settingDocs.get(schema);
    if (!doc) throw new Error(`${name} has no documentation in lib/env.ts (settingDocs)`);
    const fallback = schemaDefault(schema);
    const shown = doc.default ?? (fallback === undefined ? "unset" : `\`${fallback}\``);
    sections.get(doc.section)!.push({ name, description: doc.description, default: shown, buildTime: doc.buildTime });
  }
  sections.get("external")!.push(...EXTERNAL_SETTINGS);
  return sections;
}

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

function table(rows: readonly Row[]): string[] {
  return [
    "| variable | default | build | meaning |",
    "| --- | --- | --- | --- |",
    ...rows.map((r) => {
      const build = r.buildTime ? "yes" : "";
      return `| \`${r.name}\` | ${cell(r.default ?? "unset")} | ${build} | ${cell(r.description)} |`;
    }),
  ];
}

const INTRO = [
  "# Configuration",
  "",
  "<!-- Written by scripts/docs-config.ts from lib/env.ts; do not edit: change the schema and run",
  "     `npx tsx scripts/docs-config.ts` (a unit test fails when this file and the schema differ). -->",
  "",
  "The console is configured with environment variables. `lib/env.ts` defines and reads every one of them",
  "(nothing else in the console reads the environment); a bad value stops the start with every problem listed",
  "(`SESSION_TTL_HOURS=abc` is refused, not read as NaN). An empty value counts as unset.",
  "",
  "**build**: read by `next.config.ts` (or the build itself), which `next build` evaluates as well as the server",
  "start: give the build the same value as the running console, and after changing it build again",
  "(`npm run build`; `npm start` rebuilds only when the sources changed).",
];

const CLUSTERS_FILE_SECTION = [
  "### The clusters file",
  "",
  "With `CLUSTERS_FILE` (YAML or JSON) one console manages several clusters, each with its own connection,",
  "the SASL mechanisms its sign-in offers, and what the console cannot read from its brokers; the variables",
  "of the single cluster above are then refused. A file with mistakes stops the start with every problem",
  "listed, each with its place in the file. An example (the unit tests read it):",
  "",
  "```yaml",
  CLUSTERS_FILE_EXAMPLE.trimEnd(),
  "```",
];

/** The whole of docs/configuration.md. */
export function configurationMarkdown(): string {
  const lines = [...INTRO];
  for (const [section, rows] of documentedSettings()) {
    lines.push("", `## ${SETTING_SECTIONS[section]}`, "", ...table(rows));
    if (section === "kafka") lines.push("", ...CLUSTERS_FILE_SECTION);
  }
  return `${lines.join("\n")}\n`;
}

const invokedDirectly =
  process.argv[1] !== undefined && path.resolve(process.argv[1]) === path.resolve(import.meta.filename);
if (invokedDirectly) {
  mkdirSync(path.dirname(CONFIGURATION_DOC), { recursive: true });
  writeFileSync(CONFIGURATION_DOC, configurationMarkdown());
  console.log(`wrote ${path.relative(process.cwd(), CONFIGURATION_DOC)}`);
}
