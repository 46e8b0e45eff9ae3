/**
 * ACL lint: findings a person should look at, in a set Kafka would accept. A console
 * rule, not a Kafka one. Each finding names the ACLs it is about.
 *
 * errors   — the ACL cannot work as written: principal without a type (Kafka 4 refuses to
 *            create it; older clusters stored it and then failed every authorization on
 *            that resource), a CLUSTER not named kafka-cluster, an empty name;
 * warnings — it works, but not as its author most likely meant: an ALLOW that a DENY
 *            makes dead, a PREFIXED `*` (matches only names starting with `*`), spaces
 *            around a principal, a principal type in the wrong case, `Group:*` (not a
 *            wildcard), an operation the resource type never checks, hosts that are not
 *            the exact IP strings Kafka compares, group / transactional-id names that make
 *            StandardAuthorizer hang or throw, topic names no topic can have, duplicates;
 * With the brokers' principal mapping rules (options.principalMapping), also a warning for
 * principals shaped like a certificate DN or Kerberos principal that no rule can produce
 * (principal-mapping-lint.ts).
 *
 * info     — clean-up: ALLOWs made redundant by a broader ALLOW; names starting with `*`,
 *            which the LITERAL `*` ACLs do not reach in StandardAuthorizer.
 *
 * Cost: one AclIndex build, then per ALLOW only the groups whose pattern covers it (one
 * hash lookup per distinct prefix length), so 100k ACLs lint in well under a second.
 */
import { CLUSTER_RESOURCE_NAME, WILDCARD_HOST, WILDCARD_RESOURCE, type AclBinding } from "../types";
import { AclIndex, bindingKey, candidates, type AclGroup, type IndexedAcl } from "./acl-index";
import { SUPPORTED_OPERATIONS, isOperationSupported } from "./operations";
import type { PrincipalMappingConfig } from "../identity/principal-map";
import type { RegexBudget } from "../identity/regex-budget";
import { hasMappingRules, unproduciblePrincipalFindings } from "./principal-mapping-lint";

export type FindingSeverity = "error" | "warning" | "info";

export const LINT_CODES = [
  "principal-without-type",
  "invalid-cluster-name",
  "empty-resource-name",
  "duplicate",
  "dead-allow",
  "prefixed-wildcard",
  "principal-whitespace",
  "principal-type-case",
  "non-user-wildcard-principal",
  "operation-not-applicable",
  "host-not-ip",
  "authorizer-hang-name",
  "impossible-topic-name",
  "redundant-allow",
  "wildcard-skips-name",
  "principal-not-producible",
] as const;
export type LintCode = (typeof LINT_CODES)[number];

/**
 * Findings that name, after the ACL they are about, the ACL that makes it so: the DENY
 * that kills an ALLOW, the broader ALLOW that makes one redundant. The others are about
 * every ACL they name (the copies of a duplicate, the ACLs of a principal no mapping rule
 * produces, or the one ACL).
 */
const NAMES_ITS_CAUSE: ReadonlySet<LintCode> = new Set<LintCode>(["dead-allow", "redundant-allow"]);

/** The ACLs a finding is about (what the ACL list's lint filter lists; the dashboard counts them per code). */
export function flaggedAcls(f: Finding): AclBinding[] {
  return NAMES_ITS_CAUSE.has(f.code) ? f.acls.slice(0, 1) : f.acls;
}

export interface Finding {
  severity: FindingSeverity;
  code: LintCode;
  message: string;
  acls: AclBinding[];
}

/** org.apache.kafka.common.internals.Topic: legal characters and maximum length. */
const TOPIC_CHARS = /^[a-zA-Z0-9._-]+$/;
const TOPIC_MAX_LENGTH = 249;

const SEVERITY_ORDER: Record<FindingSeverity, number> = { error: 0, warning: 1, info: 2 };

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
/** Java's InetAddress.getHostAddress() for IPv6: eight groups, no `::`, optional %scope. */
const IPV6_JAVA = /^([0-9a-f]{1,4}:){7}[0-9a-f]{1,4}(%.+)?$/;

function describe(b: AclBinding): string {
  return (
    `${b.permissionType} ${b.principal} ${b.operation} on ${b.resourceType} ` +
    `${b.patternType === "PREFIXED" ? "prefix " : ""}${JSON.stringify(b.resourceName)}` +
    `${b.host === WILDCARD_HOST ? "" : ` from ${b.host}`}`
  );
}

