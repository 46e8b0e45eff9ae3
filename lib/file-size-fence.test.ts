/**
 * The file-size fence of eslint.config.js (#18), run through ESLint itself: no source file in
 * app/, components/ or lib/ over 800 lines, tests and the JDK regex port aside.
 */
import { describe, expect, it } from "vitest";
import { lintMessages } from "@/test/eslint";

const refusals = (file: string, code: string) => lintMessages(file, code, "max-lines");
const lines = (n: number) => Array.from({ length: n }, (_, i) => `export const v${i} = ${i};`).join("\n") + "\n";

describe("the file-size fence", () => {
  it.each(["lib/services/fixture.ts", "app/c/[cluster]/(console)/fixture/page.tsx", "components/ui/fixture.tsx"])(
    "%s may not grow past 800 lines",
    async (file) => {
      expect(await refusals(file, lines(801))).toEqual([expect.stringContaining("Maximum allowed is 800")]);
      expect(await refusals(file, lines(800))).toEqual([]);
    },
  );

  it.each(["lib/services/fixture.test.ts", "lib/policy/identity/java/regex/fixture.ts", "scripts/fixture.ts"])(
    "%s may",
    async (file) => {
      expect(await refusals(file, lines(900))).toEqual([]);
    },
  );
});
