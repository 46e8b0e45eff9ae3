import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import { builtinModules } from "node:module";

export default tseslint.config(
  { ignores: ["node_modules/", ".next/", ".next-*/", "lib/generated/", ".data/", ".kafka/", "target/", "test-results/", "playwright-report/", "next-env.d.ts"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
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
  ...uiKitFence(),
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
 * The fence around the policy core (DESIGN.md, "Layers"): pure TypeScript that runs in
 * Node and in the browser. It imports only itself: no framework, database, Kafka client
 * or Node module, and nothing else of the console, neither through the `@/` alias nor
 * through a relative path that climbs out of lib/policy. Tests may climb out (the
 * differential test drives the Java harness in scripts/) but not use the rest; they and
 * their helpers in test/policy may import those helpers too.
 */
function policyFence() {
  const message = "lib/policy is the pure policy core: it may import only lib/policy (DESIGN.md, Layers).";
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

/**
 * Tables, badges and alerts come from the UI kit (components/ui/README.md): one DataTable
 * over TanStack Table, Badge and Alert. Pages and other components write none by hand.
 */
function uiKitFence() {
  const kit = "components/ui/";
  const classNames = "/(^|\\s)(badge|alert)(\\s|$)/";
  return [
    {
      files: ["app/**/*.tsx", "components/**/*.tsx"],
      ignores: [`${kit}**`],
      rules: {
        "no-restricted-syntax": [
          "error",
          {
            selector: "JSXOpeningElement[name.name='table']",
            message: `Use DataTable from ${kit}data-table.tsx: no hand-built <table>.`,
          },
          {
            selector: `JSXAttribute[name.name='className'] Literal[value=${classNames}]`,
            message: `Use Badge or Alert from ${kit}: no hand-written badge or alert classes.`,
          },
          {
            selector: `JSXAttribute[name.name='className'] TemplateElement[value.raw=${classNames}]`,
            message: `Use Badge or Alert from ${kit}: no hand-written badge or alert classes.`,
          },
        ],
      },
    },
  ];
}
