/**
 * Delegation tokens (KIP-48, KIP-373) and self-service token requests: the form and JSON
 * shapes shared by the Tokens and Token requests pages, their server actions and
 * /api/v1/tokens*, /api/v1/token-requests*.
 *
 * Only shapes are checked here. Whether the caller may create for an owner, renew or
 * expire is Kafka's decision (its refusal names the missing permission). The HMAC is a
 * secret: it appears only in the one-time create/retrieve answers and in the renew/expire
 * inputs, never in a list.
 */
import { z } from "zod";

const PRINCIPAL = /^[^:\s]+:\S.*$/;
const principal = z
  .string()
  .trim()
  .max(1000, "At most 1000 characters")
  .regex(PRINCIPAL, "Write a principal as Type:name, e.g. User:svc-orders");

/** "User:a, User:b" (or one per line) -> ["User:a", "User:b"], duplicates dropped. */
export function splitRenewers(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[,\n]/)
        .map((s) => s.trim())
        .filter((s) => s.length > 0),
    ),
  ];
}

export const LIFETIME_UNITS = ["hours", "days"] as const;
export type LifetimeUnit = (typeof LIFETIME_UNITS)[number];
const HOUR_MS = 3_600_000;
export const UNIT_MS: Record<LifetimeUnit, number> = { hours: HOUR_MS, days: 24 * HOUR_MS };

/**
 * The longest lifetime the console passes on: Kafka takes it as a Java long of
 * milliseconds (and caps it at delegation.token.max.lifetime.ms); the largest whole
 * number of milliseconds JavaScript holds exactly (about 285,000 years) is well inside that.
 */
export const MAX_LIFETIME_MS = Number.MAX_SAFE_INTEGER;
const MAX_LIFETIME_TEXT =
  `at most ${MAX_LIFETIME_MS} ms (about 285,000 years); Kafka caps it at ` + `delegation.token.max.lifetime.ms anyway`;

/**
 * A form lifetime (number + unit) -> whole milliseconds, or the field error: the number must
 * be finite and positive, and the milliseconds at least 1 and within MAX_LIFETIME_MS.
 */
export function lifetimeMsFromForm(
  text: string,
  unit: LifetimeUnit,
): { ok: true; ms: number } | { ok: false; message: string } {
  const n = /^\s*[+]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isFinite(n) || n <= 0)
    return { ok: false, message: "Enter a positive number, or leave it empty for the broker's default" };
  const ms = Math.round(n * UNIT_MS[unit]);
  if (!Number.isFinite(ms) || ms > MAX_LIFETIME_MS) {
    const most = Math.floor(MAX_LIFETIME_MS / UNIT_MS[unit]).toLocaleString("en-US");
    return {
      ok: false,
      message: `Too long: at most ${most} ${unit} (Kafka caps the lifetime at delegation.token.max.lifetime.ms anyway)`,
    };
  }
  if (ms < 1) return { ok: false, message: `Too short: at least 1 millisecond` };
  return { ok: true, ms };
}

const renewersSchema = z
  .array(principal)
  .max(100, "At most 100 renewers")
  .default([])
  .meta({ description: "Principals (User:name) who may renew or expire the token besides its owner" });
const maxLifetimeMsSchema = z
  .number({ error: "A number of milliseconds, or null for the broker's delegation.token.max.lifetime.ms" })
  .min(1, "A positive number of milliseconds, or null for the broker's delegation.token.max.lifetime.ms")
  .max(MAX_LIFETIME_MS, `Too long: ${MAX_LIFETIME_TEXT}`)
  .refine(Number.isInteger, "Whole milliseconds")
  .nullable()
  .default(null)
  .meta({
    description:
      "Requested max lifetime in ms (capped by delegation.token.max.lifetime.ms); null = the broker's default",
  });

/** POST /api/v1/tokens */
export const tokenCreateSchema = z.object({
  owner: principal.nullable().default(null).meta({ description: "Owner principal (KIP-373); null = the caller" }),
  renewers: renewersSchema,
  maxLifetimeMs: maxLifetimeMsSchema,
});
export type TokenCreateInput = z.output<typeof tokenCreateSchema>;

const optionalText = z.string().trim().default("");

