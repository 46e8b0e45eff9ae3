import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  serverExternalPackages: ["@platformatic/kafka", "@electric-sql/pglite", "@electric-sql/pglite-socket", "pg"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
