/**
 * The Access check answer laid out for people: pure (no Kafka, no env), so every
 * sentence the page and the API show is unit-tested. The decision itself is the policy
 * core's `authorize` over the ACLs that apply to the resource (Kafka's MATCH), with the
 * ACL snapshot's authorizer index when the caller has one; this module only puts it in
 * words:
 *
 * - `describeRule`: the rule that decided, as one sentence (super user, the deciding
 *   ACL, "no ACL matched", or the allow.everyone.if.no.acl.found default);
 * - `classifyAcl`: for each applicable ACL, whether it decides, also matches, or why
 *   not (other principal, host or operation; a DENY never implies);
 * - `accessNotes`: what else follows (implied operations, prefixes and wildcards,
 *   hosts, how to change the answer, Kafka APIs that accept another permission).
 */
import {
  CLUSTER_RESOURCE_NAME,
  IMPLIES_DESCRIBE,
  IMPLIES_DESCRIBE_CONFIGS,
  WILDCARD_HOST,
  WILDCARD_PRINCIPAL,
  WILDCARD_RESOURCE,
  AclIndex,
  allowedOperationsMask,
  authorize,
  bindingKey,
  deniedOperationsMask,
  operationBit,
  scanOrder,
  type AclBinding,
  type AclBindingFilter,
  type AclOperation,
  type AuthorizationResult,
  type AuthorizeRequest,
} from "@/lib/policy";
import {
  UNNAMED_HOST_WORDS,
  type AccessCheckAcl,
  type AccessCheckAssumptions,
  type AccessCheckResult,
} from "@/lib/schemas/access-check";
import { decideFromUnnamedHost, unnamedHost } from "./effective-permissions";

type Match = AccessCheckAcl["match"];

const same = (a: AclBinding, b: AclBinding): boolean =>
  a === b ||
  (a.resourceType === b.resourceType &&
    a.resourceName === b.resourceName &&
    a.patternType === b.patternType &&
    a.principal === b.principal &&
    a.host === b.host &&
    a.operation === b.operation &&
    a.permissionType === b.permissionType);

const opWords = (op: AclOperation): string => (op === "ALL" ? "do ALL operations" : op);

/** "DENY ACL: User:bob may not READ on TOPIC payments-eu (LITERAL) from *". */
export function aclSentence(acl: AclBinding): string {
  const may = acl.permissionType === "DENY" ? "may not" : "may";
  return (
    `${acl.permissionType} ACL: ${acl.principal} ${may} ${opWords(acl.operation)} ` +
    `on ${acl.resourceType} ${acl.resourceName} (${acl.patternType}) from ${acl.host}`
  );
}

/** The operations besides itself that an ALLOW for `op` implies (READ -> DESCRIBE). */
function impliedBy(op: AclOperation): AclOperation[] {
  const out: AclOperation[] = [];
  if (op !== "DESCRIBE" && IMPLIES_DESCRIBE.has(op)) out.push("DESCRIBE");
  if (op !== "DESCRIBE_CONFIGS" && IMPLIES_DESCRIBE_CONFIGS.has(op)) out.push("DESCRIBE_CONFIGS");
  return out;
}

/** The rule that decided, in one or two plain sentences. */
export function describeRule(
  result: AuthorizationResult,
  request: AuthorizeRequest,
  assumptions: Pick<AccessCheckAssumptions, "allowEveryoneIfNoAclFound">,
): string {
  const rule = result.rule;
  switch (rule.kind) {
    case "superUser":
      return (
        `Super user: ${request.principal} is in super.users, so Kafka allows every operation without looking ` +
        `at ACLs.`
      );
    case "acl": {
      const acl = rule.acl;
      if (acl.permissionType === "DENY") return `${aclSentence(acl)}. A matching DENY wins over every ALLOW.`;
      const via =
        acl.operation !== request.operation && acl.operation !== "ALL"
          ? ` An ALLOW for ${acl.operation} also allows ${request.operation}.`
          : "";
      return `${aclSentence(acl)}.${via}`;
    }
    case "noAclMatched":
      return (
        `No ACL on this resource matched this principal/operation/host ` +
        `(${request.principal}, ${request.operation}, ${request.host}), ` +
        `and the resource has ACLs, so Kafka denies.`
      );
    case "default": {
      const flag = assumptions.allowEveryoneIfNoAclFound;
      return `No ACLs on this resource: allow.everyone.if.no.acl.found=${flag} ${flag ? "allows" : "denies"}.`;
    }
  }
}

