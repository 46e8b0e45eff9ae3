/**
 * Reading ACL sets and requests that come from outside (the CLI's JSON, exported files).
 * Defensive: arbitrary JSON in, typed values or a PolicyInputError naming the exact
 * place out. Two formats for ACL sets:
 * - JSON: an array of bindings, or `{ "acls": [...] }`;
 * - CSV: header `Principal,ResourceType,PatternType,ResourceName,Operation,PermissionType,Host`
 *   (RFC 4180 quoting), one binding per line.
 * Bindings read here are what Kafka could hold: concrete enum values and string fields.
 * They are NOT held to the create-time rules (a colon-less principal from an old
 * cluster is readable; lint reports it).
 */
import {
  OPERATIONS,
  PATTERN_TYPES,
  PERMISSION_TYPES,
  RESOURCE_TYPES,
  type AclBinding,
  type AclBindingFilter,
  type AclOperation,
  type AclOperationFilter,
  type AclPermissionTypeFilter,
  type PatternTypeFilter,
  type ResourceType,
  type ResourceTypeFilter,
} from "../types";
import { PolicyInputError } from "./errors";
import { canonicalIp } from "../quota/ip";
import { jsonNestsDeeperThan, MAX_JSON_DEPTH } from "../json-depth";
import type { AuthorizeByResourceTypeRequest, AuthorizeRequest, AuthorizerConfig } from "./model";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Accept Kafka's names verbatim, and (lenient) the PascalCase kafka-acls.sh prints: `TransactionalId`. */
function enumValue<T extends string>(value: unknown, allowed: readonly T[], where: string, lenient: boolean): T {
  if (typeof value !== "string")
    throw new PolicyInputError(`${where} must be one of ${allowed.join(", ")}, got ${JSON.stringify(value)}`);
  if ((allowed as readonly string[]).includes(value)) return value as T;
  if (lenient) {
    const normalized = value
      .trim()
      .replace(/([a-z])([A-Z])/g, "$1_$2")
      .replace(/[\s-]+/g, "_")
      .toUpperCase();
    if ((allowed as readonly string[]).includes(normalized)) return normalized as T;
  }
  throw new PolicyInputError(`${where} must be one of ${allowed.join(", ")}, got ${JSON.stringify(value)}`);
}

function stringValue(value: unknown, where: string): string {
  if (typeof value !== "string") throw new PolicyInputError(`${where} must be a string, got ${JSON.stringify(value)}`);
  return value;
}

function nullableString(value: unknown, where: string): string | null {
  if (value === null || value === undefined) return null;
  return stringValue(value, where);
}

export interface ParseOptions {
  /** Accept PascalCase / lower-case enum names (files written by people or other tools). */
  lenient?: boolean;
}

export function parseAclBinding(value: unknown, where: string, options: ParseOptions = {}): AclBinding {
  if (!isRecord(value))
    throw new PolicyInputError(`${where} must be an ACL binding object, got ${JSON.stringify(value)}`);
  const lenient = options.lenient === true;
  return {
    resourceType: enumValue(value.resourceType, RESOURCE_TYPES, `${where}.resourceType`, lenient),
    resourceName: stringValue(value.resourceName, `${where}.resourceName`),
    patternType: enumValue(value.patternType, PATTERN_TYPES, `${where}.patternType`, lenient),
    principal: stringValue(value.principal, `${where}.principal`),
    host: stringValue(value.host, `${where}.host`),
    operation: enumValue(value.operation, OPERATIONS, `${where}.operation`, lenient),
    permissionType: enumValue(value.permissionType, PERMISSION_TYPES, `${where}.permissionType`, lenient),
  };
}

export function parseAclList(value: unknown, where: string, options: ParseOptions = {}): AclBinding[] {
  const list = isRecord(value) && "acls" in value ? value.acls : value;
  if (!Array.isArray(list)) throw new PolicyInputError(`${where} must be an array of ACL bindings`);
  return list.map((item, i) => parseAclBinding(item, `${where}[${i}]`, options));
}

