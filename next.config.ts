import type { NextConfig } from "next";
import { env } from "./lib/env";

const nextConfig: NextConfig = {
  // A separate build directory lets several builds (e.g. parallel test runs) coexist.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  serverExternalPackages: [
    "@platformatic/kafka",
    "@electric-sql/pglite",
    "@electric-sql/pglite-socket",
    "pg",
    "pg-boss",
  ],
  poweredByHeader: false,
  // `npm start` (scripts/start.ts) builds without Next's type check, which takes about a
  // minute of a first start; `npm test` and `npm run typecheck` run tsc on the same sources.
  // `npm run build` and the test builds still check types.
  typescript: { ignoreBuildErrors: process.env.KSC_BUILD_SKIP_TYPECHECK === "1" },
  typedRoutes: false,
  experimental: {
    serverActions: {
      // Next runs a server action only when the Origin's host is the Host (or
      // X-Forwarded-Host) the request was sent to; behind a reverse proxy under another
      // name, the public origins in ALLOWED_ORIGINS are the console's own too. (proxy.ts
      // refuses other cross-site posts before Next sees them.) Read when the server starts.
      allowedOrigins: env().ALLOWED_ORIGINS.map((origin) => new URL(origin).host),
      // Forms (e.g. an ACL import pasted or uploaded on /acls/import) may be as large as
      // an API body.
      bodySizeLimit: env().MAX_BODY_BYTES,
    },
  },
};

export default nextConfig;