/** How one ACL that applies to the resource relates to the request, and why. */
export function classifyAcl(
  acl: AclBinding,
  request: AuthorizeRequest,
  result: AuthorizationResult,
  considered: boolean,
): { match: Match; detail: string } {
  const deciding = result.rule.kind === "acl" ? result.rule.acl : null;
  if (deciding !== null && same(acl, deciding)) {
    return {
      match: "decides",
      detail:
        acl.permissionType === "DENY"
          ? "A matching DENY wins over every ALLOW"
          : "The matching ALLOW Kafka reports (no DENY matches)",
    };
  }
  if (!considered) {
    return {
      match: "skipped",
      detail:
        `Kafka's authorizer skips a LITERAL ${WILDCARD_RESOURCE} ACL for names that start ` +
        `with ${WILDCARD_RESOURCE}`,
    };
  }
  if (acl.principal !== request.principal && acl.principal !== WILDCARD_PRINCIPAL) {
    return { match: "otherPrincipal", detail: `For ${acl.principal}, not ${request.principal}` };
  }
  if (acl.host !== WILDCARD_HOST && acl.host !== request.host) {
    return { match: "otherHost", detail: `Only from ${acl.host}, not ${request.host}` };
  }
  const bit = operationBit(request.operation);
  if (acl.permissionType === "DENY" && (deniedOperationsMask(acl.operation) & bit) === 0) {
    const implying = (allowedOperationsMask(acl.operation) & bit) !== 0;
    return {
      match: "otherOperation",
      detail: implying
        ? `DENY ${acl.operation} does not deny ${request.operation}: a DENY never implies`
        : `${acl.operation}, not ${request.operation}`,
    };
  }
  if (acl.permissionType === "ALLOW" && (allowedOperationsMask(acl.operation) & bit) === 0) {
    return { match: "otherOperation", detail: `${acl.operation}, not ${request.operation}` };
  }
  const via =
    acl.permissionType === "ALLOW" && acl.operation !== request.operation && acl.operation !== "ALL"
      ? ` (${acl.operation} implies ${request.operation})`
      : "";
  if (result.rule.kind === "superUser")
    return { match: "matches", detail: `Matches${via}; not consulted for a super user` };
  if (acl.permissionType === "ALLOW") {
    return {
      match: "matches",
      detail: result.decision === "DENIED" ? `Matches${via}, but the DENY wins` : `Also allows${via}`,
    };
  }
  return { match: "matches", detail: "Also denies (Kafka reports the first DENY it meets)" };
}

