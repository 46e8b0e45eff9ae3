/**
 * The principal view and the effective-permission exports, as the signed-in viewer
 * (page /principals/<principal>, GET /api/v1/principals/{principal} and
 * GET /api/v1/effective-permissions).
 *
 * What the viewer sees is what Kafka lets them see: the ACLs come from the shared ACL
 * snapshot (only after Kafka let the viewer describe ACLs: DESCRIBE on CLUSTER), the
 * topics, groups, transactional ids and tokens are listed by Kafka as the viewer, the
 * quotas are read as the viewer (DESCRIBE_CONFIGS on CLUSTER). A refusal is shown as
 * Kafka's reason in place of that part. Every decision comes from one snapshot, whose
 * time is in the answer; the work itself is effective-permissions.ts (pure).
 */
import "server-only";
import { describeDelegationTokens } from "@/lib/kafka";
import type { Viewer } from "@/lib/auth/sign-in";
import type { ActionResult } from "@/lib/schemas/result";
import { toErrorResult } from "@/lib/kafka/error-result";
import {
  AclIndex,
  WILDCARD_PRINCIPAL,
  parsePrincipal,
  type AclBinding,
  type AclBindingFilter,
  type ConfiguredQuota,
  type DelegationToken,
  type ResourceType,
} from "@/lib/policy";
import type {
  EffectiveExport,
  EffectivePermissionsQuery,
  PrincipalView,
  PrincipalViewQuery,
} from "@/lib/schemas/effective-permissions";
import { getAclSnapshot, type AclSnapshotReadOptions } from "./acl-snapshot";
import { AS_OF_NOT_ALLOWED, journalStateAt, vouchStatement } from "./access-history";
import { auditRightsFor } from "./audit-view";
import { clusterIdOf } from "@/lib/clusters";
import { filterAcls } from "@/lib/policy/acl/filter";
import { aclsOf, authorizerConfigOf } from "@/lib/policy/history";
import { listedNames } from "./resources";
import { toAuthorizerConfig } from "@/lib/authorizer-config";
import { clusterOf } from "@/lib/clusters";
import {
  exportNotes,
  knownResources,
  principalPermissions,
  principalRows,
  resourcesUnderPrefix,
  whoCan,
  type ListedResources,
  type SnapshotSource,
} from "./effective-permissions";
import { appliedView } from "./quota-view";
import { readConfiguredQuotas } from "./quotas";
import { toTokenView } from "./token-view";

/** What an export is computed from: the live ACL snapshot, or the history journal's state at an instant. */
interface ExportSource {
  snapshot: SnapshotSource & { matching(resourceType: ResourceType, resourceName: string): AclBinding[] };
  info: EffectiveExport["aclSnapshot"];
  assumptions: EffectiveExport["assumptions"];
  notes: string[];
}

async function liveSource(viewer: Viewer, options: AclSnapshotReadOptions): Promise<ActionResult<ExportSource>> {
  const acls = await getAclSnapshot(viewer, options);
  if (!acls.ok) return acls;
  const assumptions = clusterOf(viewer.credential).authorizer;
  return { ok: true, data: { snapshot: acls.snapshot, info: acls.snapshot.info(), assumptions, notes: [] } };
}

/** The ACLs, super users and allow.everyone.if.no.acl.found the history journal holds for `at` (#20). */
async function asOfSource(viewer: Viewer, at: number): Promise<ActionResult<ExportSource>> {
  const rights = await auditRightsFor(viewer);
  if (!rights.superUser && !rights.acls) return { ok: false, code: "DENIED", message: AS_OF_NOT_ALLOWED };
  const state = await journalStateAt(clusterIdOf(viewer.credential), at);
  if (!state.ok) return state;
  const acls = aclsOf(state.data.state);
  const index = AclIndex.build(acls);
  const settings = authorizerConfigOf(state.data.state);
  const when = new Date(at).toISOString();
  const uncertain = [...state.data.uncertain].filter((k) => k.startsWith('["acl"')).length;
  return {
    ok: true,
    data: {
      snapshot: {
        index: () => index,
        resourceNames: (type, pattern) => [
          ...new Set(
            acls
              .filter((a) => a.resourceType === type && (!pattern || a.patternType === pattern))
              .map((a) => a.resourceName),
          ),
        ],
        matching: (type, name) => filterAcls(acls, matchingFilter(type, name)),
      },
      info: { takenAt: when, ageMs: Math.max(0, Date.now() - at), size: acls.length },
      assumptions: {
        ...clusterOf(viewer.credential).authorizer,
        superUsers: [...(settings.superUsers ?? [])],
        allowEveryoneIfNoAclFound: settings.allowEveryoneIfNoAclFound === true,
        source: `the console's settings as the history journal holds them at ${when}`,
      },
      notes: [
        vouchStatement(state.data.vouch, at),
        ...(uncertain > 0
          ? [
              `${uncertain} ACLs changed in a read window that contains this instant: they are counted as they were ` +
                "before the window.",
            ]
          : []),
        "The resources Kafka lists to you are today's; the ACLs and settings are those of that instant.",
      ],
    },
  };
}

