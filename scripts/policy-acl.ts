/**
 * The ACL commands of the policy CLI. scripts/policy.ts dispatches to them:
 * - `aclJsonCommands`: one JSON document in, one out, exactly the shapes of the stable
 *   contract in docs/policy-cli.md (authorize, authorize-by-type, filter, validate-acl, plan). Bad
 *   input throws PolicyInputError; the dispatcher turns it into exit 2 and
 *   `{ "error": ... }`. An answer that must also fail the pipeline (a plan deleting more
 *   than maxDeletes) comes back as a JsonAnswer with its exit code.
 * - `aclHumanCommand`: `explain` and `lint`, for people, printing text.
 */
import { bindingKey } from "../lib/policy/acl/acl-index";
import {
  AclIndex,
  PolicyInputError,
  allowedOperationsMask,
  authorize,
  authorizeByResourceType,
  deniedOperationsMask,
  effectiveForResource,
  expireGrants,
  filterAcls,
  lintAcls,
  operationBit,
  planWithBlastRadius,
  validateNewAcl,
  type AuthorizeRequest,
  type AuthorizerConfig,
  type PlanResource,
  type PlanScope,
  type PlanUniverse,
  type GrantState,
} from "../lib/policy/acl/index";
import {
  parseAclBinding,
  parseAclDocument,
  parseAclFilter,
  parseAclList,
  parseAuthorizeByResourceTypeRequest,
  parseAuthorizeRequest,
  parseAuthorizerConfig,
  parseRequestPrincipal,
  parseSuperUsers,
} from "../lib/policy/acl/parse";
import { canonicalIp } from "../lib/policy/quota/ip";
import { CLUSTER_RESOURCE_NAME, RESOURCE_TYPES, type AclBinding, type ResourceType } from "../lib/policy/types";

export { PolicyInputError };

function asObject(input: unknown, command: string): Record<string, unknown> {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new PolicyInputError(`${command}: the input must be a JSON object`);
  }
  return input as Record<string, unknown>;
}

function asArray(value: unknown, where: string): unknown[] {
  if (!Array.isArray(value)) throw new PolicyInputError(`${where} must be an array`);
  return value;
}

/** A JSON answer printed as usual, with a non-zero exit code and a line for stderr. */
export class JsonAnswer {
  constructor(
    readonly output: unknown,
    readonly exitCode: number,
    readonly message: string,
  ) {}
}

function onlyKeys(doc: Record<string, unknown>, allowed: readonly string[], where: string): void {
  for (const key of Object.keys(doc)) {
    if (!allowed.includes(key))
      throw new PolicyInputError(`${where}: unknown field ${JSON.stringify(key)} (expected ${allowed.join(", ")})`);
  }
}

/** null counts as absent for the optional fields of plan. */
function optional(value: unknown): unknown {
  return value === null ? undefined : value;
}

function stringList(value: unknown, where: string): string[] {
  return asArray(value, where).map((v, i) => {
    if (typeof v !== "string") throw new PolicyInputError(`${where}[${i}] must be a string, got ${JSON.stringify(v)}`);
    return v;
  });
}

function parseUniverse(value: unknown): PlanUniverse {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new PolicyInputError("universe must be an object { principals, hosts, resources }");
  }
  const u = value as Record<string, unknown>;
  onlyKeys(u, ["principals", "hosts", "resources"], "universe");
  const principals = asArray(u.principals, "universe.principals").map((p, i) =>
    parseRequestPrincipal(p, `universe.principals[${i}]`),
  );
  // Client addresses the way the broker sees them, as in `authorize` requests.
  const hosts = stringList(u.hosts, "universe.hosts").map((h) => canonicalIp(h) ?? h);
  const resources = asArray(u.resources, "universe.resources").map((r, i): PlanResource => {
    const where = `universe.resources[${i}]`;
    if (typeof r !== "object" || r === null || Array.isArray(r))
      throw new PolicyInputError(`${where} must be an object { resourceType, resourceName }`);
    const { resourceType, resourceName } = r as Record<string, unknown>;
    if (typeof resourceType !== "string" || !(RESOURCE_TYPES as readonly string[]).includes(resourceType)) {
      throw new PolicyInputError(
        `${where}.resourceType must be one of ${RESOURCE_TYPES.join(", ")}, got ${JSON.stringify(resourceType)}`,
      );
    }
    if (typeof resourceName !== "string")
      throw new PolicyInputError(`${where}.resourceName must be a string, got ${JSON.stringify(resourceName)}`);
    return { resourceType: resourceType as ResourceType, resourceName };
  });
  return { principals, hosts, resources };
}

