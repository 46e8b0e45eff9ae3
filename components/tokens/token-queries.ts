import { APPEARS_ENTITLED } from "@/lib/services/token-view";
import type { TokenList, TokenRequestLists, TokenView } from "@/lib/schemas/tokens";

/** TanStack Query keys of the token pages (one factory, never inline keys). */
export const tokenKeys = {
  all: ["tokens"] as const,
  list: () => [...tokenKeys.all, "list"] as const,
  requests: () => [...tokenKeys.all, "requests"] as const,
};

/** How often the token list and the pending badge are fetched again while the page is open. */
export const TOKEN_REFETCH_MS = 15_000;

/** Requests waiting for the viewer's decision: open, not their own, and they appear entitled. */
export function decisionsWaiting(lists: Pick<TokenRequestLists, "pending">): number {
  return lists.pending.filter((r) => r.status === "PENDING" && APPEARS_ENTITLED.has(r.entitlement)).length;
}

/**
 * Renew and expire are offered only where Kafka would allow them: the viewer is the
 * owner or a renewer (`mayRenew`, Kafka's DELEGATION_TOKEN_OWNER_MISMATCH rule) and the
 * token has not expired (an expired token never renews; Kafka has removed or will remove it).
 */
export function mayChangeExpiry(token: Pick<TokenView, "mayRenew" | "status">): boolean {
  return token.mayRenew && token.status === "active";
}

/** Why a row offers no renew/expire, in the row's words. */
export function whyNoExpiryChange(token: Pick<TokenView, "mayRenew" | "status">): string | null {
  if (token.status === "expired") return "expired: it cannot be renewed";
  if (!token.mayRenew) return "you may not renew or expire it (only its owner and renewers may)";
  return null;
}

/**
 * The list to show: the latest answer, plus the rows of tokens this page itself just
 * expired (Kafka removes them, so the next answer drops them), so their outcome stays
 * in view. Order: the latest answer's, the kept rows last.
 */
export function withKeptRows(latest: TokenList, kept: ReadonlyMap<string, TokenView>): TokenView[] {
  const listed = new Set(latest.tokens.map((t) => t.tokenId));
  return [...latest.tokens, ...[...kept.values()].filter((t) => !listed.has(t.tokenId))];
}