/** The groups whose pattern applies to every resource the pattern of `b` applies to (StandardAuthorizer semantics). */
function coveringGroups(index: AclIndex, b: AclBinding): AclGroup[] {
  const section = index.section(b.resourceType);
  const out: AclGroup[] = [];
  // StandardAuthorizer skips LITERAL `*` for names starting with `*` (see authorize.ts),
  // so it covers a LITERAL name that does not, and a prefix only if no name under it does.
  const isWildcardGroup = (g: AclGroup) =>
    g.entries[0]!.binding.patternType === "LITERAL" && g.entries[0]!.binding.resourceName === WILDCARD_RESOURCE;
  if (b.patternType === "LITERAL") {
    if (b.resourceName === WILDCARD_RESOURCE) {
      const at = section.positionByName.get(WILDCARD_RESOURCE);
      const g = at === undefined ? null : section.names[at]!.literal;
      if (g !== null) out.push(g);
      return out;
    }
    const skipsWildcard = b.resourceName.startsWith(WILDCARD_RESOURCE);
    return index.applicableGroups(b.resourceType, b.resourceName).filter((g) => !(skipsWildcard && isWildcardGroup(g)));
  }
  const wildcardCovers = b.resourceName.length > 0 && !b.resourceName.startsWith(WILDCARD_RESOURCE);
  return index
    .coveringGroupsOfPrefix(b.resourceType, b.resourceName)
    .filter((g) => wildcardCovers || !isWildcardGroup(g));
}

function principalFindings(
  b: AclBinding,
  add: (severity: FindingSeverity, code: LintCode, message: string) => void,
): void {
  const p = b.principal;
  const colon = p.indexOf(":");
  if (colon < 0) {
    add(
      "error",
      "principal-without-type",
      `Principal ${JSON.stringify(p)} has no type: write it as Type:name (for example ` +
        `User:${p.trim() || "alice"}). Kafka 4 refuses to create it; older clusters stored it and then failed ` +
        `every authorization on ${b.resourceType} ${JSON.stringify(b.resourceName)}.`,
    );
    return;
  }
  const type = p.slice(0, colon);
  const name = p.slice(colon + 1);
  if (p !== p.trim() || type !== type.trim() || name !== name.trim()) {
    add(
      "warning",
      "principal-whitespace",
      `Principal ${JSON.stringify(p)} has spaces around its type or name; Kafka compares principals exactly, ` +
        `so it will not match ${JSON.stringify(`${type.trim()}:${name.trim()}`)}.`,
    );
  }
  if (type.trim() !== "User" && type.trim().toLowerCase() === "user") {
    add(
      "warning",
      "principal-type-case",
      `Principal type ${JSON.stringify(type)} is not "User": principal types are case-sensitive, so this ACL ` +
        `matches no authenticated user.`,
    );
  }
  if (name === "*" && type !== "User") {
    add(
      "warning",
      "non-user-wildcard-principal",
      `${p} is not a wildcard: only User:* matches every principal (of every type). This ACL matches only a ` +
        `principal literally named "*".`,
    );
  }
}

function hostFindings(b: AclBinding, add: (severity: FindingSeverity, code: LintCode, message: string) => void): void {
  const h = b.host;
  if (h === WILDCARD_HOST || IPV4.test(h) || IPV6_JAVA.test(h)) return;
  const hint = h.includes("/")
    ? "Kafka has no CIDR ranges"
    : h.includes("::")
      ? "IPv6 must be written the way Java prints it, uncompressed (0:0:0:0:0:0:0:1, not ::1)"
      : h !== h.trim()
        ? "it has surrounding spaces"
        : "Kafka does no DNS lookups; hosts are compared as exact IP strings";
  add("warning", "host-not-ip", `Host ${JSON.stringify(h)} will never match a client address: ${hint}.`);
}

