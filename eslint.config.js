import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import { builtinModules } from "node:module";
import layers from "./eslint-layers.js";

/** Pages and components reach the database and Kafka only through lib/services (and the actions). */
const DIRECT =
  "Go through lib/services (or lib/actions): pages and components never use the database or Kafka directly.";

/** Part of the Kafka write fence that is a syntax rule; settingsFence() repeats it, since its own no-restricted-syntax replaces this one in the files both cover. */
const KAFKA_DYNAMIC_IMPORT = {
  // esquery regexes cannot hold a "/"; \x2F is one.
  selector: "ImportExpression[source.value=/(^|\\x2F)kafka(\\x2F|$)/]",
  message:
    "Kafka writes go through auditedMutation (lib/services/audited-mutation.ts). " +
    "Import lib/kafka statically (a dynamic import's names cannot be checked).",
};

/** Modules the Kafka write fence exempts that the settings fence covers: they get the settings rule alone. */
const KAFKA_FENCE_EXEMPT_PRODUCTION = ["lib/services/audited-mutation.ts", "lib/kafka/**"];

/** The settings fence's syntax rule (settingsFence), also carried by later blocks whose no-restricted-syntax replaces it. */
const SETTINGS_MESSAGE =
  "Read settings through lib/env.ts (one schema, documented in docs/configuration.md), not process.env.";
const SETTINGS_SYNTAX = [
  // process.env, process["env"], globalThis.process.env, but not process.env.NEXT_RUNTIME
  "MemberExpression[object.name='process'][property.name='env']:not([parent.property.name='NEXT_RUNTIME'])",
  "MemberExpression[object.name='process'][property.value='env']",
  "MemberExpression[object.property.name='process'][property.name='env']",
  // const { env } = process; import { env } from "node:process"
  "VariableDeclarator[init.name='process'] > ObjectPattern > Property[key.name='env']",
  "ImportDeclaration[source.value=/^(node:)?process$/] > ImportSpecifier[imported.name='env']",
].map((selector) => ({ selector, message: SETTINGS_MESSAGE }));

export default tseslint.config(
  {
    ignores: [
      "node_modules/",
      ".next/",
      ".next-*/",
      "lib/generated/",
      ".data/",
      ".kafka/",
      "target/",
      "test-results/",
      "playwright-report/",
      "next-env.d.ts",
    ],
  },
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
      "@typescript-eslint/no-base-to-string": [
        "error",
        { ignoredTypeNames: ["Error", "RegExp", "URL", "URLSearchParams", "File"] },
      ],
    },
  },
  {
    // Tests read JSON answers, mocks and asymmetric matchers (res.json(), mock.calls, expect.any) as `any`
    // on purpose and assert on them; typing each would be churn without added safety. Source keeps no-unsafe-*.
    // scripts/policy-conformance/cli.ts is the conformance tests' shared helper, read the same way.
    files: ["**/*.test.{ts,tsx}", "e2e/**/*.ts", "scripts/policy-conformance/cli.ts"],
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
  // Before the stricter import fences of lib/policy, app/ and components/: a later block's
  // no-restricted-imports replaces this one's in their files (its dynamic-import rule stays).
  ...kafkaWriteFence(),
  ...policyFence(),
  ...settingsFence(),
  {
    // The layer order (eslint-layers.js): production code imports only its own layer or
    // lower ones, and never test/. Tests, test/ and scripts/ are outside it.
    files: ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}", "lib/**/*.{ts,tsx}", "proxy.ts", "instrumentation.ts"],
    ignores: ["**/*.test.{ts,tsx}"],
    plugins: { layers },
    rules: { "layers/order": "error" },
  },
  ...uiKitFence(),
  {
    // Rooms that do not grow too big (#18): no source file over 800 lines. The JDK regex port
    // keeps the shape of its Java original, file for file. Tests, test/, e2e/ and scripts/ aside.
    files: ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}", "lib/**/*.{ts,tsx}", "proxy.ts", "instrumentation.ts"],
    ignores: ["**/*.test.{ts,tsx}", "lib/policy/identity/java/regex/**"],
    rules: { "max-lines": ["error", { max: 800, skipBlankLines: false, skipComments: false }] },
  },
  {
    // Pages and components reach the database and Kafka through lib/services (and the
    // actions), which check who is asking, audit, and map errors; never directly.
    files: ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          // With several clusters every page address carries its cluster (lib/cluster-path.ts); components/link.tsx adds it.
          paths: [
            {
              name: "next/link",
              importNames: ["default"],
              message: "Use @/components/link: it keeps the page's cluster in the address.",
            },
          ],
          patterns: [
            { regex: "^@/lib/(db|kafka)(/|$)", message: DIRECT },
            { regex: "^(\\.\\./)+lib/(db|kafka)(/|$)", message: DIRECT },
            { regex: "^@platformatic/kafka(/|$)", message: DIRECT },
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
  const packages = [
    "next",
    "react",
    "react-dom",
    "server-only",
    "prisma",
    "@prisma",
    "pg",
    "@platformatic",
    ...builtinModules,
  ];
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
      rules: {
        "no-restricted-imports": ["error", { patterns: [...base, { regex: `^(\\.\\./){${depth + 1}}`, message }] }],
      },
    })),
    { files: tests, rules: { "no-restricted-imports": ["error", { patterns: testBase }] } },
  ];
}

