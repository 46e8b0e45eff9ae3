import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import { builtinModules } from "node:module";

export default tseslint.config(
  { ignores: ["node_modules/", ".next/", ".next-*/", "lib/generated/", ".data/", ".kafka/", "target/", "test-results/", "playwright-report/", "next-env.d.ts"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  // Type-checked rules for TypeScript only: plain .js/.mjs config files are not in the TS project.
  ...tseslint.configs.recommendedTypeChecked.map((config) => ({ ...config, files: ["**/*.{ts,tsx,mts,cts}"] })),
  {
    files: ["**/*.{ts,tsx,mts,cts}"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // Off: ~50 hits, nearly all test stubs and callbacks that implement a Promise-returning
      // interface without awaiting; no-floating-promises and no-misused-promises catch the real risks.
      "@typescript-eslint/require-await": "off",
      // A File from FormData.get() stringifies to "[object File]", which every field check refuses.
      "@typescript-eslint/no-base-to-string": ["error", { ignoredTypeNames: ["Error", "RegExp", "URL", "URLSearchParams", "File"] }],
    },
  },
  {
    // Tests read JSON answers, mocks and asymmetric matchers (res.json(), mock.calls, expect.any) as `any`
    // on purpose and assert on them; typing each would be churn without added safety. Source keeps no-unsafe-*.
    files: ["**/*.test.{ts,tsx}", "e2e/**/*.ts"],
    rules: {
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-return": "off",
    },
  },
  {
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  {
    // Playwright fixtures call `use`, which is not React's hook.
    files: ["e2e/**/*.ts"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
  ...policyFence(),
  {
    // Pages and components reach the database and Kafka through lib/services (and the
    // actions), which check who is asking, audit, and map errors; never directly.
    files: ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          // With several clusters every page address carries its cluster (lib/cluster-path.ts); components/link.tsx adds it.
          paths: [{ name: "next/link", importNames: ["default"], message: "Use @/components/link: it keeps the page's cluster in the address." }],
          patterns: [
            { regex: "^@/lib/(db|kafka)(/|$)", message: "Go through lib/services (or lib/actions): pages and components never use the database or Kafka directly." },
            { regex: "^(\\.\\./)+lib/(db|kafka)(/|$)", message: "Go through lib/services (or lib/actions): pages and components never use the database or Kafka directly." },
          ],
        },
      ],
    },
  },
);

/**
 * The fence around the policy core (docs/architecture.md, "Layers"): pure TypeScript that runs in
 * Node and in the browser. It imports only itself: no framework, database, Kafka client
 * or Node module, and nothing else of the console, neither through the `@/` alias nor
 * through a relative path that climbs out of lib/policy. Tests may climb out (the
 * differential test drives the Java harness in scripts/) but not use the rest; they and
 * their helpers in test/policy may import those helpers too.
 */
function policyFence() {
  const message = "lib/policy is the pure policy core: it may import only lib/policy (docs/architecture.md, Layers).";
  // Regexes, not gitignore globs: the glob `crypto` would also match lib/policy's own ./crypto.
  const packages = ["next", "react", "react-dom", "server-only", "prisma", "@prisma", "pg", "@platformatic", ...builtinModules];
  const base = [
    { regex: `^(node:|(${packages.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})(/|$))`, message },
    // Any alias import but lib/policy itself: @/lib/kafka, @/lib/db/client, @/lib/auth/*, @/lib/services/*...
    { regex: "^@/(?!lib/policy(/|$))", message },
  ];
  const tests = ["lib/policy/**/*.test.ts", "test/policy/**/*.ts"];
  const testBase = [base[0], { regex: "^@/(?!(lib|test)/policy(/|$))", message }];
  const depths = [0, 1, 2, 3];
  return [
    ...depths.map((depth) => ({
      files: [`lib/policy/${"*/".repeat(depth)}*.{ts,tsx}`],
      ignores: tests,
      rules: { "no-restricted-imports": ["error", { patterns: [...base, { regex: `^(\\.\\./){${depth + 1}}`, message }] }] },
    })),
    { files: tests, rules: { "no-restricted-imports": ["error", { patterns: testBase }] } },
  ];
}
