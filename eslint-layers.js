/**
 * The layer order of the console's production code (DESIGN.md, "Layers"), as an ESLint
 * rule: a module imports only from its own layer or lower ones, through the `@/` alias or
 * a relative path alike, and never from test/.
 *
 * Lowest first:
 *
 *   0  lib/policy       the pure policy core (it has a stricter fence of its own: only itself)
 *   1  lib/schemas      zod schemas and the result type, built on the policy's constants
 *   2  base             the top-level lib/*.ts (settings: env, clusters, kafka-config,
 *                       kafka-credential, authorizer-config; cluster-path, page-title,
 *                       settings-check) and three modules of lib/observability that
 *                       import nothing of the console: hooks.ts (the sink lib/kafka reports
 *                       its calls to), logger.ts and request-context.ts. They are the
 *                       "base" every layer above may log and report through; the rest of
 *                       lib/observability (metrics, readiness, routes) is layer 6.
 *   3  lib/db, lib/kafka, lib/jobs (the job queue; it knows nothing of what jobs do)
 *      (and lib/generated, the Prisma client lib/db wraps)
 *   4  lib/auth
 *   5  lib/services
 *   6  lib/api, lib/actions, lib/observability (but the base modules above)
 *   7  components
 *   8  app, proxy.ts, instrumentation.ts
 *
 * A new folder of lib/ must be given its place here (its modules are refused until then).
 * Tests (`*.test.ts`), test/ and scripts/ are outside the order: they may import anything.
 * Production code never imports test/ (the test helpers). Stricter fences stay where they
 * are: lib/policy imports only itself, and app/ and components/ never reach lib/db or
 * lib/kafka (eslint.config.js).
 */
import path from "node:path";

export const LAYERS = [
  "lib/policy",
  "lib/schemas",
  "base (lib/*.ts, lib/observability/{hooks,logger,request-context})",
  "lib/db, lib/kafka, lib/jobs",
  "lib/auth",
  "lib/services",
  "lib/api, lib/actions, lib/observability",
  "components",
  "app",
];

const LIB_DIRS = {
  policy: 0,
  schemas: 1,
  db: 3,
  kafka: 3,
  jobs: 3,
  generated: 3,
  auth: 4,
  services: 5,
  api: 6,
  actions: 6,
  observability: 6,
};
const BASE_OBSERVABILITY = /^lib\/observability\/(hooks|logger|request-context)$/;

/** The layer of a repository path without its extension (`lib/kafka/client`), or null when it has none. */
export function layerOf(file) {
  if (BASE_OBSERVABILITY.test(file)) return 2;
  const lib = /^lib\/([^/]+)(\/|$)/.exec(file);
  if (lib) return LIB_DIRS[lib[1]] ?? (lib[2] === "" ? 2 : null);
  if (/^components(\/|$)/.test(file)) return 7;
  if (/^app(\/|$)/.test(file) || file === "proxy" || file === "instrumentation") return 8;
  return null;
}

/** The repository path `source` names from `file` (both without extension), or null for a package. */
function target(file, source) {
  let to;
  if (source.startsWith("@/")) to = source.slice(2);
  else if (source === "." || source === ".." || source.startsWith("./") || source.startsWith("../")) {
    to = path.posix.join(path.posix.dirname(file), source);
  } else return null;
  return path.posix
    .normalize(to)
    .replace(/\/(index)?$/, "")
    .replace(/\.(ts|tsx|js|mjs)$/, "");
}

const order = {
  meta: {
    type: "problem",
    docs: { description: "A module imports only from its own layer or lower ones, and never from test/." },
    schema: [],
    messages: {
      upward:
        "{{from}} is in layer {{fromLayer}} ({{fromName}}) and may not import {{to}}, " +
        "layer {{toLayer}} ({{toName}}): import only your own layer or lower ones (eslint-layers.js).",
      test: "Production code never imports the test helpers in test/ ({{to}}).",
      unplaced: "{{from}} is in no layer: give its lib/ folder a place in the order (eslint-layers.js).",
    },
  },
  create(context) {
    const file = path
      .relative(context.cwd, context.filename)
      .split(path.sep)
      .join("/")
      .replace(/\.(tsx?|js)$/, "");
    const fromLayer = layerOf(file);
    if (fromLayer === null) {
      if (!file.startsWith("lib/")) return {};
      return { Program: (node) => context.report({ node, messageId: "unplaced", data: { from: file } }) };
    }
    const check = (node) => {
      const source = node?.type === "Literal" && typeof node.value === "string" ? node.value : null;
      const to = source === null ? null : target(file, source);
      if (to === null || to.startsWith("../")) return;
      if (/^test(\/|$)/.test(to)) return context.report({ node, messageId: "test", data: { to } });
      const toLayer = layerOf(to);
      if (toLayer === null || toLayer <= fromLayer) return;
      const data = { from: file, fromLayer, fromName: LAYERS[fromLayer], to, toLayer, toName: LAYERS[toLayer] };
      context.report({ node, messageId: "upward", data });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

export default { rules: { order } };