function parseScope(value: unknown): PlanScope | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new PolicyInputError("scope must be an object { principals?, resourcePrefix? }");
  const s = value as Record<string, unknown>;
  onlyKeys(s, ["principals", "resourcePrefix"], "scope");
  const scope: PlanScope = {};
  const principals = optional(s.principals);
  const prefix = optional(s.resourcePrefix);
  if (principals !== undefined) scope.principals = stringList(principals, "scope.principals");
  if (prefix !== undefined) {
    if (typeof prefix !== "string")
      throw new PolicyInputError(`scope.resourcePrefix must be a string, got ${JSON.stringify(prefix)}`);
    scope.resourcePrefix = prefix;
  }
  return scope;
}

const PLAN_FIELDS = [
  "current",
  "create",
  "delete",
  "desired",
  "mode",
  "scope",
  "superUsers",
  "allowEveryoneIfNoAclFound",
  "universe",
  "maxDeletes",
] as const;

export const aclJsonCommands: Record<
  "authorize" | "authorize-by-type" | "filter" | "validate-acl" | "plan" | "expire",
  (input: unknown) => unknown
> = {
  authorize(input) {
    const doc = asObject(input, "authorize");
    const acls = parseAclList(doc.acls, "acls");
    const config = parseAuthorizerConfig(doc);
    const requests = asArray(doc.requests, "requests").map((r, i) => parseAuthorizeRequest(r, `requests[${i}]`));
    const index = AclIndex.build(acls);
    return { results: requests.map((r) => authorize(index, r, config)) };
  },

  "authorize-by-type"(input) {
    const doc = asObject(input, "authorize-by-type");
    const acls = parseAclList(doc.acls, "acls");
    const config = parseAuthorizerConfig(doc);
    const requests = asArray(doc.requests, "requests").map((r, i) =>
      parseAuthorizeByResourceTypeRequest(r, `requests[${i}]`),
    );
    const index = AclIndex.build(acls);
    return { results: requests.map((r) => authorizeByResourceType(index, r, config)) };
  },

  filter(input) {
    const doc = asObject(input, "filter");
    const acls = parseAclList(doc.acls, "acls");
    const filter = parseAclFilter(doc.filter, "filter");
    // Kafka keeps ACLs as a set: a binding given twice is stored, and listed, once.
    const seen = new Set<string>();
    const unique = acls.filter((b) => {
      const key = [
        b.resourceType,
        b.patternType,
        b.resourceName,
        b.principal,
        b.host,
        b.operation,
        b.permissionType,
      ].join("\u0000");
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    return { acls: filterAcls(unique, filter) };
  },

  "validate-acl"(input) {
    const doc = asObject(input, "validate-acl");
    return { results: asArray(doc.bindings, "bindings").map((b) => validateNewAcl(b)) };
  },

  plan(input) {
    const doc = asObject(input, "plan");
    // A misspelt field (`maxDelete`, `desire`) must not silently turn a guard off.
    onlyKeys(doc, PLAN_FIELDS, "the input");
    const current = parseAclList(doc.current, "current");
    const createList = optional(doc.create);
    const deleteList = optional(doc.delete);
    const desiredList = optional(doc.desired);
    // Bindings to create are validated, not parsed: the invalid ones are part of the answer.
    const create = createList === undefined ? undefined : asArray(createList, "create");
    const del = deleteList === undefined ? undefined : parseAclList(deleteList, "delete");
    const desired = desiredList === undefined ? undefined : asArray(desiredList, "desired");
    const modeValue = optional(doc.mode);
    if (modeValue !== undefined && modeValue !== "add-only" && modeValue !== "sync") {
      throw new PolicyInputError(`mode must be "add-only" or "sync", got ${JSON.stringify(modeValue)}`);
    }
    const maxDeletesValue = optional(doc.maxDeletes);
    if (
      maxDeletesValue !== undefined &&
      !(typeof maxDeletesValue === "number" && Number.isInteger(maxDeletesValue) && maxDeletesValue >= 0)
    ) {
      throw new PolicyInputError(`maxDeletes must be a non-negative integer, got ${JSON.stringify(maxDeletesValue)}`);
    }
    const { plan, blast } = planWithBlastRadius({
      current,
      create,
      delete: del,
      desired,
      mode: modeValue,
      scope: parseScope(optional(doc.scope)),
      maxDeletes: maxDeletesValue,
      universe: parseUniverse(doc.universe),
      config: parseAuthorizerConfig(doc),
    });
    const output = {
      create: plan.create,
      delete: plan.delete,
      invalid: plan.invalid.map(({ binding, message }) => ({ binding, message })),
      decisionChanges: blast.all(),
      ...(plan.refused === undefined ? {} : { refused: plan.refused }),
    };
    if (plan.exceedsMaxDeletes) {
      const n = plan.delete.length;
      return new JsonAnswer(
        output,
        1,
        `the plan deletes ${n} binding${n === 1 ? "" : "s"}, more than maxDeletes (${String(maxDeletesValue)})`,
      );
    }
    return output;
  },

  expire(input) {
    const doc = asObject(input, "expire");
    onlyKeys(doc, ["acls", "grants", "now"], "the input");
    const acls = parseAclList(doc.acls, "acls");
    const now = instantValue(doc.now, "now");
    const grants = asArray(doc.grants, "grants").map((g, i): GrantState => {
      const grant = asObject(g, `grants[${i}]`);
      onlyKeys(grant, ["id", "bindings", "expiresAt", "ended"], `grants[${i}]`);
      if (typeof grant.id !== "string" || grant.id === "")
        throw new PolicyInputError(`grants[${i}].id must be a non-empty string`);
      if (grant.ended !== undefined && typeof grant.ended !== "boolean")
        throw new PolicyInputError(`grants[${i}].ended must be true or false`);
      return {
        id: grant.id,
        bindings: parseAclList(grant.bindings, `grants[${i}].bindings`),
        expiresAt: instantValue(grant.expiresAt, `grants[${i}].expiresAt`),
        ended: grant.ended === true,
      };
    });
    return expireGrants({ acls, grants, now });
  },
};

/** An instant: epoch milliseconds or an ISO 8601 date-time with its offset. */
function instantValue(value: unknown, where: string): number {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && /^\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:\d{2})$/.test(value)) {
    const ms = Date.parse(value);
    if (!Number.isNaN(ms)) return ms;
  }
  throw new PolicyInputError(`${where} must be epoch milliseconds or an ISO date-time with an offset (…Z)`);
}

