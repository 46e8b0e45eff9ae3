/**
 * ACLs as code: the export's query (GET /api/v1/acls/export), the import's body
 * (POST /api/v1/plans with kind acl.import) and form (the /acls/import page), where an
 * import plan came from, and its apply progress (GET /api/v1/acls/import/{id}/progress).
 * The import plan as shown is an ACL plan plus `import` (lib/schemas/plans.ts).
 *
 * The file itself is parsed by lib/services/acl-io.ts (its line-numbered messages become
 * a field error on `content`).
 */
import { z } from "zod";
import { safeString } from "./safe-text";

export const ACL_EXPORT_FORMATS = ["json", "csv", "yaml"] as const;
export const ACL_IMPORT_FORMATS = ["auto", "json", "csv", "yaml"] as const;
export const ACL_IMPORT_MODES = ["add-only", "sync"] as const;
export type AclImportMode = (typeof ACL_IMPORT_MODES)[number];

export const aclExportQuerySchema = z.object({
  format: z
    .enum(ACL_EXPORT_FORMATS, { message: "format is json, csv or yaml" })
    .default("json")
    .meta({ description: "json (default), csv, or yaml grouped by principal" }),
});

const principalList = z
  .array(safeString().trim().min(1, "An empty principal").max(1000))
  .max(1000, "At most 1000 principals");

export const aclImportScopeSchema = z
  .object({
    principals: principalList
      .default([])
      .meta({ description: "Sync manages only bindings of these principals (exact strings, e.g. User:svc-orders)" }),
    resourcePrefix: safeString()
      .max(1000)
      .default("")
      .meta({ description: "Sync manages only bindings whose resource name starts with this" }),
  })
  .meta({ description: "With mode sync: the part of the ACL set the file describes. Both given: both must hold." });

/** A desired-state file, previewed as a plan of kind acl.import. */
export const aclImportBodySchema = z.object({
  content: safeString().meta({ description: "The file's text: JSON, CSV or YAML as the export writes them" }),
  format: z
    .enum(ACL_IMPORT_FORMATS)
    .default("auto")
    .meta({ description: "auto (default: by fileName, else by content), json, csv or yaml" }),
  fileName: safeString()
    .max(300)
    .nullable()
    .default(null)
    .meta({ description: "The file's name, to tell its format (optional)" }),
  mode: z.enum(ACL_IMPORT_MODES).default("add-only").meta({
    description:
      "add-only: create what the file has and Kafka lacks; sync: also delete, inside scope, what the file lacks",
  }),
  scope: aclImportScopeSchema.default({ principals: [], resourcePrefix: "" }),
});
export type AclImportBody = z.output<typeof aclImportBodySchema>;

/** Principals as typed in the form: separated by commas, semicolons or lines. */
export function splitPrincipals(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[,;\n]/)
        .map((s) => s.trim())
        .filter((s) => s.length > 0),
    ),
  ];
}

/** The import page's fields (FormData: the uploaded file is read into `content` by the action). */
export const aclImportFormSchema = z
  .object({
    content: z.string().default(""),
    format: z.enum(ACL_IMPORT_FORMATS).default("auto"),
    fileName: z.string().default(""),
    mode: z.enum(ACL_IMPORT_MODES, { message: "Choose add only or sync" }).default("add-only"),
    principals: safeString().max(100_000).default(""),
    resourcePrefix: safeString().max(1000).default(""),
  })
  .transform((v): AclImportBody => ({
    content: v.content,
    format: v.format,
    fileName: v.fileName === "" ? null : v.fileName,
    mode: v.mode,
    scope: { principals: splitPrincipals(v.principals), resourcePrefix: v.resourcePrefix },
  }));

export const aclImportSourceSchema = z.object({
  format: z.enum(ACL_EXPORT_FORMATS).meta({ description: "The format the file was read as" }),
  fileName: z.string().nullable(),
  bindings: z.number().meta({ description: "Bindings in the file (duplicates included)" }),
  mode: z.enum(ACL_IMPORT_MODES),
  scope: z
    .object({ principals: z.array(z.string()), resourcePrefix: z.string() })
    .nullable()
    .meta({ description: "The sync scope; null for add-only" }),
  inScope: z.number().nullable().meta({ description: "Current ACLs inside the scope (sync), null for add-only" }),
});
export type AclImportSource = z.infer<typeof aclImportSourceSchema>;

/** GET /api/v1/acls/import/{id}/progress: how far Apply has come, from the audit trail (one event per batch). */
export const aclImportProgressSchema = z.object({
  planId: z.string(),
  status: z
    .enum(["OPEN", "APPLYING", "APPLIED", "FAILED", "EXPIRED"])
    .meta({ description: "The plan's status: APPLYING while batches are sent" }),
  total: z.number().meta({ description: "Bindings the plan creates and deletes" }),
  batches: z.object({
    total: z.number().meta({ description: "Kafka requests Apply makes at most (deletes first, then creates)" }),
    done: z.number().meta({ description: "Batches whose outcome is recorded" }),
    inFlight: z.number().meta({ description: "Batches sent whose outcome is not recorded yet" }),
  }),
  sent: z.number().meta({ description: "Bindings in batches whose outcome is recorded" }),
  succeeded: z.number().meta({ description: "Bindings Kafka confirmed" }),
  failed: z.number().meta({ description: "Bindings Kafka refused or whose batch failed" }),
});
export type AclImportProgress = z.infer<typeof aclImportProgressSchema>;