/** What else follows from the answer. */
export function accessNotes(
  request: AuthorizeRequest,
  result: AuthorizationResult,
  acls: readonly AclBinding[],
  assumptions: Pick<AccessCheckAssumptions, "allowEveryoneIfNoAclFound">,
  /** The same question for another operation (to follow implications through). */
  decide: (operation: AclOperation) => AuthorizationResult,
  /** Asked from a host no ACL names: the answer lists the named hosts where it differs, so no note about them. */
  hostsListed = false,
): string[] {
  const notes: string[] = [];
  const rule = result.rule;
  const what = `${request.resourceType} ${request.resourceName}`;
  const separately = (op: AclOperation): string => {
    const other = decide(op);
    if (rule.kind === "acl" && other.rule.kind === "acl" && same(other.rule.acl, rule.acl)) {
      return `Checked on its own, ${op} is ${other.decision} by the same ACL.`;
    }
    return (
      `Checked on its own, ${op} ` +
      `is ${other.decision}: ${describeRule(other, { ...request, operation: op }, assumptions)}`
    );
  };

  if (rule.kind === "superUser") {
    notes.push(
      `ACLs are not consulted for super users. The table shows the ACLs that apply to ${what} for everyone else.`,
    );
  }

  if (rule.kind === "acl") {
    const acl = rule.acl;
    if (acl.permissionType === "ALLOW") {
      if (acl.operation === "ALL") {
        notes.push(`The deciding ACL grants ALL: it allows every operation on ${what}, unless a DENY matches.`);
      } else {
        if (acl.operation !== request.operation) {
          notes.push(
            `${request.operation} is allowed through ${acl.operation}: an ALLOW for READ, WRITE, DELETE or ` +
              `ALTER also allows DESCRIBE, ` +
              `and an ALLOW for ALTER_CONFIGS also allows DESCRIBE_CONFIGS (ALLOW only: a DENY never implies).`,
          );
        }
        for (const op of impliedBy(acl.operation).filter((o) => o !== request.operation)) {
          notes.push(
            `This ALLOW for ${acl.operation} also allows ${op} on ${what}, unless a DENY for ${op} ` +
              `matches. ${separately(op)}`,
          );
        }
      }
    } else {
      notes.push("An ALLOW cannot help while this DENY matches: remove or narrow the DENY to change the answer.");
      if (acl.operation !== "ALL") {
        for (const op of impliedBy(acl.operation)) {
          notes.push(
            `The DENY on ${acl.operation} does not deny ${op} (DENY ACLs never imply; an ALLOW ` +
              `for ${acl.operation} still grants ${op}). ${separately(op)}`,
          );
        }
      }
    }
    if (acl.principal === WILDCARD_PRINCIPAL && request.principal !== WILDCARD_PRINCIPAL) {
      notes.push(`The deciding ACL is for ${WILDCARD_PRINCIPAL}: it applies to every principal, of any type.`);
    }
    if (acl.host !== WILDCARD_HOST) {
      notes.push(
        `The deciding ACL names host ${acl.host}: it matches only clients connecting from exactly that address.`,
      );
    }
    if (acl.patternType === "PREFIXED") {
      notes.push(
        `The deciding ACL is PREFIXED: it covers every ${request.resourceType} whose name starts with ` +
          `"${acl.resourceName}".`,
      );
    } else if (acl.resourceName === WILDCARD_RESOURCE) {
      notes.push(`The deciding ACL is on LITERAL ${WILDCARD_RESOURCE}: it covers every ${request.resourceType}.`);
    }
  }

  if (result.decision === "DENIED" && (rule.kind === "noAclMatched" || rule.kind === "default")) {
    const grant: AclBinding = {
      resourceType: request.resourceType,
      resourceName: request.resourceName,
      patternType: "LITERAL",
      principal: request.principal,
      host: WILDCARD_HOST,
      operation: request.operation,
      permissionType: "ALLOW",
    };
    notes.push(`To allow it, add an ACL such as ${aclSentence(grant)}.`);
  }
  if (rule.kind === "default" && result.decision === "ALLOWED") {
    notes.push(
      `Everyone is allowed only because no ACL applies to ${what}: the first ACL added for anyone (on this ` +
        `name, a prefix of it, or *) ends that, ` +
        `and from then on only principals with a matching ALLOW get in.`,
    );
  }
  if (rule.kind === "default" && !assumptions.allowEveryoneIfNoAclFound && result.decision === "DENIED") {
    notes.push(`With no ACL on ${what}, only super users may use it.`);
  }

  if (result.decision === "DENIED" && request.resourceType === "TOPIC" && request.operation === "CREATE") {
    notes.push(
      `Kafka also lets a principal create topics with CREATE on CLUSTER ${CLUSTER_RESOURCE_NAME}, which ` +
        `CreateTopics checks first: check that too.`,
    );
  }
  if (result.decision === "DENIED" && request.resourceType === "CLUSTER" && request.operation === "IDEMPOTENT_WRITE") {
    notes.push(
      "An idempotent producer also gets its producer id when it may WRITE at least one topic (InitProducerId " +
        "accepts either), so this alone does not stop idempotent producing.",
    );
  }

  const otherHosts = [
    ...new Set(
      acls
        .filter(
          (a) =>
            (a.principal === request.principal || a.principal === WILDCARD_PRINCIPAL) &&
            a.host !== WILDCARD_HOST &&
            a.host !== request.host,
        )
        .map((a) => a.host),
    ),
  ].sort();
  if (otherHosts.length > 0 && rule.kind !== "superUser" && !hostsListed) {
    notes.push(
      `ACLs here for ${request.principal} name other hosts (${otherHosts.join(", ")}): a client connecting ` +
        `from ${otherHosts.length === 1 ? "that address" : "those addresses"} may get a different answer.`,
    );
  }
  const shortened = [...new Set(acls.filter((a) => a.host.includes("::")).map((a) => a.host))].sort();
  if (shortened.length > 0) {
    notes.push(
      `ACL host ${shortened.join(", ")} is written with "::"; Kafka compares hosts with the client address ` +
        `written in full (0:0:0:0:0:0:0:1), so such an ACL never matches any client.`,
    );
  }
  return notes;
}

