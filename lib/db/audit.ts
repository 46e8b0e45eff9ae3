/**
 * The audit trail: the one writer every mutation (and sign-in/out) goes through, the
 * paged reader behind the Audit page and GET /api/v1/audit, and the CSV export.
 *
 * Secrets never reach the table: request/before/after are passed through redactSecrets
 * first, which replaces the value of any key that names a secret (password, hmac,
 * secret, credential, token value, sasl.jaas.config, …; case, '_', '-' and '.'
 * ignored) with "[redacted]", at any depth, including Kafka config entries given as
 * { name: "sasl.jaas.config", value: "…" }, and password="…" assignments inside any
 * string value (a JAAS config pasted under another key). Buffers and typed arrays become
 * "[binary N bytes]", bigints become strings, Dates ISO strings.
 *
 * Listing is newest first, keyed on (at, id), with an opaque cursor for the next page.
 * CSV follows RFC 4180 (CRLF, quotes doubled, fields quoted when needed) and neutralises
 * spreadsheet formula injection: a cell starting with = + - @ (or tab / CR) gets a
 * leading apostrophe.
 */
import { getPrisma } from "./client";
import { Prisma } from "../generated/prisma/client";

/**
 * "pending": the intent was recorded and the outcome not yet (a change whose outcome is
 * unknown stays visible as such); "unknown": the call was made but its result could not
 * be learned (a timeout, a dead broker mid-call).
 */
export const AUDIT_OUTCOMES = ["success", "failure", "denied", "partial", "pending", "unknown"] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

export const AUDIT_CATEGORIES = ["acl", "quota", "token", "token-request", "scram", "session", "other"] as const;
export type AuditCategory = (typeof AUDIT_CATEGORIES)[number];

export interface AuditInput {
  /** The principal the console acted as (the signed-in user), e.g. User:alice. */
  principal: string;
  /** Dotted verb, e.g. acl.create, quota.alter, token.request.approve, session.sign-in. */
  action: string;
  /** What was acted on, human-readable (e.g. TOPIC:orders LITERAL, user alice). */
  target: string;
  request?: unknown;
  before?: unknown;
  after?: unknown;
  outcome: AuditOutcome;
  kafkaError?: string | null;
  message?: string | null;
  /** Decides who may read the event (lib/services/audit-view.ts). Default "other". */
  category?: AuditCategory;
  /** Principals the event is about besides the actor (token owner, renewers, requester). */
  subjects?: string[];
  planId?: string | null;
  /** The cluster (lib/clusters.ts) the event happened on. Absent: the database's default, "default". */
  clusterId?: string;
}

/** What is known only once the change was attempted. */
export interface AuditCompletion {
  outcome: Exclude<AuditOutcome, "pending">;
  /** A more precise target, known only now (e.g. the id of the token that was created). */
  target?: string;
  before?: unknown;
  after?: unknown;
  kafkaError?: string | null;
  message?: string | null;
}

export interface AuditEvent {
  id: string;
  at: Date;
  principal: string;
  action: string;
  target: string;
  request: unknown;
  before: unknown;
  after: unknown;
  outcome: AuditOutcome;
  kafkaError: string | null;
  message: string | null;
  category: AuditCategory;
  subjects: string[];
  completedAt: Date | null;
  repeatCount: number;
  lastAt: Date | null;
  planId: string | null;
}

export interface AuditFilter {
  /** Only the events of this cluster (a viewer sees their session's cluster only). */
  clusterId?: string;
  principal?: string;
  action?: string;
  outcome?: AuditOutcome;
  category?: AuditCategory;
  from?: Date;
  to?: Date;
  /** Only the events of this plan (its apply, its break-glass and the review of it). */
  planId?: string;
  /**
   * Only plan.break-glass events whose plan has no after-the-fact review yet
   * (break_glass_review): what the dashboard flags, however old.
   */
  unreviewedBreakGlass?: boolean;
  /** 1..1000, default 100. */
  limit?: number;
  cursor?: string;
}

export const REDACTED = "[redacted]";

/** Normalised (lower case, letters and digits only) fragments of key names that hold secrets. */
const SECRET_KEY_FRAGMENTS = [
  "password",
  "passwd",
  "secret",
  "hmac",
  "credential",
  "tokenvalue",
  "privatekey",
  "apikey",
  "authorization",
  "sasljaasconfig",
  "keystorekey",
];

function normaliseKey(key: string): string {
  return key.toLowerCase().replace(/[^a-z0-9]/g, "");
}

export function isSecretKey(key: string): boolean {
  const k = normaliseKey(key);
  return SECRET_KEY_FRAGMENTS.some((f) => k.includes(f));
}

const INLINE_SECRET = /\b(password|passwd|secret|hmac)(\s*=\s*)("[^"]*"|'[^']*'|[^\s;,"']+)/gi;