/**
 * The Kafka write fence (DESIGN.md, "Changes": only the audited wrapper can reach a Kafka
 * write). lib/kafka/writes holds every call that changes Kafka; auditedMutation
 * (lib/services/audited-mutation.ts) alone imports it and hands each mutation a KafkaWriter
 * between its intent and its outcome record. Everywhere else the module is refused, and so
 * are a write imported by name from the lib/kafka module defining it, the raw Admin
 * (withAdmin, createAdmin and the broker connections), the Kafka client package, and any
 * dynamic import of lib/kafka (its names cannot be checked), and the test helpers (they write
 * to set up and clean up). Named exemptions: lib/kafka
 * itself, the demo seed, the benches and measurement scripts, tests and their helpers (they
 * set up and clean up the broker they run against).
 */
function kafkaWriteFence() {
  const message =
    "Kafka writes go through auditedMutation (lib/services/audited-mutation.ts), which hands the mutation " +
    "its KafkaWriter: nothing else imports lib/kafka/writes or a Kafka write (DESIGN.md, Changes).";
  const writes = [
    ...["createAcls", "deleteAcls", "alterClientQuotas", "upsertScramCredential", "deleteScramCredential"],
    ...["createDelegationToken", "renewDelegationToken", "expireDelegationToken", "deleteConsumerGroups"],
    ...["createTopics", "deleteTopics", "produce", "produceTransactional", "consumeWithGroup"],
    ...["withAdmin", "createAdmin", "anyBrokerConnection", "reachableBrokerConnections"],
  ];
  // @/lib/kafka/..., ../kafka/... (from lib/*), ../lib/kafka/... (from scripts/), ./kafka/... (from lib/).
  const kafkaPath = "^(@/lib/|(\\.{1,2}/)+(lib/)?)kafka";
  const exempt = [
    "lib/services/audited-mutation.ts",
    "lib/kafka/**",
    ...["scripts/seed.ts", "scripts/seed/**", "scripts/bench*.ts", "scripts/bench/**"],
    ...["scripts/acl-load.ts", "scripts/acl-*-measure.ts"],
    ...["**/*.test.ts", "test/**", "e2e/**"],
  ];
  return [
    {
      files: ["**/*.{ts,tsx,js,mjs,cjs}"],
      ignores: exempt,
      rules: {
        "no-restricted-imports": [
          "error",
          {
            patterns: [
              { regex: `${kafkaPath}/writes(\\.[jt]s)?$`, message },
              { regex: `${kafkaPath}(?!/writes)(/[\\w-]+)?(\\.[jt]s)?$`, importNames: writes, message },
              { regex: "^@platformatic/kafka(/|$)", message },
              // The test helpers write to Kafka to set up and clean up (test/kafka/fixtures.ts).
              { regex: "^(@/|(\\.\\./)+)test(/|$)", message: `${message} Only tests import test/.` },
            ],
          },
        ],
        "no-restricted-syntax": ["error", KAFKA_DYNAMIC_IMPORT],
      },
    },
  ];
}

/**
 * Every setting is read by lib/env.ts alone, from one schema that also writes
 * docs/configuration.md; everything else gets its values from there. (Tests, scripts/ and
 * next.config.ts may read the environment; so may a check of NEXT_RUNTIME, which Next sets.)
 */
function settingsFence() {
  const settings = SETTINGS_SYNTAX;
  const production = [
    "app/**/*.{ts,tsx}",
    "components/**/*.{ts,tsx}",
    "lib/**/*.{ts,tsx}",
    "proxy.ts",
    "instrumentation.ts",
  ];
  return [
    // Both fences' syntax rules in the files both cover (one no-restricted-syntax replaces the other).
    {
      files: production,
      ignores: ["lib/env.ts", "**/*.test.{ts,tsx}"],
      rules: { "no-restricted-syntax": ["error", ...settings, KAFKA_DYNAMIC_IMPORT] },
    },
    {
      files: KAFKA_FENCE_EXEMPT_PRODUCTION,
      ignores: ["**/*.test.{ts,tsx}"],
      rules: { "no-restricted-syntax": ["error", ...settings] },
    },
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
        // One no-restricted-syntax replaces another in the files both cover: these files are also under the
        // settings fence and the Kafka write fence, so their selectors come along.
        "no-restricted-syntax": [
          "error",
          ...SETTINGS_SYNTAX,
          KAFKA_DYNAMIC_IMPORT,
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
