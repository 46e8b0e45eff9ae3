// Prisma CLI configuration. Only `prisma generate` is used (npm run db:generate, and at
// postinstall), with PRISMA_SCHEMA_ENGINE_BINARY=/bin/false because the schema engine is
// a download these machines cannot make. Migrations are hand-written SQL applied by
// lib/db/migrate.ts (npm run db:migrate), never by `prisma migrate`. The datasource URL
// below is only read by CLI commands that talk to a database, which we do not run.
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/console" },
});
