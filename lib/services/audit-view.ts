/**
 * Who sees which audit events. The only way the Audit page and GET /api/v1/audit (JSON and
 * CSV) reach audit rows: the viewer's rights are learned from Kafka, as the viewer, once
 * per request (cached per session for at most RIGHTS_TTL_MS), and turned into a database
 * filter (lib/db/audit.ts#listVisibleAudit), so paging stays correct and the cost follows
 * the page.
 *
 * The rule (docs/audit.md, "Who sees which audit events"), by the row's category:
 *   - every row: its actor (principal), except sign-in failures;
 *   - acl: whoever Kafka lets describe ACLs (DESCRIBE on CLUSTER);
 *   - quota: whoever Kafka lets describe client quotas (DESCRIBE_CONFIGS on CLUSTER);
 *   - token (subjects [owner, ...renewers]): the owner and renewers, and whoever has
 *     DESCRIBE_TOKENS on USER:<owner>;
 *   - token-request (subjects [requester, owner, ...renewers]): those, and whoever has
 *     DESCRIBE_TOKENS or CREATE_TOKENS (may decide it) on USER:<owner>, or holds a token
 *     Kafka let it create for that owner (as the Token requests page judges deciders);
 *   - scram (subjects [the user]): cluster admins (ALTER on CLUSTER is what changing a SCRAM
 *     credential takes) and the user whose credential it is;
 *   - session, other (rows written before categories existed): cluster admins, and the
 *     actor; sign-in failures (with client addresses) only cluster admins;
 *   - super users (the configured super.users): everything.
 * A cluster admin is a super user, or a principal Kafka lets describe ACLs whose ACLs
 * (with the super users) give it ALTER on CLUSTER. DESCRIBE_TOKENS / CREATE_TOKENS on an
 * owner are judged with the policy core from the USER ACLs Kafka lets the viewer read;
 * when it lets the viewer read none, only the owner/renewer/requester part applies.
 *
 * Failing closed: a right Kafka could not be asked about (broker unreachable) counts as
 * not granted, is not cached, and the page says so.
 */
import "server-only";
import {
  describeAcls,
  describeClientQuotas,
  describeDelegationTokens,
  isKafkaOperationError,
  type KafkaCredential,
} from "@/lib/kafka";
import type { Viewer } from "@/lib/auth/sign-in";
import type { ActionResult } from "@/lib/schemas/result";
import { toErrorResult } from "@/lib/kafka/error-result";
import {
  auditedTokenOwners,
  InvalidCursorError,
  listVisibleAudit,
  type AuditCategory,
  type AuditEvent,
  type AuditFilter,
  type AuditVisibility,
} from "@/lib/db/audit";
import { aclIsAllowed, ANY_ACL_FILTER, isSuperUser, type AclBinding, type AuthorizerConfig } from "@/lib/policy";
import { toAuthorizerConfig } from "@/lib/authorizer-config";
import { clusterIdOf, clusterOf } from "@/lib/clusters";
import { unnamedHost } from "./effective-permissions";

/** How long the rights learned from Kafka are reused for one session. */
export const RIGHTS_TTL_MS = 30_000;

const CLUSTER = "kafka-cluster";

/** What Kafka lets the viewer see, as far as the audit trail is concerned. */
export interface AuditRights {
  principal: string;
  /** One of the configured super users (KAFKA_SUPER_USERS): sees every row. */
  superUser: boolean;
  /** Kafka answered DescribeAcls (DESCRIBE on CLUSTER). */
  acls: boolean;
  /** Kafka answered DescribeClientQuotas (DESCRIBE_CONFIGS on CLUSTER). */
  quotas: boolean;
  /** A super user, or the readable ACLs (with the super users) give ALTER on CLUSTER. */
  clusterAdmin: boolean;
  /** The USER-resource ACLs, when readable: DESCRIBE_TOKENS / CREATE_TOKENS per owner are judged from them. */
  userAcls: readonly AclBinding[] | null;
  /** Owners of live tokens Kafka shows the viewer created for them (Kafka let it create for them). */
  createdFor: readonly string[];
  /** Rights Kafka could not be asked about (counted as not granted). */
  problems: string[];
}

type Probe<T> = { ok: true; value: T } | { ok: false; refused: boolean; message: string };

/** One call as the viewer: an authorization refusal is an answer (no), anything else a problem. */
async function probe<T>(call: () => Promise<T>, doing: string): Promise<Probe<T>> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    if (isKafkaOperationError(error) && error.isAuthorizationFailure)
      return { ok: false, refused: true, message: error.message };
    return { ok: false, refused: false, message: toErrorResult(error, doing).message };
  }
}

