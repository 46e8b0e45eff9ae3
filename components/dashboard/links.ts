/**
 * Where each number of the dashboard (and each name on the audit page) leads: the list
 * behind it, filtered to exactly what was counted. The ACL list's query parameters are
 * lib/schemas/acls.ts aclListQuerySchema.
 */

/** The ACL list with these filters, e.g. { permissionType: "DENY" }. */
export function aclsHref(filters: Record<string, string> = {}): string {
  const query = new URLSearchParams(filters).toString();
  return query === "" ? "/acls" : `/acls?${query}`;
}

/** Everything a principal can do (the principal view). */
export function principalHref(principal: string): string {
  return `/principals/${encodeURIComponent(principal)}`;
}

/**
 * The quota page, asking which quota applies to this user (with its KIP-55 budget); `<default>` has no name to ask
 * with.
 */
export function quotaUserHref(user: string | null): string {
  return user === null ? "/quotas" : `/quotas?${new URLSearchParams({ user })}#applied`;
}

/** One resource: the ACLs that apply to it and who may do what. */
export function resourceHref(resourceType: string, resourceName: string): string {
  return `/resources?${new URLSearchParams({ type: resourceType, name: resourceName })}`;
}

/**
 * The token list filtered as the dashboard counted (lib/services/token-view tokenFilterOf): `{ role: "owner" }`,
 * `{ expiring: "24h" }`.
 */
export function tokensHref(filter: { role?: "owner" | "renewer"; expiring?: "24h" | "7d" } = {}): string {
  const query = new URLSearchParams(filter).toString();
  return query === "" ? "/tokens" : `/tokens?${query}`;
}

export function planHref(planId: string): string {
  return `/plans/${encodeURIComponent(planId)}`;
}

/** A plan applied by break-glass: who, why, what it did, and its after-the-fact review. */
export function breakGlassHref(planId: string): string {
  return `${planHref(planId)}/break-glass`;
}

/** The audit page with these filters. */
export function auditHref(filters: Record<string, string> = {}): string {
  const query = new URLSearchParams(filters).toString();
  return query === "" ? "/audit" : `/audit?${query}`;
}

/** The requests for changes waiting for a decision (and live grants). */
export const REQUESTS_HREF = "/requests";

/** The token requests waiting for a decision by the viewer (and the viewer's own open ones). */
export const REQUESTS_TOKENS_HREF = "/requests?filter=waiting&kind=token";