/** Kafka's order for reading: the exact name, then prefixes (longest first), then *; DENY before ALLOW. */
function tableOrder(a: AclBinding, b: AclBinding): number {
  const rank = (x: AclBinding) => (x.patternType === "PREFIXED" ? 1 : x.resourceName === WILDCARD_RESOURCE ? 2 : 0);
  return (
    rank(a) - rank(b) ||
    b.resourceName.length - a.resourceName.length ||
    (a.permissionType === b.permissionType ? 0 : a.permissionType === "DENY" ? -1 : 1) ||
    a.principal.localeCompare(b.principal) ||
    a.operation.localeCompare(b.operation) ||
    a.host.localeCompare(b.host)
  );
}

/** Every ACL that applies to the resource, for anyone: Kafka's MATCH filter. */
export function applicableAclsFilter(
  resource: Pick<AuthorizeRequest, "resourceType" | "resourceName">,
): AclBindingFilter {
  return {
    resourceType: resource.resourceType,
    resourceName: resource.resourceName,
    patternType: "MATCH",
    principal: null,
    host: null,
    operation: "ANY",
    permissionType: "ANY",
  };
}

/** A question as the Access check takes it: `host` null is a client whose address no ACL names. */
export type AccessQuestion = Omit<AuthorizeRequest, "host"> & { host: string | null };

/**
 * The whole answer: decide with the policy core over the ACLs that apply to the
 * resource (Kafka's MATCH), then explain. `index` is an authorizer index holding them
 * (the ACL snapshot's, over every ACL: the same decision and rule, since only the ACLs
 * that apply to a resource take part in deciding it); without one, they are indexed here.
 *
 * Without a host (`host` null) the question is asked from a host no ACL names, as the
 * principal, resource and who-can pages ask it: `request.host` is such an address (for
 * asking again), the sentences say "any host no ACL names", and `hosts.differing` gives
 * the answer from each host the principal's (or User:*'s) applicable ACLs name where it differs.
 */
export function explainAccessDecision(
  question: AccessQuestion,
  applicable: readonly AclBinding[],
  assumptions: AccessCheckAssumptions,
  index: AclIndex = AclIndex.build(applicable),
): AccessCheckResult {
  const config = {
    superUsers: new Set(assumptions.superUsers),
    allowEveryoneIfNoAclFound: assumptions.allowEveryoneIfNoAclFound,
  };
  const unnamed = question.host === null;
  const request: AuthorizeRequest = { ...question, host: question.host ?? unnamedHost(applicable.map((a) => a.host)) };
  // The words the sentences use for the host: the address given, or "any host no ACL names".
  const worded: AuthorizeRequest = unnamed ? { ...request, host: UNNAMED_HOST_WORDS } : request;
  const result = authorize(index, request, config);
  // What StandardAuthorizer looks at for this name (it skips LITERAL `*` for names starting with `*`).
  const considered = new Set<string>();
  for (const group of scanOrder(index, request.resourceType, request.resourceName))
    for (const e of group.entries) considered.add(bindingKey(e.binding));
  const acls = [...applicable].sort(tableOrder).map((acl) => ({
    ...acl,
    ...classifyAcl(acl, worded, result, considered.has(bindingKey(acl))),
  }));
  const differing = unnamed
    ? decideFromUnnamedHost(index, request, config).otherHosts.map((o) => ({
        host: o.host,
        decision: o.decision,
        rule: o.rule.kind === "acl" ? { kind: "acl" as const, acl: { ...o.rule.acl } } : { kind: o.rule.kind },
        via: [...o.via],
        reason: describeRule(o, { ...request, host: o.host }, assumptions),
      }))
    : [];
  return {
    request: { ...request },
    decision: result.decision,
    rule: result.rule.kind === "acl" ? { kind: "acl", acl: { ...result.rule.acl } } : { kind: result.rule.kind },
    reason: describeRule(result, worded, assumptions),
    acls,
    hosts: { assumed: unnamed ? "unnamed" : "given", statement: `host: ${worded.host}`, differing },
    notes: accessNotes(
      worded,
      result,
      applicable,
      assumptions,
      (operation) => authorize(index, { ...request, operation }, config),
      unnamed,
    ),
    assumptions,
  };
}