/** Kafka's MATCH filter for one resource: every ACL that applies to it (LITERAL equal or `*`, PREFIXED a prefix). */
function matchingFilter(resourceType: ResourceType, resourceName: string): AclBindingFilter {
  return {
    resourceType,
    resourceName,
    patternType: "MATCH",
    principal: null,
    host: null,
    operation: "ANY",
    permissionType: "ANY",
  };
}

/** A prefix question answers at most this many known resources (the rest are counted in `omitted`). */
export const PREFIX_RESOURCE_LIMIT = 2_000;

type Listing = ActionResult<string[]>;

async function listing(viewer: Viewer, type: ResourceType, tokens?: Promise<DelegationToken[]>): Promise<Listing> {
  try {
    switch (type) {
      case "TOPIC":
      case "GROUP":
      case "TRANSACTIONAL_ID":
        return { ok: true, data: await listedNames(viewer, type) };
      case "DELEGATION_TOKEN":
        return {
          ok: true,
          data: (await (tokens ?? describeDelegationTokens(viewer.credential, null))).map((t) => t.tokenId),
        };
      case "USER":
        return {
          ok: true,
          data: [...new Set((await (tokens ?? describeDelegationTokens(viewer.credential, null))).map((t) => t.owner))],
        };
      case "CLUSTER":
        return { ok: true, data: [] };
    }
  } catch (error) {
    return toErrorResult(error, `list ${type} resources`);
  }
}

/** The names Kafka lists to the viewer, per type, and a note for each type it would not list. */
async function listedResources(
  viewer: Viewer,
  types: readonly ResourceType[],
  tokens?: Promise<DelegationToken[]>,
): Promise<{ listed: ListedResources; notes: string[] }> {
  const listed: ListedResources = {};
  const notes: string[] = [];
  await Promise.all(
    types.map(async (type) => {
      const l = await listing(viewer, type, tokens);
      if (l.ok) listed[type] = l.data;
      else notes.push(`${type} resources could not be listed (only those named in ACLs are included): ${l.message}`);
    }),
  );
  return { listed, notes: notes.sort() };
}

/**
 * Whether Kafka lists the resource to the viewer (a topic, group, transactional id or
 * token; the cluster and USER resources always count as listed), or why it could not say.
 */
export async function isResourceListed(
  viewer: Viewer,
  type: ResourceType,
  name: string,
): Promise<ActionResult<boolean>> {
  if (type === "CLUSTER" || type === "USER") return { ok: true, data: true };
  const l = await listing(viewer, type);
  return l.ok ? { ok: true, data: l.data.includes(name) } : l;
}

const LISTED_TYPES: readonly ResourceType[] = ["TOPIC", "GROUP", "TRANSACTIONAL_ID", "DELEGATION_TOKEN", "USER"];

/** The quotas Kafka applies to the principal's name, for each client id a quota names and for any other. */
function quotasFor(
  principal: string,
  configured: readonly ConfiguredQuota[],
): Extract<PrincipalView["quotas"], { user: string }> | { error: string } {
  const parsed = parsePrincipal(principal);
  if (principal === WILDCARD_PRINCIPAL || parsed === null)
    return { error: "User:* is not a user a client connects as: quotas apply to each user by name." };
  const clientIds = [
    ...new Set(configured.flatMap((q) => (typeof q.entity["client-id"] === "string" ? [q.entity["client-id"]] : []))),
  ].sort();
  // No quota entity can name the empty client id (Kafka refuses empty names): it stands for any other.
  return {
    user: parsed.name,
    clients: [...clientIds.map((c) => ({ clientId: c })), { clientId: null }].map(({ clientId }) => ({
      clientId,
      applied: appliedView(configured, { kind: "client", user: parsed.name, clientId: clientId ?? "" }),
    })),
  };
}

