/**
 * Pure helpers behind the Tokens and Token requests pages: token status and relative
 * times, lifetimes in words, the listed view of a token (never its HMAC), and who appears
 * entitled to approve a token request.
 *
 * "May approve" mirrors Kafka's create check (KafkaApis#handleCreateTokenRequest, the
 * policy core's mayCreateTokenFor): the approver is the owner, a super user, or has
 * CREATE_TOKENS on USER:<owner>. It is only a hint: the approval creates the token as the
 * approver and Kafka's answer is the real check.
 */
import {
  aclIsAllowed,
  isSuperUser,
  isTokenExpired,
  mayRenew,
  type AclBinding,
  type AuthorizerConfig,
  type DelegationToken,
} from "@/lib/policy";
import type { TokenRequest } from "@/lib/db/token-request";
import type { DecidableRequest, Entitlement, TokenRequestView, TokenStatus, TokenView } from "@/lib/schemas/tokens";
import { unnamedHost } from "./effective-permissions";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Expired as Kafka's sweep and renew see it: strictly past the expiry or the max timestamp. */
export function tokenStatus(
  token: Pick<DelegationToken, "expiryTimestamp" | "maxTimestamp">,
  now: number,
): TokenStatus {
  return isTokenExpired(token as DelegationToken, now) ? "expired" : "active";
}

/** 90 min -> "1 h 30 min", 3 days -> "3 d"; at most two units. */
export function formatDuration(ms: number): string {
  const abs = Math.abs(ms);
  if (abs < MINUTE) return `${Math.round(abs / 1000)} s`;
  if (abs < HOUR) return `${Math.round(abs / MINUTE)} min`;
  if (abs < DAY) {
    const h = Math.floor(abs / HOUR);
    const m = Math.round((abs - h * HOUR) / MINUTE);
    return m === 0 || h >= 10 ? `${Math.round(abs / HOUR)} h` : `${h} h ${m} min`;
  }
  const d = Math.floor(abs / DAY);
  const h = Math.round((abs - d * DAY) / HOUR);
  return h === 0 || h === 24 ? `${Math.round(abs / DAY)} d` : `${d} d ${h} h`;
}

/** "in 23 h" / "5 min ago". */
export function formatRelative(timestamp: number, now: number): string {
  const diff = timestamp - now;
  return diff >= 0 ? `in ${formatDuration(diff)}` : `${formatDuration(diff)} ago`;
}

/** "expires in 23 h" / "expired 5 min ago". */
export function expiryPhrase(token: Pick<DelegationToken, "expiryTimestamp" | "maxTimestamp">, now: number): string {
  const at = Math.min(token.expiryTimestamp, token.maxTimestamp);
  return at >= now ? `expires ${formatRelative(at, now)}` : `expired ${formatRelative(at, now)}`;
}

/** A requested max lifetime in words; null = the broker's default. */
export function formatLifetime(ms: number | null): string {
  return ms === null ? "broker default (delegation.token.max.lifetime.ms)" : formatDuration(ms);
}

/** The listed form of a token: everything but the HMAC. */
export function toTokenView(token: DelegationToken, viewer: string, now: number): TokenView {
  return {
    tokenId: token.tokenId,
    owner: token.owner,
    requester: token.requester,
    renewers: [...token.renewers],
    issueTimestamp: token.issueTimestamp,
    expiryTimestamp: token.expiryTimestamp,
    maxTimestamp: token.maxTimestamp,
    status: tokenStatus(token, now),
    mayRenew: mayRenew(token, viewer),
  };
}

export function toTokenRequestView(r: TokenRequest, now: number): TokenRequestView {
  return {
    id: r.id,
    createdAt: r.createdAt.toISOString(),
    requester: r.requester,
    owner: r.owner,
    renewers: [...r.renewers],
    maxLifetimeMs: r.maxLifetimeMs,
    reason: r.reason,
    status:
      r.status === "APPROVED" && r.hmacDeadline !== null && r.hmacDeadline.getTime() <= now
        ? "EXPIRED_UNRETRIEVED"
        : r.status,
    approver: r.approver,
    decidedAt: r.decidedAt?.toISOString() ?? null,
    decisionReason: r.decisionReason,
    tokenId: r.tokenId,
    hmacDeadline: r.hmacDeadline?.toISOString() ?? null,
    retrievable:
      r.status === "APPROVED" && r.hmacAvailable && r.hmacDeadline !== null && r.hmacDeadline.getTime() > now,
    claimedBy: r.status === "APPROVING" ? r.claimedBy : null,
    claimedAt: r.status === "APPROVING" ? (r.claimedAt?.toISOString() ?? null) : null,
  };
}

export interface ApproverEvidence {
  /** Super users as assumed from the environment. */
  config: AuthorizerConfig;
  /**
   * The ACLs, when the viewer may describe them (DESCRIBE on CLUSTER) or the console's
   * service principal read them for this decision (aclsReadBy); null otherwise.
   */
  acls: readonly AclBinding[] | null;
  /** The service principal that read `acls` when the viewer could not; absent: the viewer read them. */
  aclsReadBy?: string;
  /** Owners the viewer has created tokens for before (Kafka said yes then). */
  createdFor: ReadonlySet<string>;
}