export function parseAclFilter(value: unknown, where: string): AclBindingFilter {
  if (!isRecord(value)) throw new PolicyInputError(`${where} must be an ACL binding filter object`);
  return {
    resourceType: enumValue<ResourceTypeFilter>(
      value.resourceType,
      [...RESOURCE_TYPES, "ANY"],
      `${where}.resourceType`,
      false,
    ),
    resourceName: nullableString(value.resourceName, `${where}.resourceName`),
    patternType: enumValue<PatternTypeFilter>(
      value.patternType,
      [...PATTERN_TYPES, "ANY", "MATCH"],
      `${where}.patternType`,
      false,
    ),
    principal: nullableString(value.principal, `${where}.principal`),
    host: nullableString(value.host, `${where}.host`),
    operation: enumValue<AclOperationFilter>(value.operation, [...OPERATIONS, "ANY"], `${where}.operation`, false),
    permissionType: enumValue<AclPermissionTypeFilter>(
      value.permissionType,
      [...PERMISSION_TYPES, "ANY"],
      `${where}.permissionType`,
      false,
    ),
  };
}

/** A request principal must be `Type:name`, as every authenticated KafkaPrincipal is. */
export function parseRequestPrincipal(value: unknown, where: string): string {
  const principal = stringValue(value, where);
  if (!principal.includes(":")) {
    throw new PolicyInputError(
      `${where} must be a principal in the form Type:name (for example User:alice), got ${JSON.stringify(principal)}`,
    );
  }
  return principal;
}

function parseResourceType(value: unknown, where: string): ResourceType {
  if (value === "ANY") throw new PolicyInputError(`${where}: Must specify a non-filter resource type`);
  return enumValue(value, RESOURCE_TYPES, where, false);
}

function parseOperation(value: unknown, where: string): AclOperation {
  if (value === "ANY") throw new PolicyInputError(`${where}: Must specify a non-filter operation type`);
  return enumValue(value, OPERATIONS, where, false);
}

/**
 * The client address of a request, written the way Kafka sees it: the broker matches
 * ACL hosts against InetAddress.getHostAddress(), so `::1` arrives as
 * `0:0:0:0:0:0:0:1` and `1.2.3` as `1.2.0.3`. Anything that is not an IP literal is
 * kept as given (the core does no DNS).
 */
function parseClientHost(value: unknown, where: string): string {
  const host = stringValue(value, where);
  return canonicalIp(host) ?? host;
}

export function parseAuthorizeRequest(value: unknown, where: string): AuthorizeRequest {
  if (!isRecord(value)) throw new PolicyInputError(`${where} must be a request object`);
  return {
    principal: parseRequestPrincipal(value.principal, `${where}.principal`),
    host: parseClientHost(value.host, `${where}.host`),
    operation: parseOperation(value.operation, `${where}.operation`),
    resourceType: parseResourceType(value.resourceType, `${where}.resourceType`),
    resourceName: stringValue(value.resourceName, `${where}.resourceName`),
  };
}

export function parseAuthorizeByResourceTypeRequest(value: unknown, where: string): AuthorizeByResourceTypeRequest {
  if (!isRecord(value)) throw new PolicyInputError(`${where} must be a request object`);
  return {
    principal: parseRequestPrincipal(value.principal, `${where}.principal`),
    host: parseClientHost(value.host, `${where}.host`),
    operation: parseOperation(value.operation, `${where}.operation`),
    resourceType: parseResourceType(value.resourceType, `${where}.resourceType`),
  };
}

/**
 * `super.users`: an array of `Type:name` strings, or Kafka's own `;`-separated
 * property value (entries trimmed, empty ones skipped, each must parse as Type:name —
 * StandardAuthorizer.getConfiguredSuperUsers).
 */
export function parseSuperUsers(value: unknown, where: string): string[] {
  if (value === undefined || value === null) return [];
  const entries =
    typeof value === "string"
      ? value
          .split(";")
          .map((v) => v.trim())
          .filter((v) => v.length > 0)
      : Array.isArray(value)
        ? value.map((v, i) => stringValue(v, `${where}[${i}]`))
        : null;
  if (entries === null) throw new PolicyInputError(`${where} must be an array of principals or a ;-separated string`);
  for (const entry of entries) {
    if (!entry.includes(":"))
      throw new PolicyInputError(`${where}: expected a string in format principalType:principalName but got ${entry}`);
  }
  return entries;
}

