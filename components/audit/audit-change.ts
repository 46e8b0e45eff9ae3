/**
 * What an audit event changed, for people: ACL bindings created and deleted (and those
 * that failed or were never applied), or fields added, removed and changed between the
 * recorded before and after — never raw JSON. Also the folding of sign-in noise and the
 * sentence that says what the filters match. Pure: the Audit page renders the results.
 *
 * What the services record (lib/services/acls.ts, quotas.ts, tokens.ts, token-requests.ts):
 *   acl.create / acl.delete  request { bindings }, after { results: [binding + ok, error, deleted?] },
 *                            before { bindings } (the deleted ones)
 *   quota.alter              before / after: the entity's values per key (after only on success)
 *   token.create             after: the token (id, owner, renewers, timestamps)
 *   token.renew / expire     before: the token; after: only what changed ({ expiryTimestamp }
 *                            or { removed: true }), so after is read as a patch over before
 *   token.request.*          after { status, ... }
 */
import { formatQuotaValue } from "@/lib/services/quota-view";
import type { AuditPage } from "@/lib/services/audit-view";
import { ACL_BINDING_FIELDS, type AclBinding } from "@/lib/policy";

export type AuditEventView = AuditPage["events"][number];

export interface FieldChange {
  path: string;
  kind: "added" | "removed" | "changed";
  before?: string;
  after?: string;
}

export type AuditChange =
  | {
      kind: "bindings";
      created: AclBinding[];
      deleted: AclBinding[];
      failed: { binding: AclBinding; message: string }[];
      /** Asked for, but Kafka was never asked or refused the whole batch. */
      notApplied: AclBinding[];
    }
  | { kind: "fields"; changes: FieldChange[]; unchanged: number }
  | { kind: "none" };

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

function asBinding(v: unknown): AclBinding | null {
  if (!isObject(v)) return null;
  if (!ACL_BINDING_FIELDS.every((f) => typeof v[f] === "string")) return null;
  return Object.fromEntries(ACL_BINDING_FIELDS.map((f) => [f, v[f]])) as unknown as AclBinding;
}

function bindingsIn(v: unknown): AclBinding[] {
  return Array.isArray(v) ? v.map(asBinding).filter((b): b is AclBinding => b !== null) : [];
}

/** The ACL bindings an acl.* event asked for (for links to their resources). */
export function requestedBindings(event: Pick<AuditEventView, "request">): AclBinding[] {
  return isObject(event.request) ? bindingsIn(event.request.bindings) : [];
}

function aclChange(event: AuditEventView): AuditChange {
  const asked = requestedBindings(event);
  const results =
    isObject(event.after) && Array.isArray(event.after.results) ? event.after.results.filter(isObject) : null;
  if (results === null)
    return asked.length === 0
      ? { kind: "none" }
      : { kind: "bindings", created: [], deleted: [], failed: [], notApplied: asked };
  const ok = results.filter((r) => r.ok === true);
  const failed = results
    .filter((r) => r.ok !== true)
    .flatMap((r) => {
      const binding = asBinding(r);
      const message = isObject(r.error) && typeof r.error.message === "string" ? r.error.message : "failed";
      return binding ? [{ binding, message }] : [];
    });
  if (event.action === "acl.delete") {
    const recorded = isObject(event.before) ? bindingsIn(event.before.bindings) : [];
    const deleted =
      recorded.length > 0 ? recorded : bindingsIn(ok.filter((r) => typeof r.deleted !== "number" || r.deleted > 0));
    return { kind: "bindings", created: [], deleted, failed, notApplied: [] };
  }
  return { kind: "bindings", created: bindingsIn(ok), deleted: [], failed, notApplied: [] };
}

/** `{ a: { b: 1 }, c: [x, y] }` -> `a.b` = "1", `c` = "x, y". */
function flatten(value: unknown, prefix = "", out = new Map<string, unknown>()): Map<string, unknown> {
  if (isObject(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0 && prefix !== "") out.set(prefix, "(none)");
    for (const [k, v] of entries) flatten(v, prefix === "" ? k : `${prefix}.${k}`, out);
  } else if (prefix !== "") {
    out.set(prefix, value);
  }
  return out;
}

const QUOTA_KEYS = new Set([
  "producer_byte_rate",
  "consumer_byte_rate",
  "request_percentage",
  "controller_mutation_rate",
  "connection_creation_rate",
]);

/** A value as a person reads it: quota values in their unit, timestamps as UTC times, lists joined. */
export function displayValue(path: string, value: unknown): string {
  const key = path.slice(path.lastIndexOf(".") + 1);
  if (value === null || value === undefined) return "none";
  if (typeof value === "number" && QUOTA_KEYS.has(key)) return `${formatQuotaValue(key, value)} (${value})`;
  if (typeof value === "number" && /Timestamp$/.test(key) && value > 0)
    return `${new Date(value).toISOString().replace("T", " ").slice(0, 19)} UTC`;
  if (Array.isArray(value))
    return value.length === 0 ? "(none)" : value.map((v) => (typeof v === "string" ? v : JSON.stringify(v))).join(", ");
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}