const CLUSTER_ACLS = {
  ...ANY_ACL_FILTER,
  resourceType: "CLUSTER",
  resourceName: CLUSTER,
  patternType: "MATCH",
} as const;
const USER_ACLS = { ...ANY_ACL_FILTER, resourceType: "USER" } as const;

function userName(principal: string): string {
  const colon = principal.indexOf(":");
  return colon >= 0 ? principal.slice(colon + 1) : principal;
}

/** Asks Kafka, as the viewer, what it may describe. */
export async function probeAuditRights(
  principal: string,
  cred: KafkaCredential,
  config: AuthorizerConfig,
): Promise<AuditRights> {
  if (isSuperUser(principal, config)) {
    return {
      principal,
      superUser: true,
      acls: true,
      quotas: true,
      clusterAdmin: true,
      userAcls: null,
      createdFor: [],
      problems: [],
    };
  }
  const [clusterAcls, userAcls, quotas, tokens] = await Promise.all([
    probe(() => describeAcls(cred, CLUSTER_ACLS), "describe ACLs to decide audit visibility"),
    probe(() => describeAcls(cred, USER_ACLS), "describe ACLs to decide audit visibility"),
    probe(
      () =>
        describeClientQuotas(cred, {
          components: [{ entityType: "user", matchType: "EXACT", match: userName(principal) }],
          strict: true,
        }),
      "describe client quotas to decide audit visibility",
    ),
    probe(() => describeDelegationTokens(cred, null), "describe delegation tokens to decide audit visibility"),
  ]);
  const problems = [clusterAcls, userAcls, quotas, tokens].flatMap((p) => (!p.ok && !p.refused ? [p.message] : []));
  const clusterAdmin =
    clusterAcls.ok &&
    aclIsAllowed(clusterAcls.value, config, unnamedHost(clusterAcls.value.map((a) => a.host)))(
      principal,
      "ALTER",
      "CLUSTER",
      CLUSTER,
    );
  return {
    principal,
    superUser: false,
    acls: clusterAcls.ok,
    quotas: quotas.ok,
    clusterAdmin,
    userAcls: userAcls.ok ? userAcls.value : null,
    createdFor: tokens.ok
      ? [...new Set(tokens.value.filter((t) => t.requester === principal && t.owner !== principal).map((t) => t.owner))]
      : [],
    problems: [...new Set(problems)],
  };
}

const cache = new Map<string, { expires: number; rights: AuditRights }>();

/** The viewer's rights, from the session's cache when fresh (at most RIGHTS_TTL_MS old). */
export async function auditRightsFor(viewer: Viewer, now = Date.now()): Promise<AuditRights> {
  const key = viewer.sessionId === null ? null : `${viewer.sessionId}\u0000${viewer.principal}`;
  const hit = key === null ? undefined : cache.get(key);
  if (hit && hit.expires > now) return hit.rights;
  const rights = await probeAuditRights(
    viewer.principal,
    viewer.credential,
    toAuthorizerConfig(clusterOf(viewer.credential).authorizer),
  );
  if (key !== null && rights.problems.length === 0) {
    if (cache.size >= 10_000) for (const [k, v] of cache) if (v.expires <= now) cache.delete(k);
    if (cache.size >= 10_000) cache.clear();
    cache.set(key, { expires: now + RIGHTS_TTL_MS, rights });
  }
  return rights;
}

/** Forgets every cached right (tests; a changed ACL shows at once). */
export function clearAuditRightsCache(): void {
  cache.clear();
}

/**
 * The database filter for these rights. `owners` are the owners named by token and
 * token-request rows; each is checked against the readable USER ACLs.
 */
