/**
 * Effective permissions, laid out for people and auditors: pure (no Kafka, no env), so
 * the bench and the unit tests run it on synthetic ACL sets.
 *
 * - `principalPermissions`: what principal P can do on every resource the console knows
 *   (listed by Kafka to the caller, or named by a LITERAL ACL), each operation valid for
 *   the type, with the deciding rule; P's PREFIXED and `*` grants (which also cover
 *   names not yet seen) with the DENYs carved out of them; the ACLs that name P.
 * - `whoCan`: for resources (one, or every known one under a prefix plus "any other name
 *   under it"), every principal an applicable ACL names, the super users and `User:*`
 *   (standing for every principal no ACL names), by operation.
 *
 * Every decision is the policy core's `authorize` (Kafka's StandardAuthorizer: super user,
 * then the first matching DENY, then a matching ALLOW with its implications — READ,
 * WRITE, DELETE, ALTER allow DESCRIBE, ALTER_CONFIGS allows DESCRIBE_CONFIGS — then
 * DENIED when the resource has any ACL, else allow.everyone.if.no.acl.found), over the
 * groups `scanOrder` collects once per resource. All of it reads one snapshot's index.
 *
 * Hosts: without one, the answers are for a client whose address no ACL names (only
 * `*`-host ACLs count). Where an ACL of the principal (or `User:*`) that applies to the
 * resource names a host, the decision from that host is given too when it differs.
 */
import { RESOURCE_SECTIONS } from "@/lib/schemas/resources";
import {
  CLUSTER_RESOURCE_NAME,
  RESOURCE_TYPES,
  SUPPORTED_OPERATIONS,
  WILDCARD_HOST,
  WILDCARD_PRINCIPAL,
  WILDCARD_RESOURCE,
  authorizeInScanOrder,
  effectiveForPrincipal,
  isSuperUser,
  representativeName,
  scanOrder,
  type AclBinding,
  type AclGroup,
  type AclIndex,
  type AclOperation,
  type AuthorizationResult,
  type AuthorizerConfig,
  type MatchingRule,
  type ResourceType,
} from "@/lib/policy";
import type { AccessCheckAssumptions } from "@/lib/schemas/access-check";
import type {
  EffectiveExport,
  EffectiveRow,
  PermissionCell,
  PrincipalPermissions,
  PrincipalSection,
  RESOURCE_ORIGINS,
} from "@/lib/schemas/effective-permissions";
import { csvCell } from "./acl-io";

/** A request host no ACL names: only `*`-host ACLs match it. */
const UNNAMED_HOST = "\u0000";

export type ResourceOrigin = (typeof RESOURCE_ORIGINS)[number];

export interface KnownResource {
  name: string;
  origin: ResourceOrigin;
}

/** The resources of each type the console knows. */
export type KnownResources = Record<ResourceType, KnownResource[]>;

/** The names Kafka listed to the caller, per type (topics, groups, transactional ids, token ids, token owners). */
export type ListedResources = Partial<Record<ResourceType, readonly string[]>>;

/** What the exports and views need of an ACL snapshot (lib/services/acl-snapshot.ts AclSnapshot has it). */
export interface SnapshotSource {
  index(): AclIndex;
  resourceNames(resourceType: ResourceType, patternType?: "LITERAL" | "PREFIXED"): string[];
}

/** The order the views show resource types in: the resource index's. */
export const VIEW_TYPES = RESOURCE_SECTIONS;

/**
 * Per type: the listed names and every LITERAL ACL name (not `*`, which stands for every
 * name), sorted, each with where it is known from. CLUSTER is always `kafka-cluster`.
 */