/** Does `viewer` appear entitled to approve (= create a token for) `owner`, and why. */
export function approverEntitlement(
  viewer: string,
  request: { requester: string; owner: string },
  evidence: ApproverEvidence,
): { entitlement: Entitlement; note: string } {
  const { owner } = request;
  if (request.requester === viewer) {
    return { entitlement: "ownRequest", note: "Your own request: someone else must approve it." };
  }
  if (owner === viewer)
    return { entitlement: "owner", note: "You are the owner: Kafka lets you create tokens for yourself." };
  if (isSuperUser(viewer, evidence.config))
    return { entitlement: "superUser", note: "You are a super user (assumed from the console's configuration)." };
  if (evidence.acls !== null) {
    // From a host no ACL names, as every page decides by default: a host-pinned grant does not count.
    const allowed = aclIsAllowed(evidence.acls, evidence.config, unnamedHost(evidence.acls.map((a) => a.host)))(
      viewer,
      "CREATE_TOKENS",
      "USER",
      owner,
    );
    const readBy = evidence.aclsReadBy ? ` (as the console's service principal ${evidence.aclsReadBy} read them)` : "";
    return allowed
      ? { entitlement: "acl", note: `The ACLs give you CREATE_TOKENS on USER ${owner}${readBy}.` }
      : {
          entitlement: "notEntitled",
          note: `The ACLs do not give you CREATE_TOKENS on USER ${owner}${readBy}; Kafka would refuse.`,
        };
  }
  if (evidence.createdFor.has(owner)) {
    return {
      entitlement: "createdBefore",
      note:
        `You have created tokens for ${owner} before (the console cannot read the ACLs; Kafka decides at ` +
        `approval).`,
    };
  }
  return {
    entitlement: "unknown",
    note:
      `Unknown: the console cannot read the ACLs as you (needs DESCRIBE on CLUSTER). Approving needs ` +
      `CREATE_TOKENS on USER ${owner}; Kafka decides.`,
  };
}

export const APPEARS_ENTITLED: ReadonlySet<Entitlement> = new Set<Entitlement>([
  "owner",
  "superUser",
  "acl",
  "createdBefore",
]);

export function withEntitlement(view: TokenRequestView, viewer: string, evidence: ApproverEvidence): DecidableRequest {
  const { entitlement, note } = approverEntitlement(viewer, view, evidence);
  return { ...view, entitlement, entitlementNote: note };
}

/** The approval's HMAC retrieval deadline: 24 h after approval. */
export const RETRIEVAL_WINDOW_MS = DAY;

// ---- the token list's filters (what each number of the dashboard's token card opens) ----

/** Whose live tokens: the viewer's own, or those the viewer renews but does not own. */
export const TOKEN_ROLES = ["owner", "renewer"] as const;
/** Live tokens of the viewer (owned or renewed) that stop working within this window. */
export const TOKEN_WINDOWS = { "24h": DAY, "7d": 7 * DAY } as const;

export interface TokenFilter {
  role: (typeof TOKEN_ROLES)[number] | null;
  expiring: keyof typeof TOKEN_WINDOWS | null;
}

export const NO_TOKEN_FILTER: TokenFilter = { role: null, expiring: null };

/** The filter in a page address (`?role=owner`, `?expiring=24h`); anything else filters nothing. */
export function tokenFilterOf(search: Record<string, string | string[] | undefined>): TokenFilter {
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const role = one(search.role);
  const expiring = one(search.expiring);
  return {
    role: (TOKEN_ROLES as readonly string[]).includes(role ?? "") ? (role as TokenFilter["role"]) : null,
    expiring:
      expiring !== undefined && Object.hasOwn(TOKEN_WINDOWS, expiring) ? (expiring as TokenFilter["expiring"]) : null,
  };
}

/** When a token stops working: its expiry, or its max timestamp if that comes first. */
export function tokenEndsAt(token: Pick<TokenView, "expiryTimestamp" | "maxTimestamp">): number {
  return Math.min(token.expiryTimestamp, token.maxTimestamp);
}

/** The viewer's relation to a token: its owner, a renewer (who does not own it), or neither. */
export function tokenRole(token: Pick<TokenView, "owner" | "renewers">, viewer: string): TokenFilter["role"] {
  return token.owner === viewer ? "owner" : token.renewers.includes(viewer) ? "renewer" : null;
}

/**
 * Whether a token passes the filter for `viewer` at `now`. A filter keeps only live tokens
 * the viewer owns or renews (the dashboard's "your tokens"), so the list it opens holds
 * exactly what the dashboard counted; no filter keeps every token.
 */
export function matchesTokenFilter(
  token: Pick<TokenView, "owner" | "renewers" | "status" | "expiryTimestamp" | "maxTimestamp">,
  viewer: string,
  filter: TokenFilter,
  now: number,
): boolean {
  if (filter.role === null && filter.expiring === null) return true;
  const role = tokenRole(token, viewer);
  if (role === null || token.status === "expired") return false;
  if (filter.role !== null && role !== filter.role) return false;
  return filter.expiring === null || tokenEndsAt(token) - now <= TOKEN_WINDOWS[filter.expiring];
}

/** The filter in words, e.g. "your live tokens that stop working within 24 h"; null without one. */
export function describeTokenFilter(filter: TokenFilter): string | null {
  if (filter.role === null && filter.expiring === null) return null;
  const whose =
    filter.role === "owner"
      ? "live tokens you own"
      : filter.role === "renewer"
        ? "live tokens you renew (not yours)"
        : "live tokens you own or renew";
  return filter.expiring === null
    ? whose
    : `${whose} that stop working within ${filter.expiring === "24h" ? "24 h" : "7 days"}`;
}
