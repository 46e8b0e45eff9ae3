/**
 * Client quotas: the "which quota applies" question (page GET form, GET /api/v1/quotas/applied),
 * the alteration (edit form, POST /api/v1/quotas) and the shapes the services answer with.
 *
 * Input schemas check only the shape. Whether Kafka accepts a value (> 0, integral byte rates,
 * the key belongs to the entity kind, no empty names) is decided by the policy core's copy of
 * Kafka's own validation (validateQuotaAlteration), so the user sees Kafka's message, not ours.
 */
import { z } from "zod";
import { CLIENT_QUOTA_KEYS, QUOTA_KEYS, canonicalIp } from "@/lib/policy";
import { safeString } from "./safe-text";

// Every text field refuses NUL, control characters and lone surrogates (safe-text.ts).
const trimmed = (max: number) => safeString().trim().max(max, `At most ${max} characters`);

/** The query parameters as given (for the OpenAPI document); parse with appliedQuotaQuerySchema. */
export const appliedQuotaQueryFieldsSchema = z.object({
  user: trimmed(1000)
    .default("")
    .meta({ description: "The principal name the client authenticates as (alice, not User:alice)" }),
  clientId: safeString()
    .max(1000, "At most 1000 characters")
    .default("")
    .meta({ description: "The client.id the client sends (may be empty)" }),
  ip: trimmed(100)
    .default("")
    .meta({ description: "Instead of user/clientId: a client IP address, for the connection-creation-rate quota" }),
});

/** Either an IP, or a user (with an optional client id). The IP is written as Kafka compares it. */
export const appliedQuotaQuerySchema = appliedQuotaQueryFieldsSchema
  .superRefine((v, ctx) => {
    if (v.ip !== "") {
      if (canonicalIp(v.ip) === null)
        ctx.addIssue({ code: "custom", path: ["ip"], message: "Enter an IP address, e.g. 203.0.113.10" });
      if (v.user !== "")
        ctx.addIssue({ code: "custom", path: ["user"], message: "Ask for a user or for an IP, not both" });
    } else if (v.user === "") {
      ctx.addIssue({
        code: "custom",
        path: ["user"],
        message: "Enter a user name (e.g. svc-orders), or an IP address",
      });
    }
  })
  .transform((v) =>
    v.ip !== ""
      ? ({ kind: "ip", ip: canonicalIp(v.ip) ?? v.ip } as const)
      : ({ kind: "client", user: v.user, clientId: v.clientId } as const),
  );
export type AppliedQuotaQuery = z.output<typeof appliedQuotaQuerySchema>;

/** One part of an entity: a name, or null for `<default>`; absent = not part of the entity. */
const entityName = safeString().max(1000, "At most 1000 characters").nullable().optional();

export const quotaEntitySchema = z
  .object({
    user: entityName.meta({ description: "Principal name; null = <default> user" }),
    "client-id": entityName.meta({ description: "Client id; null = <default> client id" }),
    ip: entityName.meta({ description: "IP address; null = <default> IP" }),
  })
  .strict();

export const QUOTA_ENTITY_KINDS = ["user", "user+client-id", "client-id", "ip"] as const;
export type QuotaEntityKindChoice = (typeof QUOTA_ENTITY_KINDS)[number];

/** One key set (value) or removed (null) on one entity. `dryRun` answers with the preview only. */
export const quotaAlterationSchema = z.object({
  entity: quotaEntitySchema,
  key: z.enum(QUOTA_KEYS).meta({ description: "The quota key" }),
  value: z
    .number()
    .refine((n) => Number.isFinite(n), "Enter a finite number")
    .nullable()
    .meta({ description: "The new value; null removes the key" }),
  dryRun: z
    .boolean()
    .default(false)
    .meta({ description: "Only preview: Kafka's validation, the KIP-55 budget and before/after" }),
});
export type QuotaAlterationInput = z.output<typeof quotaAlterationSchema>;