export function knownResources(
  snapshot: Pick<SnapshotSource, "resourceNames">,
  listed: ListedResources,
): KnownResources {
  const out = {} as KnownResources;
  for (const type of RESOURCE_TYPES) {
    if (type === "CLUSTER") {
      out.CLUSTER = [{ name: CLUSTER_RESOURCE_NAME, origin: "listed" }];
      continue;
    }
    const origins = new Map<string, ResourceOrigin>();
    for (const name of listed[type] ?? []) origins.set(name, "listed");
    for (const name of snapshot.resourceNames(type, "LITERAL")) {
      if (name === WILDCARD_RESOURCE) continue;
      origins.set(name, origins.has(name) ? "listed+acl" : "acl");
    }
    out[type] = [...origins]
      .map(([name, origin]) => ({ name, origin }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
  return out;
}

// ---- why, in short labels ---------------------------------------------------------------------

/**
 * The deciding rule in short labels: `super.users`; for an ACL, `DENY wins`, `User:*` when
 * it is a wildcard-principal grant for someone else, its pattern when not the exact name,
 * its host when pinned, `implied by READ` / `ALL` when it grants the operation through
 * another; `no ACL matched`; the allow.everyone.if.no.acl.found default.
 */
export function ruleVia(
  rule: MatchingRule,
  principal: string,
  operation: AclOperation,
  allowEveryoneIfNoAclFound = false,
): string[] {
  switch (rule.kind) {
    case "superUser":
      return ["super.users"];
    case "noAclMatched":
      return ["no ACL matched"];
    case "default":
      return [`no ACLs: allow.everyone.if.no.acl.found=${allowEveryoneIfNoAclFound}`];
    case "acl": {
      const acl = rule.acl;
      const via: string[] = [];
      if (acl.permissionType === "DENY") via.push("DENY wins");
      if (acl.principal === WILDCARD_PRINCIPAL && principal !== WILDCARD_PRINCIPAL) via.push(WILDCARD_PRINCIPAL);
      if (acl.patternType === "PREFIXED") via.push(`PREFIXED "${acl.resourceName}"`);
      else if (acl.resourceName === WILDCARD_RESOURCE) via.push(`LITERAL "*"`);
      if (acl.host !== WILDCARD_HOST) via.push(`from ${acl.host}`);
      if (acl.operation === "ALL") via.push("ALL");
      else if (acl.operation !== operation) via.push(`implied by ${acl.operation}`);
      return via;
    }
  }
}

// ---- one resource, many questions ---------------------------------------------------------------

/** Hosts (other than `*`) named by the group ACLs of `principal` or `User:*`. */
function namedHosts(groups: readonly AclGroup[], principal: string): string[] {
  const hosts = new Set<string>();
  const add = (host: string) => {
    if (host !== WILDCARD_HOST) hosts.add(host);
  };
  for (const g of groups) {
    if (g.byPrincipal === null) {
      for (const e of g.entries)
        if (e.binding.principal === principal || e.binding.principal === WILDCARD_PRINCIPAL) add(e.binding.host);
    } else {
      for (const host of g.byPrincipal.get(principal)?.keys() ?? []) add(host);
      if (principal !== WILDCARD_PRINCIPAL)
        for (const host of g.byPrincipal.get(WILDCARD_PRINCIPAL)?.keys() ?? []) add(host);
    }
  }
  return [...hosts].sort();
}

/** The principals an applicable ACL names (User:* included). */
function principalsOf(groups: readonly AclGroup[]): Set<string> {
  const out = new Set<string>();
  for (const g of groups) {
    if (g.byPrincipal !== null) for (const p of g.byPrincipal.keys()) out.add(p);
    else for (const e of g.entries) out.add(e.binding.principal);
  }
  return out;
}

/** Shared by the cells whose answer is the same from every host (most of them): nothing is ever pushed to it. */
const NO_OTHER_HOSTS: PermissionCell["otherHosts"] = [];

const sameResult = (a: AuthorizationResult, b: AuthorizationResult) => a.decision === b.decision && a.rule === b.rule;

/** Whether an ACL of `principal` or `User:*` is among the groups: otherwise every decision is the groups' default. */
function namesPrincipal(groups: readonly AclGroup[], principal: string): boolean {
  for (const g of groups) {
    if (g.byPrincipal !== null) {
      if (g.byPrincipal.has(principal) || g.byPrincipal.has(WILDCARD_PRINCIPAL)) return true;
    } else {
      for (const e of g.entries)
        if (e.binding.principal === principal || e.binding.principal === WILDCARD_PRINCIPAL) return true;
    }
  }
  return false;
}

/**
 * ruleVia, each answer computed once per rule and operation (a rule is one object per
 * deciding ACL, or one of four constants), and the same array handed out again.
 */
function viaCache(
  principal: string,
  allowEveryoneIfNoAclFound: boolean,
): (rule: MatchingRule, operation: AclOperation) => string[] {
  const cache = new Map<MatchingRule, Map<AclOperation, string[]>>();
  return (rule, operation) => {
    let byOp = cache.get(rule);
    if (byOp === undefined) {
      byOp = new Map();
      cache.set(rule, byOp);
    }
    let via = byOp.get(operation);
    if (via === undefined) {
      via = ruleVia(rule, principal, operation, allowEveryoneIfNoAclFound);
      byOp.set(operation, via);
    }
    return via;
  };
}

/**
 * The cells of one principal on one resource. `host` null: a host no ACL names, plus the
 * hosts the principal's applicable ACLs name where the answer differs.
 */
function cellsFor(
  groups: readonly AclGroup[],
  principal: string,
  operations: readonly AclOperation[],
  host: string | null,
  config: AuthorizerConfig,
  via: (rule: MatchingRule, operation: AclOperation) => string[] = viaCache(
    principal,
    config.allowEveryoneIfNoAclFound === true,
  ),
): PermissionCell[] {
  const requestHost = host ?? UNNAMED_HOST;
  const others = host === null && !isSuperUser(principal, config) ? namedHosts(groups, principal) : [];
  // One request object for every question (authorize reads it and keeps nothing).
  const request = { principal, host: requestHost, operation: operations[0]! };
  return operations.map((operation) => {
    request.host = requestHost;
    request.operation = operation;
    const result = authorizeInScanOrder(groups, request, config);
    let otherHosts: PermissionCell["otherHosts"] = NO_OTHER_HOSTS;
    for (const h of others) {
      request.host = h;
      const at = authorizeInScanOrder(groups, request, config);
      if (sameResult(at, result)) continue;
      if (otherHosts === NO_OTHER_HOSTS) otherHosts = [];
      otherHosts.push({ host: h, decision: at.decision, rule: at.rule, via: via(at.rule, operation) });
    }
    return { operation, decision: result.decision, rule: result.rule, via: via(result.rule, operation), otherHosts };
  });
}

/**
 * One principal's cells on one resource, for a host no ACL names (`host` null: with the
 * named hosts where the answer differs) or from `host`: the principal page's cells, for
 * the resource page's matrix.
 */
export function resourceCells(
  index: AclIndex,
  resourceType: ResourceType,
  resourceName: string,
  principal: string,
  config: AuthorizerConfig,
  host: string | null = null,
): PermissionCell[] {
  return cellsFor(
    scanOrder(index, resourceType, resourceName),
    principal,
    SUPPORTED_OPERATIONS[resourceType],
    host,
    config,
  );
}

/**
 * One question asked from a host no ACL names, decided as the principal, resource and
 * who-can pages decide it (the Access check's default): the answer, and each host the
 * applicable ACLs of the principal (or User:*) name where the answer differs.
 */
export function decideFromUnnamedHost(
  index: AclIndex,
  request: { principal: string; operation: AclOperation; resourceType: ResourceType; resourceName: string },
  config: AuthorizerConfig,
): PermissionCell {
  return cellsFor(
    scanOrder(index, request.resourceType, request.resourceName),
    request.principal,
    [request.operation],
    null,
    config,
  )[0]!;
}

/** Whether a cell says something beyond "no ACL gives it": ALLOWED, or an ACL (a DENY) decides, at some host. */
const isRelevant = (c: PermissionCell) =>
  c.decision === "ALLOWED" ||
  c.rule.kind === "acl" ||
  c.otherHosts.some((o) => o.decision === "ALLOWED" || o.rule.kind === "acl");

// ---- what can P do ------------------------------------------------------------------------------

export interface PrincipalOptions {
  host: string | null;
  /** relevant: only resources where something is ALLOWED or an ACL decides; all: every known resource. */
  decisions?: "relevant" | "all";
}

function coversWords(resourceType: ResourceType, patternType: "LITERAL" | "PREFIXED", name: string): string {
  return patternType === "PREFIXED" ? `every ${resourceType} starting with "${name}"` : `every ${resourceType}`;
}

function compareAcls(a: AclBinding, b: AclBinding): number {
  const ka =
    `${a.resourceType}\u0000${a.resourceName}\u0000${a.patternType}\u0000${a.operation}\u0000` +
    `${a.permissionType}\u0000${a.host}`;
  const kb =
    `${b.resourceType}\u0000${b.resourceName}\u0000${b.patternType}\u0000${b.operation}\u0000` +
    `${b.permissionType}\u0000${b.host}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/** Everything `principal` can do on the known resources, its pattern grants and the ACLs that name it. */
export function principalPermissions(
  index: AclIndex,
  principal: string,
  known: KnownResources,
  config: AuthorizerConfig,
  options: PrincipalOptions,
): PrincipalPermissions {
  const all = options.decisions === "all";
  const via = viaCache(principal, config.allowEveryoneIfNoAclFound === true);
  // Without a super user or the allow-if-no-ACL default, a resource none of whose ACLs names
  // the principal or User:* can only be DENIED for want of an ACL: not relevant, not decided.
  const shortcut = !all && !isSuperUser(principal, config) && config.allowEveryoneIfNoAclFound !== true;
  const sections: PrincipalSection[] = VIEW_TYPES.map((resourceType) => {
    const operations = SUPPORTED_OPERATIONS[resourceType];
    const resources: PrincipalSection["resources"] = [];
    for (const r of known[resourceType]) {
      const groups = scanOrder(index, resourceType, r.name);
      if (shortcut && !namesPrincipal(groups, principal)) continue;
      const cells = cellsFor(groups, principal, operations, options.host, config, via);
      if (all || cells.some(isRelevant)) resources.push({ resourceName: r.name, origin: r.origin, cells });
    }
    return { resourceType, operations: [...operations], total: known[resourceType].length, resources };
  });
  const effective = effectiveForPrincipal(index, principal, options.host ?? undefined, config);
  const flag = config.allowEveryoneIfNoAclFound === true;
  const patterns = effective.patterns
    .filter((p) => p.patternType === "PREFIXED" || p.resourceName === WILDCARD_RESOURCE)
    .map((p) => ({
      resourceType: p.resourceType,
      patternType: p.patternType,
      resourceName: p.resourceName,
      covers: coversWords(p.resourceType, p.patternType, p.resourceName),
      cells: p.operations
        .filter((c) => c.operation !== "ALL")
        .map((c) => ({
          operation: c.operation,
          decision: c.decision,
          rule: c.rule,
          via: ruleVia(c.rule, principal, c.operation, flag),
          exceptions: c.exceptions,
        })),
    }))
    .sort(
      (a, b) =>
        VIEW_TYPES.indexOf(a.resourceType) - VIEW_TYPES.indexOf(b.resourceType) ||
        (a.resourceName < b.resourceName ? -1 : a.resourceName > b.resourceName ? 1 : 0),
    );
  const own = index.aclsOfPrincipal(principal).map((e) => e.binding);
  const wildcard =
    principal === WILDCARD_PRINCIPAL ? [] : index.aclsOfPrincipal(WILDCARD_PRINCIPAL).map((e) => e.binding);
  return {
    principal,
    host: options.host,
    superUser: isSuperUser(principal, config),
    sections,
    patterns,
    acls: { own: [...own].sort(compareAcls), wildcard: [...wildcard].sort(compareAcls) },
  };
}

// ---- who can do what ----------------------------------------------------------------------------

export interface WhoCanResource {
  resourceType: ResourceType;
  /** The name shown; for `unseen`, the prefix. */
  resourceName: string;
  origin: ResourceOrigin | "unseen";
}

/** The resources of a prefix question: every known one under it, then "any other name under it". */
export function resourcesUnderPrefix(
  known: KnownResources,
  resourceType: ResourceType,
  prefix: string,
): WhoCanResource[] {
  const under: WhoCanResource[] = known[resourceType]
    .filter((r) => r.name.startsWith(prefix))
    .map((r) => ({ resourceType, resourceName: r.name, origin: r.origin }));
  if (resourceType !== "CLUSTER") under.push({ resourceType, resourceName: prefix, origin: "unseen" });
  return under;
}

/** The principals of a who-can answer: super users, those an applicable ACL names, User:* last (everyone else). */
function whoCanPrincipals(groups: readonly AclGroup[], config: AuthorizerConfig): string[] {
  const named = principalsOf(groups);
  named.delete(WILDCARD_PRINCIPAL);
  const supers = [...(config.superUsers ?? [])].sort();
  for (const s of supers) named.delete(s);
  return [...supers, ...[...named].sort(), WILDCARD_PRINCIPAL];
}

const pickDecision = ({ decision, rule, via }: Pick<PermissionCell, "decision" | "rule" | "via">) => ({
  decision,
  rule,
  via,
});

/**
 * Flatten cells into export rows (one per host where the answer differs); `onlyRelevant` drops the "no ACL gives it"
 * ones.
 */
function rowsOf(
  principal: string,
  r: WhoCanResource,
  cells: readonly PermissionCell[],
  host: string | null,
  out: EffectiveRow[],
  onlyRelevant = false,
): void {
  const { resourceType, resourceName, origin } = r;
  const row = (
    operation: PermissionCell["operation"],
    at: string | null,
    d: Pick<PermissionCell, "decision" | "rule" | "via">,
  ) => out.push({ principal, resourceType, resourceName, resource: origin, operation, host: at, ...pickDecision(d) });
  for (const c of cells) {
    if (!onlyRelevant || c.decision === "ALLOWED" || c.rule.kind === "acl") row(c.operation, host, c);
    for (const o of c.otherHosts) row(c.operation, o.host, o);
  }
}

/** Who can do what on each resource: one row per principal, operation and (differing) host. */
export function whoCan(
  index: AclIndex,
  resources: readonly WhoCanResource[],
  config: AuthorizerConfig,
  host: string | null,
): EffectiveRow[] {
  const rows: EffectiveRow[] = [];
  for (const r of resources) {
    const name = r.origin === "unseen" ? representativeName("PREFIXED", r.resourceName) : r.resourceName;
    const groups = scanOrder(index, r.resourceType, name);
    const operations = SUPPORTED_OPERATIONS[r.resourceType];
    for (const principal of whoCanPrincipals(groups, config))
      rowsOf(principal, r, cellsFor(groups, principal, operations, host, config), host, rows);
  }
  return rows;
}

/**
 * A principal's answer as export rows: per resource shown, the cells that are ALLOWED or
 * decided by an ACL (with `all`: every cell), then its pattern grants as `unseen` rows.
 */
export function principalRows(
  permissions: PrincipalPermissions,
  decisions: "relevant" | "all" = "relevant",
): EffectiveRow[] {
  const rows: EffectiveRow[] = [];
  for (const s of permissions.sections) {
    for (const r of s.resources) {
      rowsOf(
        permissions.principal,
        { resourceType: s.resourceType, resourceName: r.resourceName, origin: r.origin },
        r.cells,
        permissions.host,
        rows,
        decisions === "relevant",
      );
    }
  }
  for (const p of permissions.patterns) {
    for (const c of p.cells) {
      rows.push({
        principal: permissions.principal,
        resourceType: p.resourceType,
        resourceName: p.resourceName,
        resource: "unseen",
        operation: c.operation,
        host: permissions.host,
        decision: c.decision,
        rule: c.rule,
        via: [
          ...c.via,
          ...(c.exceptions.length > 0 ? [`except ${c.exceptions.map((e) => e.resourceName).join(", ")}`] : []),
        ],
      });
    }
  }
  return rows;
}

// ---- exports ------------------------------------------------------------------------------------

export const EXPORT_CSV_HEADER = [
  "principal",
  "resource_type",
  "resource_name",
  "resource",
  "operation",
  "host",
  "decision",
  "rule",
  "via",
  "acl_permission",
  "acl_principal",
  "acl_operation",
  "acl_pattern_type",
  "acl_resource_name",
  "acl_host",
  "snapshot_taken_at",
] as const;

/** RFC 4180 CSV (CRLF), spreadsheet formulas escaped like the ACL export; `host` empty = a host no ACL names. */
export function exportToCsv(answer: Pick<EffectiveExport, "rows" | "aclSnapshot">): string {
  const parts = [EXPORT_CSV_HEADER.join(","), "\r\n"];
  const takenAt = csvCell(answer.aclSnapshot.takenAt);
  // Kafka's enum names need no quoting; free text (principals, names, hosts, labels) goes through csvCell.
  for (const r of answer.rows) {
    const acl = r.rule.kind === "acl" ? r.rule.acl : null;
    parts.push(
      `${csvCell(r.principal)},${r.resourceType},${csvCell(r.resourceName)},${r.resource},${r.operation},` +
        `${r.host === null ? "" : csvCell(r.host)},${r.decision},${r.rule.kind},` +
        `${r.via.length === 0 ? "" : csvCell(r.via.join("; "))},` +
        (acl === null
          ? ",,,,,,"
          : `${acl.permissionType},${csvCell(acl.principal)},${acl.operation},${acl.patternType},` +
            `${csvCell(acl.resourceName)},${csvCell(acl.host)},`) +
        `${takenAt}\r\n`,
    );
  }
  return parts.join("");
}

/** The file name of an export: what it is about and the snapshot's time. */
export function exportFileName(question: EffectiveExport["question"], takenAt: string, format: "json" | "csv"): string {
  const about =
    question.kind === "principal"
      ? question.principal
      : question.kind === "resource"
        ? `${question.resourceType}-${question.resourceName}`
        : `${question.resourceType}-${question.prefix}-prefix`;
  const safe = about.replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 80);
  return `effective-permissions-${safe}-${takenAt.replace(/[:.]/g, "-")}.${format}`;
}

/** A client address no ACL in `acls` names, for links to the Access check (which needs a real address). */
export function unnamedHost(named: Iterable<string>): string {
  const taken = new Set(named);
  // TEST-NET-1 (RFC 5737): documentation addresses no real client has.
  for (let i = 1; i < 255; i++) {
    const candidate = `192.0.2.${i}`;
    if (!taken.has(candidate)) return candidate;
  }
  return "198.51.100.1";
}

/** Notes that every export carries: the host meaning and the assumptions it decides under. */
export function exportNotes(
  host: string | null,
  assumptions: Pick<AccessCheckAssumptions, "superUsers" | "allowEveryoneIfNoAclFound" | "source">,
): string[] {
  return [
    host === null
      ? "host empty/null: a client whose address no ACL names (only *-host ACLs count); rows with a host give " +
        "the answer from that address where it differs."
      : `Every row is for a client connecting from ${host}.`,
    `Assuming super.users = ${assumptions.superUsers.join(";") || "(none)"} and allow.everyone.if.no.acl.found ` +
      `= ${assumptions.allowEveryoneIfNoAclFound} (${assumptions.source}).`,
    "resource: listed = Kafka lists it to you; acl = named by a LITERAL ACL; unseen = any other name the " +
      "pattern (PREFIXED prefix, or LITERAL *) covers.",
  ];
}