/** Scrubs `password="…"`-style assignments inside strings (e.g. a JAAS config under an innocent key). */
export function redactInlineSecrets(text: string): string {
  return text.replace(INLINE_SECRET, (_m, key: string, eq: string) => `${key}${eq}"${REDACTED}"`);
}

const MAX_DEPTH = 32;

/** A deep copy of `value`, JSON-safe, with every secret-named key's value replaced by "[redacted]". */
export function redactSecrets(value: unknown): unknown {
  const seen = new WeakSet<object>();
  const walk = (v: unknown, depth: number): unknown => {
    if (v === null || v === undefined) return v ?? null;
    if (typeof v === "bigint") return v.toString();
    if (typeof v === "number") return Number.isFinite(v) ? v : String(v);
    if (typeof v === "string") return redactInlineSecrets(v);
    if (typeof v === "boolean") return v;
    if (typeof v === "function" || typeof v === "symbol") return undefined;
    if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
    if (ArrayBuffer.isView(v)) return `[binary ${v.byteLength} bytes]`;
    if (v instanceof ArrayBuffer) return `[binary ${v.byteLength} bytes]`;
    if (typeof v !== "object") return undefined;
    if (seen.has(v)) return "[circular]";
    if (depth >= MAX_DEPTH) return "[too deep]";
    seen.add(v);
    try {
      if (v instanceof Map) return walk(Object.fromEntries(v), depth);
      if (v instanceof Set) return walk([...v], depth);
      if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1) ?? null);
      const obj = v as Record<string, unknown>;
      // { name: "sasl.jaas.config", value: "…" } and { key: "…password", value: "…" } entries.
      const entryName = typeof obj.name === "string" ? obj.name : typeof obj.key === "string" ? obj.key : undefined;
      const entryIsSecret = entryName !== undefined && isSecretKey(entryName);
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(obj)) {
        if (x !== null && x !== undefined && (isSecretKey(k) || (entryIsSecret && k === "value"))) {
          out[k] = REDACTED;
          continue;
        }
        const w = walk(x, depth + 1);
        if (w !== undefined) out[k] = w;
      }
      return out;
    } finally {
      seen.delete(v);
    }
  };
  return walk(value, 0) ?? null;
}

// eslint-disable-next-line no-control-regex -- matching NUL is the point
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Text PostgreSQL can store: NUL (refused in text and jsonb) and lone surrogates (not
 * UTF-8) become visible escapes such as `\u0000`. Input is refused before a change
 * (lib/schemas/safe-text.ts); this keeps the write itself from failing on whatever else
 * reaches the trail (a message from Kafka, an echoed name).
 */
export function storableText(text: string): string {
  return text.replace(UNSTORABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function storableJson(value: unknown): unknown {
  if (typeof value === "string") return storableText(value);
  if (Array.isArray(value)) return value.map(storableJson);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [storableText(k), storableJson(v)]),
    );
  }
  return value;
}

const storableOrNull = (text: string | null | undefined) =>
  text === null || text === undefined ? null : storableText(text);

function toJson(value: unknown): Prisma.InputJsonValue | undefined {
  if (value === undefined) return undefined;
  const r = storableJson(redactSecrets(value));
  // null is stored as SQL NULL (the columns are nullable), not JSON null.
  return r === null ? undefined : r;
}

type Row = {
  id: bigint;
  at: Date;
  principal: string;
  action: string;
  target: string;
  request: unknown;
  before: unknown;
  after: unknown;
  outcome: string;
  kafkaError: string | null;
  message: string | null;
  category: string;
  subjects: string[] | null;
  completedAt: Date | null;
  repeatCount: number;
  lastAt: Date | null;
  planId: string | null;
};

function fromRow(r: Row): AuditEvent {
  return {
    id: r.id.toString(),
    at: r.at,
    principal: r.principal,
    action: r.action,
    target: r.target,
    request: r.request ?? null,
    before: r.before ?? null,
    after: r.after ?? null,
    outcome: r.outcome as AuditOutcome,
    kafkaError: r.kafkaError,
    message: r.message,
    category: r.category as AuditCategory,
    subjects: r.subjects ?? [],
    completedAt: r.completedAt,
    repeatCount: r.repeatCount,
    lastAt: r.lastAt,
    planId: r.planId,
  };
}

/** Writes one audit event (secrets redacted) and returns it as stored. Throws if it cannot be written. */
export async function recordAudit(input: AuditInput): Promise<AuditEvent> {
  const row = await getPrisma().auditEvent.create({ data: auditRowData(input) });
  return fromRow(row);
}

/**
 * The row recordAudit writes (secrets redacted), for a caller that writes it in a transaction of
 * its own beside another change (e.g. a grant ended and its expiry audited as one).
 */
