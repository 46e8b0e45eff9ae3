/**
 * The ACL list's filters as strings — the page's address, the filter form's fields and the
 * GET /api/v1/acls query are the same parameters (lib/schemas/acls aclListQuerySchema) —
 * and the TanStack Query keys of the list.
 */
import type { AclBinding } from "@/lib/policy";
import { aclListQuerySchema, type AclListQuery } from "@/lib/schemas/acls";

export type AclListParams = Record<string, string>;

/** A parameter at its default is left out of addresses and query keys (`refresh` always is). */
const DEFAULTS: Record<string, string> = Object.fromEntries(
  Object.entries(aclListQuerySchema.parse({}))
    .filter(([k]) => k !== "refresh")
    .map(([k, v]) => [k, String(v)]),
);

/** The list's parameters that differ from the defaults, in a fixed order (never `refresh`). */
export function listParams(query: AclListQuery | AclListParams): AclListParams {
  const out: AclListParams = {};
  for (const k of Object.keys(DEFAULTS)) {
    const v = String((query as Record<string, string | number | boolean | undefined>)[k] ?? DEFAULTS[k]);
    if (v !== DEFAULTS[k]) out[k] = v;
  }
  return out;
}

export function withParams(params: AclListParams, change: AclListParams): AclListParams {
  return listParams({ ...params, ...change });
}

const queryString = (params: AclListParams, extra: AclListParams = {}) =>
  new URLSearchParams({ ...params, ...extra }).toString();

/** The page's address for these parameters. */
export function aclListHref(params: AclListParams, extra: AclListParams = {}): string {
  const qs = queryString(params, extra);
  return qs ? `/acls?${qs}` : "/acls";
}

export function aclListApiPath(params: AclListParams, refresh = false): string {
  const qs = queryString(params, refresh ? { refresh: "true" } : {});
  return qs ? `/api/v1/acls?${qs}` : "/api/v1/acls";
}

/** TanStack Query keys of the ACL list. */
export const aclKeys = {
  all: ["acls"] as const,
  list: (params: AclListParams) => ["acls", "list", params] as const,
};

const bindingParams = (b: AclBinding) => ({
  resourceType: b.resourceType,
  patternType: b.patternType,
  resourceName: b.resourceName,
  principal: b.principal,
  host: b.host,
  operation: b.operation,
  permissionType: b.permissionType,
});

/** The create page with the binding's fields filled in. */
export function cloneHref(b: AclBinding): string {
  return `/acls/new?${new URLSearchParams(bindingParams(b))}`;
}

/**
 * The access check for the binding's principal, operation and resource (a PREFIXED
 * pattern's name is itself a name it covers, and `prefix` tells the page to say that a
 * name under it may be checked instead); a host pinned ACL from its host. ALL is no
 * request's operation, so it is left for the user to choose.
 */
export function accessCheckHref(b: AclBinding): string {
  const params = new URLSearchParams({
    principal: b.principal,
    resourceType: b.resourceType,
    resourceName: b.resourceName,
  });
  if (b.patternType === "PREFIXED") params.set("prefix", b.resourceName);
  if (b.operation !== "ALL") params.set("operation", b.operation);
  if (b.host !== "*") params.set("host", b.host);
  return `/access-check?${params}`;
}