/** The edit form's fields, as FormData gives them. */
export const quotaAlterFormSchema = z
  .object({
    kind: z.enum(QUOTA_ENTITY_KINDS, { message: "Choose what the quota is for" }),
    user: safeString().trim().max(1000).default(""),
    userDefault: z.string().optional(),
    clientId: safeString().max(1000).default(""),
    clientIdDefault: z.string().optional(),
    ip: safeString().trim().max(100).default(""),
    ipDefault: z.string().optional(),
    key: z.enum(QUOTA_KEYS, { message: "Choose a quota key" }),
    value: z.string().trim().default(""),
    remove: z.string().optional(),
    intent: z.enum(["preview", "apply"]).default("preview"),
  })
  .superRefine((v, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    const needsUser = v.kind === "user" || v.kind === "user+client-id";
    const needsClient = v.kind === "client-id" || v.kind === "user+client-id";
    if (needsUser && !v.userDefault && v.user === "") issue("user", "Enter a user name, or tick <default>");
    if (needsClient && !v.clientIdDefault && v.clientId === "")
      issue("clientId", "Enter a client id, or tick <default>");
    if (v.kind === "ip" && !v.ipDefault && v.ip === "") issue("ip", "Enter an IP address, or tick <default>");
    if (!v.remove) {
      if (v.value === "") issue("value", "Enter a value, or tick remove");
      else if (!Number.isFinite(Number(v.value))) issue("value", "Enter a number");
    }
  })
  .transform((v): QuotaAlterationInput => ({
    entity: {
      ...(v.kind === "user" || v.kind === "user+client-id" ? { user: v.userDefault ? null : v.user } : {}),
      ...(v.kind === "client-id" || v.kind === "user+client-id"
        ? { "client-id": v.clientIdDefault ? null : v.clientId }
        : {}),
      ...(v.kind === "ip" ? { ip: v.ipDefault ? null : v.ip } : {}),
    },
    key: v.key,
    value: v.remove ? null : Number(v.value),
    dryRun: v.intent !== "apply",
  }));

// ---- answers ---------------------------------------------------------------------

const entityOut = z.object({
  user: z.string().nullable().optional(),
  "client-id": z.string().nullable().optional(),
  ip: z.string().nullable().optional(),
});
const keyValue = z.object({ key: z.enum(QUOTA_KEYS), value: z.number(), display: z.string() });

export const QUOTA_GROUPS = ["user", "user+client-id", "client-id", "defaults", "ip"] as const;
export type QuotaGroup = (typeof QUOTA_GROUPS)[number];

const violation = z.object({
  user: z.string().nullable(),
  key: z.enum(CLIENT_QUOTA_KEYS),
  total: z.number().nullable(),
  sum: z.number(),
  clients: z.array(z.string()),
  message: z.string(),
});
const warning = z.object({
  user: z.string().nullable(),
  key: z.enum(CLIENT_QUOTA_KEYS),
  defaultClientQuota: z.number(),
  message: z.string(),
});

export const budgetLineSchema = z.object({
  key: z.enum(CLIENT_QUOTA_KEYS),
  total: z.number().nullable(),
  totalSource: z.enum(["user", "default"]).nullable(),
  totalDisplay: z.string(),
  sum: z.number(),
  sumDisplay: z.string(),
  remaining: z.number().nullable(),
  remainingDisplay: z.string(),
  /** sum / total in percent (may exceed 100); null when unlimited. */
  usedPercent: z.number().nullable(),
  clients: z.array(z.object({ clientId: z.string(), value: z.number(), display: z.string() })),
  defaultClientQuota: z.number().nullable(),
  overBudget: z.boolean(),
});
export type BudgetLineView = z.infer<typeof budgetLineSchema>;

export const userBudgetSchema = z.object({
  user: z.string().nullable(),
  label: z.string(),
  lines: z.array(budgetLineSchema),
});
export type UserBudgetView = z.infer<typeof userBudgetSchema>;

export const quotasOverviewSchema = z.object({
  groups: z.array(
    z.object({
      group: z.enum(QUOTA_GROUPS),
      title: z.string(),
      entities: z.array(z.object({ entity: entityOut, label: z.string(), values: z.array(keyValue) })),
    }),
  ),
  budgets: z.array(userBudgetSchema),
  findings: z.object({ violations: z.array(violation), warnings: z.array(warning), rule: z.string() }),
});
export type QuotasOverview = z.infer<typeof quotasOverviewSchema>;
export type BudgetViolationView = QuotasOverview["findings"]["violations"][number];

const appliedKey = z.object({
  key: z.string(),
  value: z.number().nullable(),
  display: z.string(),
  level: z.number().nullable(),
  levelLabel: z.string().nullable(),
  levelMeaning: z.string(),
  entity: entityOut.nullable(),
  entityLabel: z.string().nullable(),
  bucket: z.object({ user: z.string(), "client-id": z.string() }).nullable(),
  sharedWith: z.string(),
});
export type AppliedKeyView = z.infer<typeof appliedKey>;

export const appliedQuotaSchema = z.object({
  query: z.union([
    z.object({ kind: z.literal("client"), user: z.string(), clientId: z.string() }),
    z.object({ kind: z.literal("ip"), ip: z.string() }),
  ]),
  keys: z.array(appliedKey),
  budget: userBudgetSchema.nullable(),
});
export type AppliedQuotaView = z.infer<typeof appliedQuotaSchema>;