/** Fields added, removed and changed from `before` to `after` (each a flattened path). */
export function diffFields(before: unknown, after: unknown): { changes: FieldChange[]; unchanged: number } {
  const a = flatten(before);
  const b = flatten(after);
  const changes: FieldChange[] = [];
  let unchanged = 0;
  for (const path of [...new Set([...a.keys(), ...b.keys()])]) {
    const inBefore = a.has(path);
    const inAfter = b.has(path);
    const was = displayValue(path, a.get(path));
    const now = displayValue(path, b.get(path));
    if (inBefore && !inAfter) changes.push({ path, kind: "removed", before: was });
    else if (!inBefore && inAfter) changes.push({ path, kind: "added", after: now });
    else if (JSON.stringify(a.get(path)) !== JSON.stringify(b.get(path)))
      changes.push({ path, kind: "changed", before: was, after: now });
    else unchanged++;
  }
  return { changes, unchanged };
}

/** Actions whose `after` holds only what changed (lib/services/tokens.ts changeExpiry). */
const PATCH_ACTIONS = new Set(["token.renew", "token.expire"]);

/** What the event changed, in the shape the page shows. */
export function describeChange(event: AuditEventView): AuditChange {
  if (event.action.startsWith("acl.")) return aclChange(event);
  let after = event.after;
  if (PATCH_ACTIONS.has(event.action) && isObject(after)) {
    after = after.removed === true ? null : { ...(isObject(event.before) ? event.before : {}), ...after };
  }
  if ((event.before ?? null) === null && (after ?? null) === null) return { kind: "none" };
  const { changes, unchanged } = diffFields(event.before, after);
  return changes.length === 0 && unchanged === 0 ? { kind: "none" } : { kind: "fields", changes, unchanged };
}

/** What was asked, as key/value lines (the request, flattened; bindings are shown by the change). */
export function requestLines(event: Pick<AuditEventView, "request">): { path: string; value: string }[] {
  if (!isObject(event.request)) return [];
  const { bindings: _bindings, ...rest } = event.request;
  return [...flatten(rest).entries()].map(([path, value]) => ({ path, value: displayValue(path, value) }));
}

// ---- sign-in noise ---------------------------------------------------------------------

export function isSignInFailure(e: Pick<AuditEventView, "action" | "outcome">): boolean {
  return e.action === "session.sign-in" && e.outcome !== "success";
}

export interface SignInGroup {
  key: string;
  client: string;
  /** The hour (UTC) the failures started in, ISO. */
  hour: string;
  attempts: number;
  usernames: string[];
  events: AuditEventView[];
}

export type AuditRow = { kind: "event"; event: AuditEventView } | { kind: "signInFailures"; group: SignInGroup };

function clientOf(e: AuditEventView): string {
  return isObject(e.request) && typeof e.request.client === "string" ? e.request.client : "an unknown client";
}

/**
 * Failed sign-ins folded into one row per client and hour (placed where the newest of them
 * is); every other event stays a row of its own, in the page's order.
 */
export function foldSignInNoise(events: readonly AuditEventView[]): AuditRow[] {
  const rows: AuditRow[] = [];
  const groups = new Map<string, SignInGroup>();
  for (const event of events) {
    if (!isSignInFailure(event)) {
      rows.push({ kind: "event", event });
      continue;
    }
    const client = clientOf(event);
    const at = new Date(event.at);
    const hour = new Date(
      Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate(), at.getUTCHours()),
    ).toISOString();
    const key = `${client}|${hour}`;
    let group = groups.get(key);
    if (!group) {
      group = { key, client, hour, attempts: 0, usernames: [], events: [] };
      groups.set(key, group);
      rows.push({ kind: "signInFailures", group });
    }
    group.events.push(event);
    group.attempts += Math.max(1, event.repeatCount);
    const name =
      isObject(event.request) && typeof event.request.username === "string" ? event.request.username : event.principal;
    if (!group.usernames.includes(name)) group.usernames.push(name);
  }
  return rows;
}

// ---- what the filters match ------------------------------------------------------------

export interface AuditFilterWords {
  principal?: string;
  action?: string;
  outcome?: string;
  category?: string;
  from?: Date;
  to?: Date;
}

const when = (d: Date) => {
  const iso = d.toISOString();
  return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : `${iso.replace("T", " ").slice(0, 16)} UTC`;
};

/** "actor User:alice, action acl.create, since 2026-12-01" (empty when nothing is filtered). */
export function filterWords(f: AuditFilterWords): string {
  const parts: string[] = [];
  if (f.principal) parts.push(`actor ${f.principal}`);
  if (f.action) parts.push(`action ${f.action}`);
  if (f.outcome) parts.push(`outcome ${f.outcome}`);
  if (f.category) parts.push(`category ${f.category}`);
  if (f.from && f.to) parts.push(`from ${when(f.from)} to ${when(f.to)}`);
  else if (f.from) parts.push(`since ${when(f.from)}`);
  else if (f.to) parts.push(`until ${when(f.to)}`);
  return parts.join(", ");
}

/**
 * The sentence above the table: how many events match, and what. On the first page
 * without a next page the count is exact; otherwise the page says how many it shows.
 */
export function describeMatch(f: AuditFilterWords, shown: number, more: boolean, olderPage: boolean): string {
  const what = filterWords(f);
  const events = (n: number) => `${n} ${n === 1 ? "event" : "events"}`;
  const match = (n: number) => (what === "" ? "you may see" : `${n === 1 ? "matches" : "match"} ${what}`);
  if (olderPage)
    return (
      `Older events that ${what === "" ? "you may see" : `match ${what}`}: ${events(shown)} on this ` +
      `page${more ? ", more on the next" : ""}.`
    );
  if (!more) return shown === 0 ? `No events ${match(0)}.` : `${events(shown)} ${match(shown)}.`;
  return `More than ${events(shown)} ${match(shown + 1)}; the newest ${shown} are shown.`;
}
