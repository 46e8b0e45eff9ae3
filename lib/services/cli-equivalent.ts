/**
 * The Kafka command-line tools' equivalent of a change made through the console, so an
 * operator can review or replay a plan: `kafka-acls.sh` for ACL bindings,
 * `kafka-configs.sh` for client quotas, `kafka-delegation-tokens.sh` for tokens.
 *
 * Each binding gets its own command, with every field spelled out (pattern type, host,
 * operation), so the command means exactly that binding and nothing broader: a
 * `--remove` names principal, host and operation, which makes AclCommand build an exact
 * filter. Arguments are quoted for a POSIX shell; secrets never appear (the admin
 * client's credentials go in the `--command-config` file, a token's HMAC is a
 * placeholder).
 *
 * One thing the tools cannot say: kafka-acls.sh trims topic, group, delegation-token and
 * user-principal names (AclCommand.getResourceFilter), so a name with surrounding blanks
 * cannot be given exactly; such commands carry a warning line.
 */
import type { AclBinding, AclOperation, QuotaEntity, QuotaKey, ResourceType } from "@/lib/policy";

export const COMMAND_CONFIG_PLACEHOLDER = "<admin.properties>";
export const HMAC_PLACEHOLDER = "<HMAC>";

const SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** One argument quoted for a POSIX shell (single quotes; a ' becomes '\''). */
export function shellQuote(arg: string): string {
  if (arg.length > 0 && SAFE.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

function line(tool: string, bootstrap: string, args: readonly string[]): string {
  return [
    tool,
    "--bootstrap-server",
    shellQuote(bootstrap),
    "--command-config",
    COMMAND_CONFIG_PLACEHOLDER,
    ...args,
  ].join(" ");
}

/** Kafka's own spelling of operations on the command line (SecurityUtils.operationName). */
const OPERATION_NAME: Record<AclOperation, string> = {
  ALL: "All",
  READ: "Read",
  WRITE: "Write",
  CREATE: "Create",
  DELETE: "Delete",
  ALTER: "Alter",
  DESCRIBE: "Describe",
  CLUSTER_ACTION: "ClusterAction",
  DESCRIBE_CONFIGS: "DescribeConfigs",
  ALTER_CONFIGS: "AlterConfigs",
  IDEMPOTENT_WRITE: "IdempotentWrite",
  CREATE_TOKENS: "CreateTokens",
  DESCRIBE_TOKENS: "DescribeTokens",
};

/** The resource options of kafka-acls.sh; CLUSTER has no name (it is always kafka-cluster). */
function resourceArgs(type: ResourceType, name: string): string[] {
  switch (type) {
    case "TOPIC":
      return ["--topic", shellQuote(name)];
    case "GROUP":
      return ["--group", shellQuote(name)];
    case "TRANSACTIONAL_ID":
      return ["--transactional-id", shellQuote(name)];
    case "DELEGATION_TOKEN":
      return ["--delegation-token", shellQuote(name)];
    case "USER":
      return ["--user-principal", shellQuote(name)];
    case "CLUSTER":
      return ["--cluster"];
  }
}

const TRIMMED_BY_TOOL: ReadonlySet<ResourceType> = new Set(["TOPIC", "GROUP", "DELEGATION_TOKEN", "USER"]);

export interface CliCommand {
  command: string;
  /** Set when the command cannot mean exactly the same as the console's change. */
  warning?: string;
}

export function aclCommand(action: "add" | "remove", b: AclBinding, bootstrap: string): CliCommand {
  const who = b.permissionType === "ALLOW" ? "allow" : "deny";
  const args = [
    action === "add" ? "--add" : "--remove",
    ...(action === "remove" ? ["--force"] : []),
    `--${who}-principal`,
    shellQuote(b.principal),
    `--${who}-host`,
    shellQuote(b.host),
    "--operation",
    OPERATION_NAME[b.operation] ?? b.operation,
    ...resourceArgs(b.resourceType, b.resourceName),
    "--resource-pattern-type",
    b.patternType.toLowerCase(),
  ];
  const out: CliCommand = { command: line("kafka-acls.sh", bootstrap, args) };
  if (b.resourceType === "CLUSTER" && b.resourceName !== "kafka-cluster") {
    out.warning = `kafka-acls.sh can only name the cluster resource kafka-cluster, not "${b.resourceName}".`;
  } else if (TRIMMED_BY_TOOL.has(b.resourceType) && b.resourceName !== b.resourceName.trim()) {
    out.warning =
      `kafka-acls.sh trims resource names; "${b.resourceName}" has surrounding blanks and cannot be ` +
      `given exactly.`;
  }
  return out;
}

/** The commands for a set of ACL creations and deletions, deletions first (as the console applies them). */
export function aclPlanCommands(
  change: { create: readonly AclBinding[]; delete: readonly AclBinding[] },
  bootstrap: string,
): CliCommand[] {
  return [
    ...change.delete.map((b) => aclCommand("remove", b, bootstrap)),
    ...change.create.map((b) => aclCommand("add", b, bootstrap)),
  ];
}

const ENTITY_TYPE_ARG = { user: "users", "client-id": "clients", ip: "ips" } as const;

function entityArgs(entity: QuotaEntity): string[] {
  const args: string[] = [];
  for (const key of ["user", "client-id", "ip"] as const) {
    if (!(key in entity)) continue;
    const value = entity[key];
    args.push("--entity-type", ENTITY_TYPE_ARG[key]);
    if (value === null || value === undefined) args.push("--entity-default");
    else args.push("--entity-name", shellQuote(value));
  }
  return args;
}

/** kafka-configs.sh for one quota key of one entity: set (value) or remove (null). */
export function quotaCommand(entity: QuotaEntity, key: QuotaKey, value: number | null, bootstrap: string): CliCommand {
  const change = value === null ? ["--delete-config", key] : ["--add-config", shellQuote(`${key}=${value}`)];
  return { command: line("kafka-configs.sh", bootstrap, ["--alter", ...entityArgs(entity), ...change]) };
}

export function tokenCreateCommand(
  input: { owner: string | null; renewers: readonly string[]; maxLifetimeMs: number | null },
  bootstrap: string,
): CliCommand {
  const args = ["--create", "--max-life-time-period", String(input.maxLifetimeMs ?? -1)];
  for (const r of input.renewers) args.push("--renewer-principal", shellQuote(r));
  if (input.owner !== null) args.push("--owner-principal", shellQuote(input.owner));
  return { command: line("kafka-delegation-tokens.sh", bootstrap, args) };
}

/** kafka-delegation-tokens.sh --renew / --expire of a token (its HMAC a placeholder), with the period asked for. */
function tokenPeriodCommand(action: "renew" | "expiry", periodMs: number | null, bootstrap: string): CliCommand {
  const args = [action === "renew" ? "--renew" : "--expire", `--${action}-time-period`, String(periodMs ?? -1)];
  return { command: line("kafka-delegation-tokens.sh", bootstrap, [...args, "--hmac", HMAC_PLACEHOLDER]) };
}

export function tokenRenewCommand(renewPeriodMs: number | null, bootstrap: string): CliCommand {
  return tokenPeriodCommand("renew", renewPeriodMs, bootstrap);
}

export function tokenExpireCommand(expiryPeriodMs: number | null, bootstrap: string): CliCommand {
  return tokenPeriodCommand("expiry", expiryPeriodMs, bootstrap);
}