export const quotaPreviewSchema = z.object({
  entity: entityOut,
  entityLabel: z.string(),
  key: z.enum(QUOTA_KEYS),
  value: z.number().nullable(),
  current: z.number().nullable(),
  /** Kafka's own validation (AlterClientQuotas), with Kafka's message. */
  kafka: z.object({ ok: z.boolean(), message: z.string().nullable() }),
  /** The console's KIP-55 rule. */
  budget: z.object({
    ok: z.boolean(),
    violations: z.array(violation),
    repairs: z.array(violation),
    warnings: z.array(warning),
  }),
  /** The quota Kafka applies, for a connection of the affected entity, before and after. */
  connection: z.string(),
  before: z.array(appliedKey),
  after: z.array(appliedKey),
  allowed: z.boolean(),
  summary: z.string(),
});
export type QuotaPreview = z.infer<typeof quotaPreviewSchema>;

export const quotaAlterResultSchema = z.object({
  applied: z.boolean(),
  preview: quotaPreviewSchema,
  message: z.string(),
});
export type QuotaAlterResult = z.infer<typeof quotaAlterResultSchema>;

// ---- quota plans (lib/services/quota-plans.ts, kind quota.alter) ---------------------

const appliedLevel = z.object({
  value: z.number().nullable().meta({ description: "The limit Kafka applies; null = unlimited" }),
  display: z.string(),
  level: z
    .number()
    .nullable()
    .meta({ description: "1-8, the level that decided (client quotas); null when unlimited or for IPs" }),
  levelLabel: z.string().nullable(),
  entityLabel: z.string().nullable().meta({ description: "The configured entity that decided, e.g. user=svc-orders" }),
});
export type QuotaAppliedLevelView = z.infer<typeof appliedLevel>;

const pairBudget = z.object({
  user: z.string().nullable().meta({ description: "The user entity whose KIP-55 budget this is; null = <default>" }),
  total: z.number().nullable(),
  totalDisplay: z.string(),
  sum: z.number(),
  sumDisplay: z.string(),
  remaining: z.number().nullable(),
  remainingDisplay: z.string(),
  overBudget: z.boolean(),
});
export type QuotaPairBudgetView = z.infer<typeof pairBudget>;

const pairImpact = z.object({
  user: z.string().nullable().meta({ description: "The user; null = any user no quota entity names" }),
  userLabel: z.string(),
  clientId: z.string().nullable().meta({ description: "The client id; null = any client id no quota entity names" }),
  clientLabel: z.string(),
  changed: z.boolean().meta({ description: "The quota Kafka applies to this pair changes (value, level or entity)" }),
  budgetChanged: z.boolean().meta({ description: "The KIP-55 budget of the pair's user changes" }),
  before: appliedLevel,
  after: appliedLevel,
  budgetBefore: pairBudget,
  budgetAfter: pairBudget,
});
export type QuotaPairImpact = z.infer<typeof pairImpact>;

export const quotaImpactSchema = z.object({
  key: z.enum(QUOTA_KEYS),
  pairs: z
    .array(pairImpact)
    .meta({ description: "Every (user, client-id) pair the console knows that the change reaches: changed first" }),
  ips: z
    .array(
      z.object({
        ip: z.string().nullable(),
        label: z.string(),
        changed: z.boolean(),
        before: appliedLevel,
        after: appliedLevel,
      }),
    )
    .meta({
      description:
        "For connection_creation_rate: each IP the console knows that the change reaches (null = any other IP)",
    }),
  truncated: z.boolean().meta({
    description: "Too many named users x client ids: only configured sub-quota pairs and the stand-ins are listed",
  }),
  counts: z.object({ affected: z.number(), changed: z.number(), budgetChanged: z.number() }),
});
export type QuotaImpactView = z.infer<typeof quotaImpactSchema>;

export const quotaPlanPreviewSchema = quotaPreviewSchema.extend({
  impact: quotaImpactSchema,
  cli: z
    .array(z.object({ command: z.string(), warning: z.string().optional() }))
    .meta({ description: "The kafka-configs.sh command making the same change" }),
});
export type QuotaPlanPreview = z.infer<typeof quotaPlanPreviewSchema>;

/** POST /api/v1/plans with kind quota.alter: exactly one key of one entity (the plan's payload). */
export const quotaAlterPlanBodySchema = z.object({
  kind: z.literal("quota.alter"),
  entity: quotaEntitySchema,
  key: quotaAlterationSchema.shape.key,
  value: quotaAlterationSchema.shape.value,
});