export function visibilityFor(
  rights: AuditRights,
  owners: { token: readonly string[]; tokenRequest: readonly string[] },
  config: AuthorizerConfig,
): AuditVisibility {
  if (rights.superUser) {
    return {
      all: true,
      principal: rights.principal,
      categories: [],
      signInFailures: true,
      asSubject: [],
      tokenOwners: [],
      tokenRequestOwners: [],
    };
  }
  const categories: AuditCategory[] = [];
  if (rights.acls) categories.push("acl");
  if (rights.quotas) categories.push("quota");
  if (rights.clusterAdmin) categories.push("session", "other", "scram");
  let tokenOwners: string[] = [];
  let tokenRequestOwners = owners.tokenRequest.filter((owner) => rights.createdFor.includes(owner));
  if (rights.userAcls !== null) {
    // From a host no ACL names, as every page decides by default: a host-pinned grant does not count.
    const allowed = aclIsAllowed(rights.userAcls, config, unnamedHost(rights.userAcls.map((a) => a.host)));
    const describes = (owner: string) => allowed(rights.principal, "DESCRIBE_TOKENS", "USER", owner);
    tokenOwners = owners.token.filter(describes);
    tokenRequestOwners = owners.tokenRequest.filter(
      (owner) => describes(owner) || allowed(rights.principal, "CREATE_TOKENS", "USER", owner),
    );
  }
  return {
    all: false,
    principal: rights.principal,
    categories,
    signInFailures: rights.clusterAdmin,
    asSubject: ["token", "token-request", "scram"],
    tokenOwners,
    tokenRequestOwners,
  };
}

/** What the viewer is shown, in words, for the page and the API answer. */
export function describeVisibility(rights: AuditRights, visibility: AuditVisibility): string[] {
  if (visibility.all) return ["Every event: you are a super user."];
  const lines = ["Your own actions (except failed sign-ins)."];
  lines.push(
    rights.acls
      ? "ACL events: Kafka lets you describe ACLs (DESCRIBE on CLUSTER)."
      : "No ACL events of others: Kafka does not let you describe ACLs (DESCRIBE on CLUSTER).",
  );
  lines.push(
    rights.quotas
      ? "Quota events: Kafka lets you describe client quotas (DESCRIBE_CONFIGS on CLUSTER)."
      : "No quota events of others: Kafka does not let you describe client quotas (DESCRIBE_CONFIGS on CLUSTER).",
  );
  lines.push(
    "Token and token-request events that name you as owner, renewer or requester, and changes to your own " +
      "SCRAM credentials.",
  );
  if (visibility.tokenOwners.length > 0)
    lines.push(`Token events of owners you have DESCRIBE_TOKENS on: ${visibility.tokenOwners.join(", ")}.`);
  if (visibility.tokenRequestOwners.length > 0)
    lines.push(
      `Token-request events of owners you may describe or create tokens ` +
        `for: ${visibility.tokenRequestOwners.join(", ")}.`,
    );
  else if (rights.createdFor.length > 0)
    lines.push(`Token-request events of owners Kafka let you create tokens for: ${rights.createdFor.join(", ")}.`);
  if (rights.userAcls === null)
    lines.push(
      "Token events of other owners are not shown: Kafka does not let you read the ACLs that would show your " +
        "DESCRIBE_TOKENS.",
    );
  lines.push(
    rights.clusterAdmin
      ? "Sign-ins, sign-in failures, SCRAM credential changes and uncategorised events: you are a cluster admin " +
          "(ALTER on CLUSTER)."
      : "No sign-ins, sign-in failures or SCRAM credential changes of others: those are for cluster admins " +
          "(ALTER on CLUSTER).",
  );
  return lines;
}

export interface AuditPage {
  events: AuditEvent[];
  nextCursor: string | null;
  /** What the viewer can see and why, in words. */
  visibility: string[];
  /** Rights Kafka could not be asked about (counted as not granted). */
  problems: string[];
}

/** RFC 4180 CSV of a page's events (lib/db/audit.ts#auditToCsv). */
export { auditToCsv } from "@/lib/db/audit";

/** One page of the audit events the viewer may read. An unreadable cursor is a VALIDATION failure on `cursor`. */
export async function listAuditFor(viewer: Viewer, filter: AuditFilter): Promise<ActionResult<AuditPage>> {
  try {
    const config = toAuthorizerConfig(clusterOf(viewer.credential).authorizer);
    const rights = await auditRightsFor(viewer);
    const owners =
      rights.superUser || (rights.userAcls === null && rights.createdFor.length === 0)
        ? { token: [], tokenRequest: [] }
        : await auditedTokenOwners(clusterIdOf(viewer.credential));
    const visibility = visibilityFor(rights, owners, config);
    // Nothing from another cluster is ever shown: the viewer's session is for one cluster.
    const page = await listVisibleAudit(visibility, { ...filter, clusterId: clusterIdOf(viewer.credential) });
    return {
      ok: true,
      data: { ...page, visibility: describeVisibility(rights, visibility), problems: rights.problems },
    };
  } catch (error) {
    if (error instanceof InvalidCursorError)
      return { ok: false, code: "VALIDATION", message: error.message, fieldErrors: { cursor: [error.message] } };
    return toErrorResult(error, "list audit events");
  }
}