/** Everything the viewer may see about what `principal` can do, its quotas and its tokens. */
export async function principalView(
  viewer: Viewer,
  principal: string,
  query: PrincipalViewQuery,
  options: AclSnapshotReadOptions = {},
): Promise<ActionResult<PrincipalView>> {
  const tokens = describeDelegationTokens(viewer.credential, null);
  tokens.catch(() => undefined);
  // Now from the ACL snapshot, or as of an instant from the history journal (#20).
  const at = query.at ?? null;
  const source = at === null ? liveSource(viewer, options) : asOfSource(viewer, at);
  const [snapshot, listed, quotas, tokenList] = await Promise.all([
    source,
    listedResources(viewer, LISTED_TYPES, tokens),
    readConfiguredQuotas(viewer),
    tokens.then(
      (list): ActionResult<DelegationToken[]> => ({ ok: true, data: list }),
      (error: unknown) => toErrorResult(error, "describe delegation tokens"),
    ),
  ]);
  // An instant the journal cannot answer for is the caller's error, on its field.
  if (at !== null && !snapshot.ok) return snapshot;
  const assumptions = snapshot.ok ? snapshot.data.assumptions : clusterOf(viewer.credential).authorizer;
  const now = Date.now();
  return {
    ok: true,
    data: {
      principal,
      aclSnapshot: snapshot.ok ? snapshot.data.info : null,
      assumptions,
      permissions: snapshot.ok
        ? principalPermissions(
            snapshot.data.snapshot.index(),
            principal,
            knownResources(snapshot.data.snapshot, listed.listed),
            toAuthorizerConfig(assumptions),
            { host: query.host },
          )
        : { error: snapshot.message },
      notes: [
        ...(snapshot.ok ? snapshot.data.notes : []),
        ...(at !== null
          ? ["The quotas and tokens are today's: as of an instant applies to the ACLs and settings."]
          : []),
        ...listed.notes,
      ],
      quotas: quotas.ok ? quotasFor(principal, quotas.data) : { error: quotas.message },
      tokens: tokenList.ok
        ? {
            tokens: tokenList.data
              .filter((t) => t.owner === principal)
              .map((t) => toTokenView(t, viewer.principal, now)),
          }
        : { error: tokenList.message },
    },
  };
}

/**
 * The principals the ACLs name and the super users (suggestions for the principal and auditor forms), or Kafka's
 * refusal.
 */
export async function knownPrincipals(viewer: Viewer): Promise<ActionResult<string[]>> {
  const acls = await getAclSnapshot(viewer);
  if (!acls.ok) return acls;
  return {
    ok: true,
    data: [
      ...new Set([...clusterOf(viewer.credential).authorizer.superUsers, ...acls.snapshot.index().principals()]),
    ].sort(),
  };
}

/** "What can P do" or "who can do what" on a resource or a prefix, from one snapshot, as export rows. */
export async function effectivePermissionsExport(
  viewer: Viewer,
  query: EffectivePermissionsQuery,
  options: AclSnapshotReadOptions = {},
): Promise<ActionResult<EffectiveExport>> {
  const source = query.at === null ? await liveSource(viewer, options) : await asOfSource(viewer, query.at);
  if (!source.ok) return source;
  const { snapshot, assumptions, info } = source.data;
  const config = toAuthorizerConfig(assumptions);
  const { question, host } = query;
  const notes = [...source.data.notes, ...exportNotes(host, assumptions)];
  let rows: EffectiveExport["rows"];
  let omitted = 0;
  if (question.kind === "principal") {
    const listed = await listedResources(viewer, LISTED_TYPES);
    notes.push(...listed.notes);
    const permissions = principalPermissions(
      snapshot.index(),
      question.principal,
      knownResources(snapshot, listed.listed),
      config,
      { host, decisions: query.decisions },
    );
    rows = principalRows(permissions, query.decisions);
    omitted = permissions.sections.reduce((n, s) => n + s.total - s.resources.length, 0);
    if (omitted > 0)
      notes.push(
        `${omitted} known resources are left out: every operation there is DENIED for want of an ACL ` +
          `(decisions=all lists them).`,
      );
  } else if (question.kind === "resource") {
    const listed = await isResourceListed(viewer, question.resourceType, question.resourceName);
    const named = snapshot.resourceNames(question.resourceType, "LITERAL").includes(question.resourceName);
    const origin = listed.ok && listed.data ? (named ? "listed+acl" : "listed") : "acl";
    if (!listed.ok) notes.push(listed.message);
    else if (!listed.data)
      notes.push(
        `Kafka does not list ${question.resourceType} ${question.resourceName} to you: it does not exist, or ` +
          `you may not describe it. The rows say what the ACLs would allow.`,
      );
    // One resource: an index of just the ACLs that apply to it (Kafka's MATCH) gives the same decisions.
    const index = AclIndex.build(snapshot.matching(question.resourceType, question.resourceName));
    rows = whoCan(
      index,
      [{ resourceType: question.resourceType, resourceName: question.resourceName, origin }],
      config,
      host,
    );
  } else {
    const listed = await listedResources(viewer, [question.resourceType]);
    notes.push(...listed.notes);
    const under = resourcesUnderPrefix(knownResources(snapshot, listed.listed), question.resourceType, question.prefix);
    const unseen = under.at(-1)?.origin === "unseen" ? under.pop() : undefined;
    const kept = under.slice(0, PREFIX_RESOURCE_LIMIT);
    omitted = under.length - kept.length;
    if (omitted > 0)
      notes.push(
        `${under.length} known resources start with "${question.prefix}"; the first ${PREFIX_RESOURCE_LIMIT} ` +
          `are answered. Ask with a longer prefix.`,
      );
    rows = whoCan(snapshot.index(), unseen === undefined ? kept : [...kept, unseen], config, host);
  }
  return { ok: true, data: { question, host, aclSnapshot: info, assumptions, rows, omitted, notes } };
}
