/**
 * The UI kit fence of eslint.config.js, run through ESLint itself: outside components/ui,
 * no page or component writes a `<table>` or a badge or alert class by hand (DataTable,
 * Badge and Alert are the kit's). A later edit of the config cannot silently reopen it.
 */
import { describe, expect, it } from "vitest";
import { lintMessages } from "@/test/eslint";

/** The restricted-syntax messages ESLint gives `source` in a (not necessarily existing) file. */
const refusals = (file: string, source: string) => lintMessages(file, source, "no-restricted-syntax");

const TABLE = `export const T = () => <table aria-label="x"><tbody /></table>;\n`;
const BADGES = [
  `export const B = () => <span className="badge success">ok</span>;\n`,
  `export const B = (p: { d: string }) => <span className={\`badge \${p.d}\`}>{p.d}</span>;\n`,
  `export const A = () => <div role="alert" className="alert error">no</div>;\n`,
  `export const A = (p: { t: string }) => <p className={\`big alert \${p.t}\`}>no</p>;\n`,
];

describe("the UI kit fence", () => {
  const outside = [
    "app/c/[cluster]/(console)/fixture/page.tsx",
    "components/fixture/fixture.tsx",
    "components/acls/fixture.tsx",
  ];
  it.each(outside)("%s may not build a <table>", async (file) => {
    expect(await refusals(file, TABLE)).toEqual([expect.stringContaining("Use DataTable")]);
  });

  it.each(BADGES)("a page may not write badge or alert classes: %s", async (source) => {
    expect(await refusals("app/c/[cluster]/(console)/fixture/page.tsx", source)).toEqual([
      expect.stringContaining("Use Badge or Alert"),
    ]);
  });

  it("the kit itself may, and so may look-alike classes elsewhere", async () => {
    expect(await refusals("components/ui/fixture.tsx", TABLE + BADGES.join(""))).toEqual([]);
    const lookAlikes = `export const L = () => <a className="badge-link"><span className="alerts nav-alert" /></a>;\n`;
    expect(await refusals("components/fixture/fixture.tsx", lookAlikes)).toEqual([]);
  });
});
