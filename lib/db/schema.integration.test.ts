/**
 * Guards "keep schema.prisma and the SQL migrations in step": reads prisma/schema.prisma
 * (the subset of the language it uses), derives the tables, columns, types, nullability,
 * defaults, primary keys, indexes and enums Prisma's own migrate would create, and
 * compares them with a database migrated by lib/db/migrate.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { migrate } from "./migrate";
import { createTestDatabase, type TestDatabase } from "@/test/db";

type Column = { type: string; nullable: boolean; hasDefault: boolean };
type Table = { columns: Record<string, Column>; primaryKey: string[]; indexes: Record<string, string[]> };

function parseSchema(text: string): { tables: Record<string, Table>; enums: Record<string, string[]> } {
  const src = text.replace(/\/\/.*$/gm, "");
  const enums: Record<string, string[]> = {};
  for (const m of src.matchAll(/enum\s+(\w+)\s*\{([^}]*)\}/g)) enums[m[1]!] = m[2]!.split(/\s+/).filter(Boolean);
  const tables: Record<string, Table> = {};
  for (const m of src.matchAll(/model\s+(\w+)\s*\{([^}]*)\}/g)) {
    const body = m[2]!;
    const table = /@@map\("([^"]+)"\)/.exec(body)?.[1] ?? m[1]!;
    const fieldToColumn: Record<string, string> = {};
    const t: Table = { columns: {}, primaryKey: [], indexes: {} };
    for (const line of body.split("\n").map((l) => l.trim())) {
      const f = /^(\w+)\s+(\w+)(\[\]|\?)?\s*(.*)$/.exec(line);
      if (!f || line.startsWith("@@")) continue;
      const [, name, type, modifier, attrs] = f as unknown as [string, string, string, string | undefined, string];
      const column = /@map\("([^"]+)"\)/.exec(attrs)?.[1] ?? name;
      fieldToColumn[name] = column;
      const native = /@db\.(\w+)/.exec(attrs)?.[1];
      const base: Record<string, string> = {
        String: "text",
        Int: "integer",
        BigInt: "bigint",
        Boolean: "boolean",
        Json: "jsonb",
        Bytes: "bytea",
        DateTime: native === "Timestamptz" ? "timestamptz" : "timestamp",
      };
      const scalar = enums[type] ? `enum:${type}` : base[type];
      if (!scalar) throw new Error(`schema test: unsupported type ${type}`);
      const dflt = /@default\(([^)]*\)?)\)/.exec(attrs)?.[1];
      t.columns[column] = {
        type: modifier === "[]" ? `${scalar}[]` : scalar,
        nullable: modifier === "?" || modifier === "[]",
        hasDefault: dflt !== undefined && !/^(uuid|cuid|nanoid|ulid)\(/.test(dflt),
      };
      if (/@id\b/.test(attrs)) t.primaryKey = [column];
      if (/@unique\b/.test(attrs)) t.indexes[`${table}_${column}_key`] = [column];
    }
    const compositeId = /@@id\(\[([^\]]+)\]\)/.exec(body);
    if (compositeId) t.primaryKey = compositeId[1]!.split(",").map((s) => fieldToColumn[s.trim()]!);
    for (const idx of body.matchAll(/@@index\(\[([^\]]+)\]\)/g)) {
      const cols = idx[1]!.split(",").map((s) => fieldToColumn[s.trim()]!);
      t.indexes[`${table}_${cols.join("_")}_idx`] = cols;
    }
    for (const idx of body.matchAll(/@@unique\(\[([^\]]+)\]\)/g)) {
      const cols = idx[1]!.split(",").map((s) => fieldToColumn[s.trim()]!);
      t.indexes[`${table}_${cols.join("_")}_key`] = cols;
    }
    tables[table] = t;
  }
  return { tables, enums };
}

async function readDatabase(url: string): Promise<{ tables: Record<string, Table>; enums: Record<string, string[]> }> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const cols = await c.query<{
      table_name: string;
      column_name: string;
      data_type: string;
      udt_name: string;
      is_nullable: string;
      column_default: string | null;
    }>(
      `SELECT table_name, column_name, data_type, udt_name, is_nullable, column_default
         FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> '_console_migrations'`,
    );
    const enumRows = await c.query<{ typname: string; enumlabel: string }>(
      `SELECT t.typname, e.enumlabel FROM pg_enum e JOIN pg_type t ON t.oid = e.enumtypid ORDER BY t.typname, ` +
        `e.enumsortorder`,
    );
    const enums: Record<string, string[]> = {};
    for (const r of enumRows.rows) (enums[r.typname] ??= []).push(r.enumlabel);
    const typeOf = (r: { data_type: string; udt_name: string }): string => {
      const map: Record<string, string> = {
        text: "text",
        int4: "integer",
        int8: "bigint",
        bool: "boolean",
        jsonb: "jsonb",
        timestamptz: "timestamptz",
        timestamp: "timestamp",
      };
      if (r.data_type === "ARRAY") return `${typeOf({ data_type: "", udt_name: r.udt_name.slice(1) })}[]`;
      if (enums[r.udt_name]) return `enum:${r.udt_name}`;
      return map[r.udt_name] ?? r.udt_name;
    };
    const tables: Record<string, Table> = {};
    for (const r of cols.rows) {
      const t = (tables[r.table_name] ??= { columns: {}, primaryKey: [], indexes: {} });
      t.columns[r.column_name] = {
        type: typeOf(r),
        nullable: r.is_nullable === "YES",
        hasDefault: r.column_default !== null,
      };
    }
    const idx = await c.query<{ table: string; index: string; primary: boolean; columns: string[] }>(
      `SELECT tc.relname AS table, ic.relname AS index, i.indisprimary AS primary,
              array_agg(a.attname ORDER BY k.ord)::text[] AS columns
         FROM pg_index i
         JOIN pg_class ic ON ic.oid = i.indexrelid
         JOIN pg_class tc ON tc.oid = i.indrelid
         JOIN pg_namespace n ON n.oid = tc.relnamespace AND n.nspname = 'public'
         CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
         JOIN pg_attribute a ON a.attrelid = tc.oid AND a.attnum = k.attnum
        WHERE tc.relname <> '_console_migrations'
        GROUP BY tc.relname, ic.relname, i.indisprimary`,
    );
    for (const r of idx.rows) {
      const t = tables[r.table]!;
      if (r.primary) {
        expect(r.index).toBe(`${r.table}_pkey`);
        t.primaryKey = r.columns;
      } else t.indexes[r.index] = r.columns;
    }
    return { tables, enums };
  } finally {
    await c.end();
  }
}

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase("schema");
  await migrate(db.url);
});
afterAll(async () => {
  await db.drop();
});

describe("migrations match prisma/schema.prisma", () => {
  it(
    "has the tables, columns, types, nullability, defaults, keys, indexes and enums of the Prisma " + "schema",
    async () => {
      const expected = parseSchema(
        readFileSync(path.resolve(import.meta.dirname, "../../prisma/schema.prisma"), "utf8"),
      );
      expect(Object.keys(expected.tables).length).toBeGreaterThanOrEqual(3);
      const actual = await readDatabase(db.url);
      expect(actual).toEqual(expected);
    },
  );
});
