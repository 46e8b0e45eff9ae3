import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // A separate build directory lets several builds (e.g. parallel test runs) coexist.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  serverExternalPackages: ["@platformatic/kafka", "@electric-sql/pglite", "@electric-sql/pglite-socket", "pg"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