// ---- for people --------------------------------------------------------------------

const EXPLAIN_USAGE =
  "usage: explain --acls <acls.json|acls.csv> --principal <Type:name> --operation <OP> " +
  "(--topic <t> | --group <g> | --cluster | --transactional-id <id> | --user <User:name> | --delegation-token <id>) " +
  "[--host <ip>] [--super-users <User:a;User:b>] [--allow-everyone-if-no-acl-found]";

const LINT_USAGE = "usage: lint <acls.json|acls.csv>";

const RESOURCE_FLAGS: Record<string, ResourceType> = {
  "--topic": "TOPIC",
  "--group": "GROUP",
  "--transactional-id": "TRANSACTIONAL_ID",
  "--user": "USER",
  "--delegation-token": "DELEGATION_TOKEN",
};

interface ParsedArgs {
  values: Map<string, string>;
  flags: Set<string>;
  positional: string[];
}

function parseArgs(argv: string[], withValue: readonly string[], usage: string): ParsedArgs {
  const values = new Map<string, string>();
  const flags = new Set<string>();
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith("--")) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (withValue.includes(name)) {
      const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined) throw new PolicyInputError(`${name} needs a value\n${usage}`);
      if (values.has(name)) throw new PolicyInputError(`${name} given twice\n${usage}`);
      values.set(name, value);
    } else {
      flags.add(name);
    }
  }
  return { values, flags, positional };
}