/** `allow.everyone.if.no.acl.found`: a boolean, or a string read like Boolean.parseBoolean(trim). */
export function parseAllowEveryone(value: unknown, where: string): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === "boolean") return value;
  if (typeof value === "string") return value.trim().toLowerCase() === "true";
  throw new PolicyInputError(`${where} must be a boolean`);
}

export function parseAuthorizerConfig(input: Record<string, unknown>): AuthorizerConfig {
  return {
    superUsers: new Set(parseSuperUsers(input.superUsers, "superUsers")),
    allowEveryoneIfNoAclFound: parseAllowEveryone(input.allowEveryoneIfNoAclFound, "allowEveryoneIfNoAclFound"),
  };
}

// ---- CSV ------------------------------------------------------------------------

export const CSV_HEADER = [
  "Principal",
  "ResourceType",
  "PatternType",
  "ResourceName",
  "Operation",
  "PermissionType",
  "Host",
] as const;

/** One CSV line's cells, by header name, as the fields of a binding (still to be parsed). */
export function csvBindingFields<T>(get: (name: (typeof CSV_HEADER)[number]) => T) {
  return {
    principal: get("Principal"),
    resourceType: get("ResourceType"),
    patternType: get("PatternType"),
    resourceName: get("ResourceName"),
    operation: get("Operation"),
    permissionType: get("PermissionType"),
    host: get("Host"),
  };
}

/** RFC 4180 rows (quoted fields, doubled quotes, CRLF or LF). */
export function parseCsvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  let i = 0;
  const src = text.startsWith("\ufeff") ? text.slice(1) : text;
  while (i < src.length) {
    const c = src[i]!;
    if (quoted) {
      if (c === '"') {
        if (src[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else {
        field += c;
      }
      i++;
      continue;
    }
    if (c === '"' && field.length === 0) quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && src[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += c;
    i++;
  }
  if (quoted) throw new PolicyInputError("CSV: a quoted field is not closed");
  if (field.length > 0 || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => !(r.length === 1 && r[0] === ""));
}

/** A CSV header row as column positions by name; throws `missing(name)` for the first CSV_HEADER column it lacks. */
export function csvHeaderColumns(header: readonly string[], missing: (name: string) => Error): Map<string, number> {
  const columns = new Map(header.map((h, i) => [h.trim(), i]));
  for (const name of CSV_HEADER) if (!columns.has(name)) throw missing(name);
  return columns;
}

export function parseAclCsv(text: string): AclBinding[] {
  const rows = parseCsvRows(text);
  const header = rows[0];
  if (header === undefined) return [];
  const columns = csvHeaderColumns(
    header,
    (name) => new PolicyInputError(`CSV: the header must be ${CSV_HEADER.join(",")} (missing ${name})`),
  );
  return rows.slice(1).map((cells, r) => {
    const get = (name: (typeof CSV_HEADER)[number]) => cells[columns.get(name)!];
    return parseAclBinding(csvBindingFields(get), `CSV line ${r + 2}`, { lenient: true });
  });
}

/** JSON (array or `{acls}`) or CSV, decided by the content. */
export function parseAclDocument(text: string): AclBinding[] {
  const trimmed = text.trimStart();
  if (trimmed.startsWith("[") || trimmed.startsWith("{")) {
    if (jsonNestsDeeperThan(text))
      throw new PolicyInputError(
        `The ACL file nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep; an ACL file needs 3.`,
      );
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      throw new PolicyInputError(`The ACL file is not valid JSON: ${(e as Error).message}`);
    }
    return parseAclList(value, "acls", { lenient: true });
  }
  return parseAclCsv(text);
}

/** One CSV line per binding, with the export header. */
export function toAclCsv(acls: readonly AclBinding[]): string {
  const quote = (s: string) => (/[",\r\n]/.test(s) || s !== s.trim() ? `"${s.replace(/"/g, '""')}"` : s);
  const lines = [CSV_HEADER.join(",")];
  for (const b of acls) {
    lines.push(
      [b.principal, b.resourceType, b.patternType, b.resourceName, b.operation, b.permissionType, b.host]
        .map(quote)
        .join(","),
    );
  }
  return lines.join("\n") + "\n";
}