/** The create form's fields (strings), turned into a TokenCreateInput. */
export const tokenCreateFormSchema = z
  .object({
    owner: optionalText,
    renewers: optionalText,
    maxLifetime: optionalText,
    maxLifetimeUnit: z.enum(LIFETIME_UNITS).default("days"),
  })
  .transform((v, ctx) => {
    const renewers = splitRenewers(v.renewers);
    for (const r of renewers) {
      if (!PRINCIPAL.test(r))
        ctx.addIssue({ code: "custom", path: ["renewers"], message: `"${r}" is not Type:name, e.g. User:bob` });
    }
    if (v.owner !== "" && !PRINCIPAL.test(v.owner))
      ctx.addIssue({ code: "custom", path: ["owner"], message: "Write the owner as Type:name, e.g. User:svc-orders" });
    let maxLifetimeMs: number | null = null;
    if (v.maxLifetime !== "") {
      const lifetime = lifetimeMsFromForm(v.maxLifetime, v.maxLifetimeUnit);
      if (lifetime.ok) maxLifetimeMs = lifetime.ms;
      else ctx.addIssue({ code: "custom", path: ["maxLifetime"], message: lifetime.message });
    }
    return { owner: v.owner === "" ? null : v.owner, renewers, maxLifetimeMs };
  });

const hmacSchema = z
  .string()
  .trim()
  .min(1, "Paste the token's HMAC (shown once when it was created)")
  .max(4096, "Too long for an HMAC")
  .regex(/^[A-Za-z0-9+/]+={0,2}$/, "The HMAC is Base64 (as shown when the token was created)")
  .meta({ description: "The token's HMAC, standard Base64 as shown at creation" });

const hoursSchema = z.coerce
  .number({ error: "Enter a number of hours" })
  .positive("Enter a positive number of hours")
  .max(24 * 365 * 100, "Too long");

/** POST /api/v1/tokens/renew (and the renew form). */
export const tokenRenewSchema = z.object({
  tokenId: z
    .string()
    .trim()
    .max(200)
    .default("")
    .meta({ description: "The token id, to check the HMAC against and for the audit trail (optional)" }),
  hmac: hmacSchema,
  periodHours: hoursSchema.default(24).meta({
    description: "Renew for this many hours (capped by delegation.token.expiry.time.ms and the max timestamp)",
  }),
});
export type TokenRenewInput = z.output<typeof tokenRenewSchema>;

/** POST /api/v1/tokens/expire (and the expire form): now, or in N hours. */
export const tokenExpireSchema = z
  .object({
    tokenId: z
      .string()
      .trim()
      .max(200)
      .default("")
      .meta({ description: "The token id, to check the HMAC against and for the audit trail (optional)" }),
    hmac: hmacSchema,
    when: z
      .enum(["now", "in"])
      .default("now")
      .meta({ description: "now: remove the token at once; in: set its expiry to now + hours" }),
    hours: z
      .union([z.literal(""), hoursSchema])
      .optional()
      .meta({ description: "With when=in: hours from now" }),
  })
  .superRefine((v, ctx) => {
    if (v.when === "in" && (v.hours === undefined || v.hours === ""))
      ctx.addIssue({ code: "custom", path: ["hours"], message: "Enter in how many hours it should expire" });
  })
  .transform((v) => ({
    tokenId: v.tokenId,
    hmac: v.hmac,
    periodMs: v.when === "now" ? -1 : Math.round(Number(v.hours) * HOUR_MS),
  }));
export type TokenExpireInput = z.output<typeof tokenExpireSchema>;

export const TOKEN_STATUSES = ["active", "expired"] as const;
export type TokenStatus = (typeof TOKEN_STATUSES)[number];

/** A token as listed: never its HMAC. */
export const tokenViewSchema = z.object({
  tokenId: z.string(),
  owner: z.string(),
  requester: z.string(),
  renewers: z.array(z.string()),
  issueTimestamp: z.number(),
  expiryTimestamp: z.number(),
  maxTimestamp: z.number(),
  status: z.enum(TOKEN_STATUSES),
  mayRenew: z
    .boolean()
    .meta({ description: "The caller is the owner or a renewer (Kafka's rule for renew and expire)" }),
});
export type TokenView = z.output<typeof tokenViewSchema>;

export const tokenListSchema = z.object({ tokens: z.array(tokenViewSchema), now: z.number() });
export type TokenList = z.output<typeof tokenListSchema>;

/** The one answer that carries a new token's HMAC: shown once, stored nowhere. */
export const tokenCreatedSchema = z.object({
  token: tokenViewSchema,
  hmac: z.string().meta({ description: "Base64 HMAC: the token's password. Shown only in this answer" }),
});
export type TokenCreated = z.output<typeof tokenCreatedSchema>;

export const tokenExpiryResultSchema = z.object({
  tokenId: z.string().nullable(),
  expiryTimestamp: z.number().nullable().meta({ description: "The new expiry; null when the token was removed" }),
  message: z.string(),
});
export type TokenExpiryResult = z.output<typeof tokenExpiryResultSchema>;