function describeAcl(b: AclBinding): string {
  const pattern =
    b.patternType === "PREFIXED"
      ? `names starting with ${JSON.stringify(b.resourceName)}`
      : b.resourceName === "*"
        ? "every name (*)"
        : JSON.stringify(b.resourceName);
  return (
    `${b.permissionType.padEnd(5)} ${b.principal} ${b.operation} on ${b.resourceType} ${pattern}, ` +
    `from ${b.host === "*" ? "any host" : b.host}`
  );
}

function whyNot(b: AclBinding, request: AuthorizeRequest): string | null {
  if (b.principal !== request.principal && b.principal !== "User:*") return "other principal";
  if (b.host !== "*" && b.host !== request.host) return "other host";
  const bit = operationBit(request.operation);
  const mask = b.permissionType === "ALLOW" ? allowedOperationsMask(b.operation) : deniedOperationsMask(b.operation);
  if ((mask & bit) === 0)
    return b.permissionType === "DENY" && b.operation !== request.operation
      ? "other operation (a DENY never implies)"
      : "other operation";
  return null;
}

async function readAcls(path: string, readFile: (p: string) => Promise<string>): Promise<AclBinding[]> {
  let text: string;
  try {
    text = await readFile(path);
  } catch (e) {
    throw new PolicyInputError(`cannot read ${path}: ${(e as Error).message}`);
  }
  return parseAclDocument(text);
}