function nameFindings(b: AclBinding, add: (severity: FindingSeverity, code: LintCode, message: string) => void): void {
  if (b.resourceName.length === 0)
    add("error", "empty-resource-name", "The resource name is empty; Kafka refuses to create such an ACL.");
  if (b.resourceType === "CLUSTER" && b.resourceName !== CLUSTER_RESOURCE_NAME) {
    add(
      "error",
      "invalid-cluster-name",
      `The CLUSTER resource is always named ${CLUSTER_RESOURCE_NAME}; ${JSON.stringify(b.resourceName)} ` +
        `matches nothing Kafka checks.`,
    );
  }
  if (b.patternType === "PREFIXED" && b.resourceName === WILDCARD_RESOURCE) {
    add(
      "warning",
      "prefixed-wildcard",
      `A PREFIXED "*" only matches ${b.resourceType} names that start with "*"; for every ${b.resourceType} ` +
        `use LITERAL "*".`,
    );
  }
  const first = b.resourceName.charCodeAt(0);
  if ((b.resourceType === "GROUP" || b.resourceType === "TRANSACTIONAL_ID") && first < 0x2a) {
    add(
      "warning",
      "authorizer-hang-name",
      `${b.resourceType} name ${JSON.stringify(b.resourceName)} starts with a character sorting below "*": ` +
        `Kafka's StandardAuthorizer can loop forever or throw when authorizing another ${b.resourceType} that ` +
        `shares its first character. Avoid such names.`,
    );
  }
  if (
    b.resourceType !== "TOPIC" &&
    b.resourceName.startsWith(WILDCARD_RESOURCE) &&
    !(b.resourceName === WILDCARD_RESOURCE && b.patternType === "LITERAL")
  ) {
    add(
      "info",
      "wildcard-skips-name",
      `${b.resourceType} names starting with "*" are not reached by LITERAL "*" ACLs in Kafka's ` +
        `StandardAuthorizer (neither ALLOW nor DENY).`,
    );
  }
  // (`*` itself: the wildcard, or the PREFIXED `*` reported above.)
  if (b.resourceType === "TOPIC" && b.resourceName !== WILDCARD_RESOURCE && b.resourceName.length > 0) {
    const tooLong =
      b.patternType === "LITERAL"
        ? b.resourceName.length > TOPIC_MAX_LENGTH
        : b.resourceName.length >= TOPIC_MAX_LENGTH;
    const dots = b.patternType === "LITERAL" && (b.resourceName === "." || b.resourceName === "..");
    if (!TOPIC_CHARS.test(b.resourceName) || tooLong || dots) {
      add(
        "warning",
        "impossible-topic-name",
        `No topic can be ` +
          `named ${b.patternType === "PREFIXED" ? "with the prefix " : ""}${JSON.stringify(b.resourceName)}: ` +
          `topic names are 1-${TOPIC_MAX_LENGTH} characters of a-z, A-Z, 0-9, ".", "_" and "-", and not "." or ` +
          `"..". This ACL never applies.`,
      );
    }
  }
  if (!isOperationSupported(b.resourceType, b.operation)) {
    add(
      "warning",
      "operation-not-applicable",
      `${b.operation} is never checked on ${b.resourceType} resources, so this ACL has no ` +
        `effect. ${b.resourceType} supports ALL, ${SUPPORTED_OPERATIONS[b.resourceType].join(", ")}.`,
    );
  }
}

/**
 * Lint a full ACL set; `principalMapping`: the brokers' mapping rules, when known, checked
 * within `regexBudget` when given (what is left unchecked past it is one info finding).
 */
export function lintAcls(
  acls: readonly AclBinding[],
  options: { principalMapping?: PrincipalMappingConfig | null; regexBudget?: RegexBudget | null } = {},
): Finding[] {
  const findings: Array<Finding & { at: number }> = [];
  const index = AclIndex.build(acls);

  // Duplicates, on the raw input.
  const copies = new Map<string, { at: number; list: AclBinding[] }>();
  acls.forEach((b, i) => {
    const key = bindingKey(b);
    const slot = copies.get(key);
    if (slot === undefined) copies.set(key, { at: i, list: [b] });
    else slot.list.push(b);
  });
  for (const { at, list } of copies.values()) {
    if (list.length > 1) {
      findings.push({
        severity: "warning",
        code: "duplicate",
        message: `${describe(list[0]!)} appears ${list.length} times; Kafka keeps one.`,
        acls: list,
        at,
      });
    }
  }

  for (const e of index.entries) {
    const b = e.binding;
    const add = (severity: FindingSeverity, code: LintCode, message: string, more: AclBinding[] = []) =>
      findings.push({ severity, code, message, acls: [b, ...more], at: e.order });
    principalFindings(b, add);
    hostFindings(b, add);
    nameFindings(b, add);
    if (e.allowMask === 0) continue;
    let dead: IndexedAcl | null = null;
    let broader: IndexedAcl | null = null;
    for (const g of coveringGroups(index, b)) {
      for (const c of candidates(g, b.principal, b.host)) {
        if (c === e) continue;
        if (c.denyMask !== 0 && (e.allowMask & ~c.denyMask) === 0) dead ??= c;
        if (c.allowMask !== 0 && (e.allowMask & ~c.allowMask) === 0) broader ??= c;
      }
      if (dead !== null) break;
    }
    if (dead !== null) {
      add(
        "warning",
        "dead-allow",
        `${describe(b)} never takes effect: ${describe(dead.binding)} denies everything it allows.`,
        [dead.binding],
      );
    } else if (broader !== null) {
      add(
        "info",
        "redundant-allow",
        `${describe(b)} is redundant: ${describe(broader.binding)} already allows everything it allows.`,
        [broader.binding],
      );
    }
  }
  if (hasMappingRules(options.principalMapping)) {
    for (const f of unproduciblePrincipalFindings(acls, options.principalMapping, options.regexBudget ?? null)) {
      findings.push({ code: "principal-not-producible", ...f, severity: f.severity ?? "warning" });
    }
  }
  findings.sort((x, y) => SEVERITY_ORDER[x.severity] - SEVERITY_ORDER[y.severity] || x.at - y.at);
  return findings.map((f) => ({ severity: f.severity, code: f.code, message: f.message, acls: f.acls }));
}