// ---- self-service token requests ------------------------------------------------

/** POST /api/v1/token-requests */
export const tokenRequestCreateSchema = z.object({
  owner: principal.meta({ description: "The principal the token is for, e.g. User:svc-orders" }),
  renewers: renewersSchema,
  maxLifetimeMs: maxLifetimeMsSchema,
  reason: z.string().trim().min(1, "Say why you need the token").max(2000, "At most 2000 characters"),
});
export type TokenRequestCreateInput = z.output<typeof tokenRequestCreateSchema>;

export const tokenRequestFormSchema = z
  .object({
    owner: z.string().trim(),
    renewers: optionalText,
    maxLifetime: optionalText,
    maxLifetimeUnit: z.enum(LIFETIME_UNITS).default("days"),
    reason: z.string(),
  })
  .transform((v, ctx) => {
    const base = tokenCreateFormSchema.safeParse({
      owner: v.owner,
      renewers: v.renewers,
      maxLifetime: v.maxLifetime,
      maxLifetimeUnit: v.maxLifetimeUnit,
    });
    if (!base.success)
      for (const issue of base.error.issues) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
    return {
      owner: v.owner,
      renewers: base.success ? base.data.renewers : [],
      maxLifetimeMs: base.success ? base.data.maxLifetimeMs : null,
      reason: v.reason,
    };
  })
  .pipe(tokenRequestCreateSchema.required());

export const tokenRequestDenySchema = z.object({
  reason: z.string().trim().min(1, "Give the requester a reason").max(2000, "At most 2000 characters"),
});

export const TOKEN_REQUEST_STATUSES = [
  "PENDING",
  "APPROVING",
  "APPROVED",
  "DENIED",
  "RETRIEVED",
  "EXPIRED_UNRETRIEVED",
] as const;

export const ENTITLEMENTS = [
  "owner",
  "superUser",
  "acl",
  "createdBefore",
  "notEntitled",
  "unknown",
  "ownRequest",
] as const;
export type Entitlement = (typeof ENTITLEMENTS)[number];

export const tokenRequestViewSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  requester: z.string(),
  owner: z.string(),
  renewers: z.array(z.string()),
  maxLifetimeMs: z.number().nullable(),
  reason: z.string(),
  status: z.enum(TOKEN_REQUEST_STATUSES),
  approver: z.string().nullable(),
  decidedAt: z.string().nullable(),
  decisionReason: z.string().nullable(),
  tokenId: z.string().nullable(),
  hmacDeadline: z.string().nullable(),
  retrievable: z.boolean(),
  claimedBy: z.string().nullable().meta({ description: "While APPROVING: the approver whose approval is under way" }),
  claimedAt: z.string().nullable(),
});
export type TokenRequestView = z.output<typeof tokenRequestViewSchema>;

export const decidableRequestSchema = tokenRequestViewSchema.extend({
  entitlement: z
    .enum(ENTITLEMENTS)
    .meta({ description: "Whether the caller appears entitled to approve (Kafka decides at approval)" }),
  entitlementNote: z.string(),
});
export type DecidableRequest = z.output<typeof decidableRequestSchema>;

/**
 * Who read the ACLs that say which open requests the caller may decide: the caller; the
 * console's service principal (the caller cannot describe ACLs); or nobody, and why.
 */
export const approverCheckSchema = z
  .discriminatedUnion("by", [
    z.object({ by: z.literal("you") }),
    z.object({ by: z.literal("servicePrincipal"), principal: z.string() }),
    z.object({ by: z.literal("nobody"), reason: z.string() }),
  ])
  .meta({
    description:
      "Who read the ACLs the entitlements are judged from: you, the console's service principal, or nobody " +
      "(with the reason)",
  });
export type ApproverCheck = z.output<typeof approverCheckSchema>;

export const tokenRequestListsSchema = z.object({
  mine: z.array(tokenRequestViewSchema),
  pending: z.array(decidableRequestSchema),
  aclsReadable: z
    .boolean()
    .meta({ description: "Whether Kafka let the caller read the USER-resource ACLs the entitlement is judged from" }),
  approverCheck: approverCheckSchema,
  now: z.number(),
});
export type TokenRequestLists = z.output<typeof tokenRequestListsSchema>;

export const tokenRetrievedSchema = z.object({ requestId: z.string(), tokenId: z.string(), hmac: z.string() });
export type TokenRetrieved = z.output<typeof tokenRetrievedSchema>;