async function explain(argv: string[], readFile: (p: string) => Promise<string>): Promise<string> {
  const args = parseArgs(
    argv,
    ["--acls", "--principal", "--operation", "--host", "--super-users", ...Object.keys(RESOURCE_FLAGS)],
    EXPLAIN_USAGE,
  );
  const aclsPath = args.values.get("--acls");
  const principalArg = args.values.get("--principal");
  const operationArg = args.values.get("--operation");
  if (aclsPath === undefined || principalArg === undefined || operationArg === undefined)
    throw new PolicyInputError(EXPLAIN_USAGE);
  const resources: Array<[ResourceType, string]> = Object.entries(RESOURCE_FLAGS)
    .filter(([flag]) => args.values.has(flag))
    .map(([flag, type]) => [type, args.values.get(flag)!]);
  if (args.flags.has("--cluster")) resources.push(["CLUSTER", CLUSTER_RESOURCE_NAME]);
  if (resources.length !== 1) throw new PolicyInputError(`give exactly one resource\n${EXPLAIN_USAGE}`);
  const [resourceType, resourceName] = resources[0]!;
  const request: AuthorizeRequest = {
    principal: parseRequestPrincipal(principalArg, "--principal"),
    host: args.values.get("--host") ?? "*",
    operation: parseAclBinding(
      {
        resourceType,
        resourceName,
        patternType: "LITERAL",
        principal: principalArg,
        host: "*",
        operation: operationArg,
        permissionType: "ALLOW",
      },
      "--operation",
      { lenient: true },
    ).operation,
    resourceType,
    resourceName,
  };
  const config: AuthorizerConfig = {
    superUsers: new Set(parseSuperUsers(args.values.get("--super-users")?.replace(/,/g, ";"), "--super-users")),
    allowEveryoneIfNoAclFound: args.flags.has("--allow-everyone-if-no-acl-found"),
  };
  const index = AclIndex.build(await readAcls(aclsPath, readFile));
  const result = authorize(index, request, config);
  const from = args.values.has("--host") ? `from ${request.host}` : "from a host no ACL names";
  const lines = [
    `${request.principal} ${request.operation} ` +
      `on ${resourceType} ${JSON.stringify(resourceName)} ${from}: ${result.decision}`,
    "",
  ];
  const rule = result.rule;
  switch (rule.kind) {
    case "superUser":
      lines.push(`Why: ${request.principal} is a super user (super.users); ACLs are not consulted.`);
      break;
    case "acl":
      lines.push(
        rule.acl.permissionType === "DENY"
          ? `Why: a matching DENY wins over every ALLOW. Deciding ACL (the first DENY in Kafka's scan order):`
          : `Why: a matching ALLOW and no matching DENY. Deciding ACL (the one Kafka's audit log names):`,
        `  ${describeAcl(rule.acl)}`,
      );
      break;
    case "noAclMatched":
      lines.push(`Why: the resource has ACLs, but none matches this principal, host and operation, so Kafka denies.`);
      break;
    case "default":
      lines.push(
        `Why: no ACL applies to this resource at all, so allow.everyone.if.no.acl.found decides ` +
          `(${config.allowEveryoneIfNoAclFound === true ? "true: ALLOWED" : "false, Kafka's default: DENIED"}).`,
      );
      break;
  }
  const applying = effectiveForResource(index, resourceType, resourceName).acls;
  lines.push("", `ACLs that apply to ${resourceType} ${JSON.stringify(resourceName)} (${applying.length}):`);
  for (const b of applying) {
    const decides = rule.kind === "acl" && bindingKey(rule.acl) === bindingKey(b);
    const reason = whyNot(b, request);
    lines.push(
      `  ${decides ? "=>" : "  "} ${describeAcl(b)}` +
        `${decides ? "  [decides]" : reason === null ? "  [matches]" : `  [${reason}]`}`,
    );
  }
  if (applying.length === 0) lines.push("  (none)");
  if (result.decision === "DENIED" && rule.kind !== "acl") {
    lines.push(
      "",
      `To allow it, an ACL such as:`,
      `  ${describeAcl({
        resourceType,
        resourceName,
        patternType: "LITERAL",
        principal: request.principal,
        host: "*",
        operation: request.operation,
        permissionType: "ALLOW",
      })}`,
    );
  } else if (result.decision === "DENIED" && rule.kind === "acl") {
    lines.push("", "An ALLOW cannot help while that DENY matches: remove or narrow the DENY.");
  }
  return lines.join("\n") + "\n";
}

async function lint(argv: string[], readFile: (p: string) => Promise<string>): Promise<string> {
  const args = parseArgs(argv, [], LINT_USAGE);
  const path = args.positional[0];
  if (path === undefined || args.positional.length > 1) throw new PolicyInputError(LINT_USAGE);
  const acls = await readAcls(path, readFile);
  const findings = lintAcls(acls);
  if (findings.length === 0) return `No findings in ${acls.length} ACL${acls.length === 1 ? "" : "s"}.\n`;
  const count = (s: string) => findings.filter((f) => f.severity === s).length;
  const lines = [
    `${findings.length} finding${findings.length === 1 ? "" : "s"} (${count("error")} ` +
      `error, ${count("warning")} warning, ${count("info")} info) in ${acls.length} ACLs`,
    "",
  ];
  for (const f of findings) {
    lines.push(`${f.severity.toUpperCase()} ${f.code}: ${f.message}`);
    for (const b of f.acls) lines.push(`    ${describeAcl(b)}`);
  }
  return lines.join("\n") + "\n";
}

/** The human-facing ACL commands; null when argv[0] is not one of them. */
export async function aclHumanCommand(
  argv: string[],
  readFile: (p: string) => Promise<string>,
): Promise<string | null> {
  const [command, ...rest] = argv;
  if (command === "explain") return explain(rest, readFile);
  if (command === "lint") return lint(rest, readFile);
  return null;
}