export function auditRowData(input: AuditInput) {
  if (!(AUDIT_OUTCOMES as readonly string[]).includes(input.outcome)) {
    throw new TypeError(`audit outcome must be one of ${AUDIT_OUTCOMES.join(", ")}, got "${String(input.outcome)}"`);
  }
  return {
    principal: storableText(input.principal),
    action: storableText(input.action),
    target: storableText(input.target),
    request: toJson(input.request),
    before: toJson(input.before),
    after: toJson(input.after),
    outcome: input.outcome,
    kafkaError: storableOrNull(input.kafkaError),
    message: storableOrNull(input.message),
    category: input.category ?? "other",
    subjects: (input.subjects ?? []).map(storableText),
    planId: input.planId ?? null,
    ...(input.clusterId !== undefined ? { clusterId: input.clusterId } : {}),
    completedAt: input.outcome === "pending" ? null : new Date(),
  };
}

/**
 * Records the intent of a change before Kafka is asked (outcome "pending"). Throws when
 * the database cannot take it: the caller must then not make the change.
 */
export async function recordIntent(input: Omit<AuditInput, "outcome" | "after">): Promise<AuditEvent> {
  return recordAudit({ ...input, outcome: "pending" });
}

/** Records the outcome of a change whose intent was recorded. Throws if it cannot be written. */
export async function completeAudit(id: string, completion: AuditCompletion): Promise<AuditEvent> {
  if (
    !(AUDIT_OUTCOMES as readonly string[]).includes(completion.outcome) ||
    completion.outcome === ("pending" as string)
  ) {
    throw new TypeError(`audit completion outcome must be a final outcome, got "${String(completion.outcome)}"`);
  }
  const row = await getPrisma().auditEvent.update({
    where: { id: BigInt(id) },
    data: {
      outcome: completion.outcome,
      target: completion.target === undefined ? undefined : storableText(completion.target),
      before: toJson(completion.before),
      after: toJson(completion.after),
      kafkaError: storableOrNull(completion.kafkaError),
      message: storableOrNull(completion.message),
      completedAt: new Date(),
    },
  });
  return fromRow(row);
}

function encodeCursor(e: { at: Date; id: string }): string {
  return Buffer.from(`${e.at.toISOString()}|${e.id}`, "utf8").toString("base64url");
}

export class InvalidCursorError extends Error {
  override name = "InvalidCursorError";
}

function decodeCursor(cursor: string): { at: Date; id: bigint } {
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)\|(\d{1,19})$/.exec(text);
  if (!m) throw new InvalidCursorError("invalid audit cursor; start again from the first page");
  return { at: new Date(m[1]!), id: BigInt(m[2]!) };
}

/**
 * Events matching the filters, newest first; nextCursor is null on the last page.
 * Every row, whoever asks: a viewer's page goes through listVisibleAudit (lib/services/audit-view.ts).
 */
export async function listAudit(
  filter: AuditFilter = {},
): Promise<{ events: AuditEvent[]; nextCursor: string | null }> {
  return listVisibleAudit(EVERY_ROW, filter);
}

/**
 * Which rows one viewer may read, as lib/services/audit-view.ts decided it from Kafka;
 * listVisibleAudit turns it into SQL, so paging and cost follow the page.
 *
 * A row is visible when `all`, or, unless it is a sign-in failure (action session.sign-in*
 * or category session, outcome not success) and `signInFailures` is false, when any of:
 * the viewer is its principal; its category is in `categories`; its category is in
 * `asSubject` and the viewer is among its subjects; it is a token row (subjects [owner,
 * ...renewers]) whose owner is in `tokenOwners`; it is a token-request row (subjects
 * [requester, owner, ...renewers]) whose owner is in `tokenRequestOwners`.
 */
export interface AuditVisibility {
  all: boolean;
  principal: string;
  categories: readonly AuditCategory[];
  signInFailures: boolean;
  asSubject: readonly AuditCategory[];
  tokenOwners: readonly string[];
  tokenRequestOwners: readonly string[];
}

const EVERY_ROW: AuditVisibility = {
  all: true,
  principal: "",
  categories: [],
  signInFailures: true,
  asSubject: [],
  tokenOwners: [],
  tokenRequestOwners: [],
};

const SIGN_IN_FAILURE = Prisma.sql`((category = 'session' OR action LIKE 'session.sign-in%') AND outcome <> 'success')`;

function visibilitySql(v: AuditVisibility): Prisma.Sql {
  if (v.all) return Prisma.sql`TRUE`;
  const text = (xs: readonly string[]) => Prisma.sql`${[...xs]}::text[]`;
  const grants = Prisma.sql`(
    principal = ${v.principal}
    OR category = ANY(${text(v.categories)})
    OR (category = ANY(${text(v.asSubject)}) AND ${v.principal} = ANY(subjects))
    OR (category = 'token' AND subjects[1] = ANY(${text(v.tokenOwners)}))
    OR (category = 'token-request' AND subjects[2] = ANY(${text(v.tokenRequestOwners)}))
  )`;
  return v.signInFailures ? grants : Prisma.sql`(NOT ${SIGN_IN_FAILURE} AND ${grants})`;
}

