/**
 * ESLint with the repository's own config (eslint.config.js), for the tests of its fences:
 * what a rule says of some code as if it were in a given (not necessarily existing) file.
 */
import path from "node:path";
import { ESLint } from "eslint";
import tseslint from "typescript-eslint";

const root = path.resolve(import.meta.dirname, "..");
let eslint: ESLint | undefined;

/** The messages rule `ruleId` gives `code` placed at `file` (relative to the repository). */
export async function lintMessages(file: string, code: string, ruleId: string): Promise<string[]> {
  // The files linted here do not exist, so the TS project cannot type them: the fences need no types.
  eslint ??= new ESLint({ cwd: root, overrideConfig: tseslint.configs.disableTypeChecked });
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === ruleId).map((m) => m.message);
}