/** The rows of `filter` that `visibility` lets the viewer read, newest first, paged by cursor. */
export async function listVisibleAudit(
  visibility: AuditVisibility,
  filter: AuditFilter = {},
): Promise<{ events: AuditEvent[]; nextCursor: string | null }> {
  const limit = Math.min(Math.max(Math.trunc(filter.limit ?? 100), 1), 1000);
  const where: Prisma.Sql[] = [visibilitySql(visibility)];
  if (filter.clusterId !== undefined) where.push(Prisma.sql`cluster_id = ${filter.clusterId}`);
  if (filter.principal) where.push(Prisma.sql`principal = ${filter.principal}`);
  if (filter.action) where.push(Prisma.sql`action = ${filter.action}`);
  if (filter.outcome) where.push(Prisma.sql`outcome = ${filter.outcome}`);
  if (filter.category) where.push(Prisma.sql`category = ${filter.category}`);
  if (filter.from) where.push(Prisma.sql`at >= ${filter.from}::timestamptz`);
  if (filter.to) where.push(Prisma.sql`at <= ${filter.to}::timestamptz`);
  if (filter.planId) where.push(Prisma.sql`plan_id = ${filter.planId}`);
  if (filter.unreviewedBreakGlass)
    where.push(
      Prisma.sql`action = 'plan.break-glass' AND NOT EXISTS (
        SELECT 1 FROM break_glass_review r WHERE r.plan_id = audit_event.plan_id)`,
    );
  if (filter.cursor) {
    const c = decodeCursor(filter.cursor);
    where.push(Prisma.sql`(at < ${c.at}::timestamptz OR (at = ${c.at}::timestamptz AND id < ${c.id}))`);
  }
  const rows = await getPrisma().$queryRaw<Row[]>`
    SELECT id, at, principal, action, target, request, before, after, outcome,
           kafka_error AS "kafkaError", message, category, subjects,
           completed_at AS "completedAt", repeat_count AS "repeatCount", last_at AS "lastAt", plan_id AS "planId"
      FROM audit_event
     WHERE ${Prisma.join(where, " AND ")}
     ORDER BY at DESC, id DESC
     LIMIT ${limit + 1}`;
  const events = rows.slice(0, limit).map(fromRow);
  const last = events[events.length - 1];
  return { events, nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
}

/**
 * The owners named by token rows (subjects[1]) and token-request rows (subjects[2]) of one
 * cluster, each once: the candidates audit-view checks DESCRIBE_TOKENS / CREATE_TOKENS on
 * (as the viewer, on that cluster: another cluster's owners would be asked of the wrong one).
 */
export async function auditedTokenOwners(clusterId: string): Promise<{ token: string[]; tokenRequest: string[] }> {
  const rows = await getPrisma().$queryRaw<{ category: string; owner: string }[]>`
    SELECT DISTINCT category, owner FROM (
      SELECT category, subjects[1] AS owner FROM audit_event WHERE category = 'token' AND cluster_id = ${clusterId}
      UNION ALL
      SELECT category, subjects[2] AS owner FROM audit_event
      WHERE category = 'token-request' AND cluster_id = ${clusterId}
    ) AS o
    WHERE owner IS NOT NULL`;
  return {
    token: rows.filter((r) => r.category === "token").map((r) => r.owner),
    tokenRequest: rows.filter((r) => r.category === "token-request").map((r) => r.owner),
  };
}

export const AUDIT_CSV_COLUMNS = [
  "id",
  "at",
  "principal",
  "action",
  "target",
  "outcome",
  "kafkaError",
  "message",
  "request",
  "before",
  "after",
] as const;

/** One CSV cell: formula-neutralised, then quoted per RFC 4180 when needed. */
export function csvCell(value: unknown): string {
  let s: string;
  if (value === null || value === undefined) s = "";
  else if (value instanceof Date) s = value.toISOString();
  else if (typeof value === "string") s = value;
  else if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") s = String(value);
  else s = JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  if (/[",\r\n]/.test(s) || /^\s|\s$/.test(s)) s = `"${s.replace(/"/g, '""')}"`;
  return s;
}

/** RFC 4180 CSV (header row, CRLF line ends) of audit events, JSON for request/before/after. */
export function auditToCsv(events: readonly AuditEvent[]): string {
  const lines = [AUDIT_CSV_COLUMNS.join(",")];
  for (const e of events) lines.push(AUDIT_CSV_COLUMNS.map((c) => csvCell(e[c])).join(","));
  return lines.join("\r\n") + "\r\n";
}
