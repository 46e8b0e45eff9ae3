/**
 * The quota and token commands of the policy CLI (scripts/policy.ts dispatches to them).
 * - `quotaTokenJsonCommands`: one JSON document in, one out, exactly the shapes of the
 *   stable contract in docs/policy-cli.md (quota, quota-filter, quota-alter, quota-budget, token).
 *   Bad input throws PolicyInputError; the dispatcher turns it into exit 2.
 * - `quotaTokenHumanCommand`: `quota --quotas FILE ...` and `budget FILE`, for people.
 */
import { PolicyInputError } from "../lib/policy/acl/errors";
import { parseAclList, parseAuthorizerConfig, parseRequestPrincipal } from "../lib/policy/acl/parse";
import { tokenHmac } from "../lib/policy/crypto/sha512";
import { budgetFindings, checkBudgetChange, userBudget, type QuotaChange } from "../lib/policy/quota/budget";
import { formatEntity } from "../lib/policy/quota/entity";
import { describeClientQuotas, QUOTA_MATCH_TYPES, type QuotaFilterComponent } from "../lib/policy/quota/filter";
import { validateQuotaAlteration, type QuotaAlterOp } from "../lib/policy/quota/alter";
import { QuotaIndex, resolveClientQuota, resolveIpQuota } from "../lib/policy/quota/resolve";
import { aclIsAllowed } from "../lib/policy/token/acl-bridge";
import {
  SECURITY_PROTOCOLS,
  createToken,
  describeTokens,
  expireToken,
  renewToken,
  type TokenContext,
} from "../lib/policy/token/token";
import { CLIENT_QUOTA_KEYS, QUOTA_ENTITY_TYPES, QUOTA_KEYS } from "../lib/policy/types";
import type { ClientQuotaKey, ConfiguredQuota, DelegationToken, QuotaEntity } from "../lib/policy/types";

// ---- input checking ------------------------------------------------------------------

type Obj = Record<string, unknown>;

function obj(value: unknown, where: string): Obj {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new PolicyInputError(`${where} must be a JSON object`);
  return value as Obj;
}
function arr(value: unknown, where: string): unknown[] {
  if (!Array.isArray(value)) throw new PolicyInputError(`${where} must be an array`);
  return value;
}
function str(value: unknown, where: string): string {
  if (typeof value !== "string") throw new PolicyInputError(`${where} must be a string`);
  return value;
}
function strOrNull(value: unknown, where: string): string | null {
  if (value === null) return null;
  return str(value, where);
}
function num(value: unknown, where: string): number {
  if (typeof value !== "number" || !Number.isFinite(value)) throw new PolicyInputError(`${where} must be a number`);
  return value;
}
function int(value: unknown, where: string, min?: number): number {
  const n = num(value, where);
  if (!Number.isInteger(n)) throw new PolicyInputError(`${where} must be an integer`);
  if (min !== undefined && n < min) throw new PolicyInputError(`${where} must be at least ${min}`);
  return n;
}
function numOrNull(value: unknown, where: string): number | null {
  return value === null ? null : num(value, where);
}
function bool(value: unknown, where: string): boolean {
  if (typeof value !== "boolean") throw new PolicyInputError(`${where} must be true or false`);
  return value;
}
function oneOf<T extends string>(value: unknown, allowed: readonly T[], where: string): T {
  if (typeof value !== "string" || !(allowed as readonly string[]).includes(value))
    throw new PolicyInputError(`${where} must be one of ${allowed.join(", ")}; got ${JSON.stringify(value)}`);
  return value as T;
}

/** A quota entity of the vocabulary: only user / client-id / ip, names string or null (<default>). */
function parseEntity(value: unknown, where: string): QuotaEntity {
  const o = obj(value, where);
  const entity: QuotaEntity = {};
  for (const [k, v] of Object.entries(o)) {
    const type = oneOf(k, QUOTA_ENTITY_TYPES, `${where} key`);
    entity[type] = strOrNull(v, `${where}.${k}`);
  }
  return entity;
}

function parseConfigured(value: unknown, where: string): ConfiguredQuota[] {
  return arr(value, where).map((item, i) => {
    const o = obj(item, `${where}[${i}]`);
    return {
      entity: parseEntity(o.entity, `${where}[${i}].entity`),
      key: oneOf(o.key, QUOTA_KEYS, `${where}[${i}].key`),
      value: num(o.value, `${where}[${i}].value`),
    };
  });
}

// ---- JSON commands ---------------------------------------------------------------------

type QuotaTokenCommand = "quota" | "quota-filter" | "quota-alter" | "quota-budget" | "token";

function quota(input: unknown): unknown {
  const doc = obj(input, "quota input");
  const index = new QuotaIndex(parseConfigured(doc.configured, "configured"));
  const results = arr(doc.requests, "requests").map((item, i) => {
    const where = `requests[${i}]`;
    const r = obj(item, where);
    if (r.ip !== undefined) {
      // connection_creation_rate is the only ip quota key, so it may be left out.
      if (r.key !== undefined) oneOf(r.key, ["connection_creation_rate"] as const, `${where}.key`);
      const { value, entity } = resolveIpQuota(index, str(r.ip, `${where}.ip`));
      return { value, entity };
    }
    const key = oneOf(r.key, CLIENT_QUOTA_KEYS, `${where}.key`);
    // `client-id`, as quota entities spell it, is accepted for `clientId`.
    const [clientId, clientIdName] =
      r.clientId === undefined && r["client-id"] !== undefined
        ? [r["client-id"], "client-id"]
        : [r.clientId, "clientId"];
    const res = resolveClientQuota(index, str(r.user, `${where}.user`), str(clientId, `${where}.${clientIdName}`), key);
    return { value: res.value, entity: res.entity, metricTags: res.metricTags };
  });
  return { results };
}

function quotaFilter(input: unknown): unknown {
  const doc = obj(input, "quota-filter input");
  const configured = parseConfigured(doc.configured, "configured");
  const f = obj(doc.filter, "filter");
  const components: QuotaFilterComponent[] = arr(f.components, "filter.components").map((item, i) => {
    const where = `filter.components[${i}]`;
    const c = obj(item, where);
    const matchType =
      typeof c.matchType === "number"
        ? int(c.matchType, `${where}.matchType`)
        : oneOf(c.matchType, QUOTA_MATCH_TYPES, `${where}.matchType`);
    return {
      entityType: str(c.entityType, `${where}.entityType`),
      matchType,
      match: c.match === undefined ? null : strOrNull(c.match, `${where}.match`),
    };
  });
  const strict = f.strict === undefined ? false : bool(f.strict, "filter.strict");
  const r = describeClientQuotas(configured, { components, strict });
  return r.ok ? { entities: r.entries.map((e) => e.entity) } : { error: `${r.error}: ${r.message}` };
}

function quotaAlter(input: unknown): unknown {
  const doc = obj(input, "quota-alter input");
  // Any entity type is accepted here, so that Kafka's own message for it can be returned.
  const rawEntity = obj(doc.entity, "entity");
  const entity: Record<string, string | null> = {};
  for (const [k, v] of Object.entries(rawEntity)) entity[k] = strOrNull(v, `entity.${k}`);
  const ops: QuotaAlterOp[] = arr(doc.ops, "ops").map((item, i) => {
    const o = obj(item, `ops[${i}]`);
    if (!("value" in o))
      throw new PolicyInputError(`ops[${i}].value is required (a number, or null to remove the key)`);
    return { key: strOrNull(o.key, `ops[${i}].key`), value: numOrNull(o.value, `ops[${i}].value`) };
  });
  // Kafka accepts any ip name InetAddress.getByName resolves. This offline check has no DNS, but
  // "localhost" resolves on every machine (RFC 6761), so Kafka's controller always accepts it.
  const r = validateQuotaAlteration(entity, ops, { isResolvableHost: (host) => host.toLowerCase() === "localhost" });
  return r.ok ? { ok: true } : { ok: false, error: r.error, message: r.message };
}

function quotaBudget(input: unknown): unknown {
  const doc = obj(input, "quota-budget input");
  const configured = parseConfigured(doc.configured, "configured");
  const change: QuotaChange[] = arr(doc.change, "change").map((item, i) => {
    const o = obj(item, `change[${i}]`);
    if (!("value" in o))
      throw new PolicyInputError(`change[${i}].value is required (a number, or null to remove the key)`);
    return {
      entity: parseEntity(o.entity, `change[${i}].entity`),
      key: oneOf(o.key, QUOTA_KEYS, `change[${i}].key`),
      value: numOrNull(o.value, `change[${i}].value`),
    };
  });
  const r = checkBudgetChange(configured, change);
  return { ok: r.ok, violations: r.violations };
}

/**
 * A principal as `Type:name`, or as Kafka's wire messages spell it
 * (`{ principalType, principalName }`, e.g. DescribeDelegationTokenRequest owners).
 */
function parsePrincipal(value: unknown, where: string): string {
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const o = value as Obj;
    return `${str(o.principalType, `${where}.principalType`)}:${str(o.principalName, `${where}.principalName`)}`;
  }
  return parseRequestPrincipal(value, where);
}

function parsePrincipalList(value: unknown, where: string): string[] {
  return arr(value, where).map((p, i) => parsePrincipal(p, `${where}[${i}]`));
}

/** The first of `names` present in `o` (the console's name first, then Kafka's). */
function field(o: Obj, ...names: string[]): [unknown, string] {
  const name = names.find((n) => o[n] !== undefined) ?? names[0]!;
  return [o[name], name];
}

function parseTokens(value: unknown, secretKey: string | null): DelegationToken[] {
  if (value === undefined) return [];
  return arr(value, "tokens").map((item, i) => {
    const where = `tokens[${i}]`;
    const t = obj(item, where);
    const tokenId = str(t.tokenId, `${where}.tokenId`);
    const owner = parsePrincipal(t.owner, `${where}.owner`);
    let hmac: string;
    if (t.hmac !== undefined) hmac = str(t.hmac, `${where}.hmac`);
    else if (secretKey) hmac = tokenHmac(secretKey, tokenId);
    else throw new PolicyInputError(`${where}.hmac is required when config.secretKey is empty`);
    // Kafka's TokenInformation / DescribeDelegationTokenResponse names are accepted too.
    const [requester, requesterName] = field(t, "requester", "tokenRequester");
    const timestamp = (name: string) => {
      const [value, used] = field(t, name, `${name}Ms`);
      return num(value, `${where}.${used}`);
    };
    return {
      tokenId,
      hmac,
      owner,
      requester: requester === undefined ? owner : parsePrincipal(requester, `${where}.${requesterName}`),
      renewers: t.renewers === undefined ? [] : parsePrincipalList(t.renewers, `${where}.renewers`),
      issueTimestamp: timestamp("issueTimestamp"),
      expiryTimestamp: timestamp("expiryTimestamp"),
      maxTimestamp: timestamp("maxTimestamp"),
    };
  });
}

/**
 * The owner of a token to create: `owner` as `Type:name` or `{ principalType, principalName }`,
 * or CreateDelegationTokenRequest's `ownerPrincipalType` / `ownerPrincipalName`. As in Kafka,
 * an absent or empty owner name means the requester (null here).
 */
function parseOwner(r: Obj): string | null {
  if (r.owner === undefined && (r.ownerPrincipalName !== undefined || r.ownerPrincipalType !== undefined)) {
    const name = strOrNull(r.ownerPrincipalName ?? null, "request.ownerPrincipalName");
    if (name === null || name === "") return null;
    return `${str(r.ownerPrincipalType, "request.ownerPrincipalType")}:${name}`;
  }
  if (r.owner === undefined || r.owner === null || r.owner === "") return null;
  if (typeof r.owner === "object" && !Array.isArray(r.owner) && ((r.owner as Obj).principalName ?? "") === "")
    return null;
  return parsePrincipal(r.owner, "request.owner");
}

/** Renew and expire name the token by its HMAC, or (console convenience) by its id. */
function tokenHmacOf(r: Obj, secretKey: string | null): string {
  if (r.hmac !== undefined) return str(r.hmac, "request.hmac");
  if (r.tokenId !== undefined) return secretKey ? tokenHmac(secretKey, str(r.tokenId, "request.tokenId")) : "";
  throw new PolicyInputError("request.hmac (or request.tokenId) is required");
}

function token(input: unknown): unknown {
  const doc = obj(input, "token input");
  const operation = oneOf(doc.operation, ["create", "renew", "expire", "describe"] as const, "operation");
  const c = obj(doc.config, "config");
  const secretKey = c.secretKey === undefined ? null : strOrNull(c.secretKey, "config.secretKey");
  const config = {
    secretKey,
    maxLifetimeMs: c.maxLifetimeMs === undefined ? 7 * 24 * 3600_000 : int(c.maxLifetimeMs, "config.maxLifetimeMs", 1),
    expiryTimeMs: c.expiryTimeMs === undefined ? 24 * 3600_000 : int(c.expiryTimeMs, "config.expiryTimeMs", 1),
  };
  const conn = obj(doc.connection, "connection");
  const connection = {
    principal: parsePrincipal(conn.principal, "connection.principal"),
    securityProtocol: oneOf(conn.securityProtocol, SECURITY_PROTOCOLS, "connection.securityProtocol"),
    tokenAuthenticated:
      conn.tokenAuthenticated === undefined ? false : bool(conn.tokenAuthenticated, "connection.tokenAuthenticated"),
  };
  // The client address ACL hosts are matched against; the console reaches the broker from localhost by default.
  const host = conn.host === undefined ? "127.0.0.1" : str(conn.host, "connection.host");
  const acls = doc.acls === undefined ? [] : parseAclList(doc.acls, "acls");
  const ctx: TokenContext = {
    config,
    connection,
    now: int(doc.now, "now"),
    isAllowed: aclIsAllowed(acls, parseAuthorizerConfig(doc), host),
  };
  const tokens = parseTokens(doc.tokens, secretKey);
  const r = doc.request === undefined ? {} : obj(doc.request, "request");

  switch (operation) {
    case "create": {
      const res = createToken(ctx, tokens, {
        owner: parseOwner(r),
        renewers: r.renewers === undefined ? [] : parsePrincipalList(r.renewers, "request.renewers"),
        maxLifetimeMs: r.maxLifetimeMs === undefined ? -1 : int(r.maxLifetimeMs, "request.maxLifetimeMs"),
        ...(r.tokenId === undefined ? {} : { tokenId: str(r.tokenId, "request.tokenId") }),
      });
      return res.token
        ? { error: res.error, ...res.token }
        : { error: res.error, owner: res.owner, requester: res.requester };
    }
    case "renew": {
      const res = renewToken(ctx, tokens, {
        hmac: tokenHmacOf(r, secretKey),
        renewPeriodMs: r.renewPeriodMs === undefined ? -1 : int(r.renewPeriodMs, "request.renewPeriodMs"),
      });
      return res.error === "NONE"
        ? { error: res.error, expiryTimestamp: res.expiryTimestamp, token: res.token }
        : { error: res.error };
    }
    case "expire": {
      const res = expireToken(ctx, tokens, {
        hmac: tokenHmacOf(r, secretKey),
        expiryTimePeriodMs:
          r.expiryTimePeriodMs === undefined ? -1 : int(r.expiryTimePeriodMs, "request.expiryTimePeriodMs"),
      });
      return res.error === "NONE"
        ? { error: res.error, expiryTimestamp: res.expiryTimestamp, removed: res.removed, token: res.token }
        : { error: res.error };
    }
    case "describe": {
      const owners =
        r.owners === undefined || r.owners === null ? null : parsePrincipalList(r.owners, "request.owners");
      return describeTokens(ctx, tokens, { owners });
    }
  }
}

export const quotaTokenJsonCommands: Record<QuotaTokenCommand, (input: unknown) => unknown> = {
  quota,
  "quota-filter": quotaFilter,
  "quota-alter": quotaAlter,
  "quota-budget": quotaBudget,
  token,
};

// ---- human commands ----------------------------------------------------------------------

function option(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  if (i < 0) return undefined;
  const v = argv[i + 1];
  if (v === undefined || v.startsWith("--")) throw new PolicyInputError(`${name} needs a value`);
  return v;
}

/** A quota file: `[{ entity, key, value }]` or `{ "configured": [...] }`. */
async function readQuotas(path: string, readFile: (p: string) => Promise<string>): Promise<ConfiguredQuota[]> {
  let doc: unknown;
  try {
    doc = JSON.parse(await readFile(path));
  } catch (e) {
    throw new PolicyInputError(`cannot read ${path} as JSON: ${(e as Error).message}`);
  }
  return parseConfigured(Array.isArray(doc) ? doc : obj(doc, path).configured, `${path}: configured`);
}

const show = (v: number | null) => (v === null ? "unlimited" : String(v));

export const QUOTA_TOKEN_HELP = `  quota --quotas FILE --user NAME --client-id ID [--key KEY]
                        the quota Kafka applies to (user, client-id) per key: value, the
                        deciding level and entity, and the bucket (metric tags) it shares;
                        then the user's KIP-55 budget (total, sub-quotas, what is left)
  quota --quotas FILE --ip ADDRESS
                        the connection_creation_rate limit for connections from ADDRESS
  budget FILE           KIP-55 findings: users whose client sub-quotas exceed their total
                        (exit 1 when there are violations)
  FILE is JSON: [{ "entity": {"user": "alice"}, "key": "producer_byte_rate", "value": 1048576 }, ...]
  (or { "configured": [...] }); a null name is the <default> entity.`;

/** Returns the text to print and the exit code, or null when the command is not ours. */
export async function quotaTokenHumanCommand(
  argv: string[],
  readFile: (p: string) => Promise<string>,
): Promise<{ text: string; exitCode: number } | null> {
  const [command, ...rest] = argv;
  if (command === "quota") {
    const file = option(rest, "--quotas");
    if (!file) throw new PolicyInputError("quota: --quotas FILE is required");
    const configured = await readQuotas(file, readFile);
    const ip = option(rest, "--ip");
    if (ip !== undefined) {
      const r = resolveIpQuota(configured, ip);
      const why =
        r.source === null
          ? "nothing configured"
          : r.source === "ip"
            ? `set on ${formatEntity(r.entity!)}`
            : "from ip=<default>";
      return { text: `connection_creation_rate for ${ip}: ${show(r.value)} (${why})\n`, exitCode: 0 };
    }
    const user = option(rest, "--user");
    const clientId = option(rest, "--client-id");
    if (user === undefined || clientId === undefined)
      throw new PolicyInputError("quota: give --user NAME and --client-id ID (or --ip ADDRESS)");
    const keyArg = option(rest, "--key");
    const keys: ClientQuotaKey[] =
      keyArg === undefined ? [...CLIENT_QUOTA_KEYS] : [oneOf(keyArg, CLIENT_QUOTA_KEYS, "--key")];
    const index = new QuotaIndex(configured);
    const lines = [`Quotas Kafka applies to user=${user}, client-id=${clientId}:`];
    for (const key of keys) {
      const r = resolveClientQuota(index, user, clientId, key);
      const decided =
        r.level === null
          ? "no level configures this key"
          : `level ${r.level} ${r.candidates[r.level - 1]!.label}: ${formatEntity(r.entity!)}`;
      const bucket =
        `bucket user=${JSON.stringify(r.metricTags.user)} ` + `client-id=${JSON.stringify(r.metricTags["client-id"])}`;
      lines.push(`  ${key.padEnd(25)} ${show(r.value).padStart(12)}  ${decided}; ${bucket}`);
    }
    lines.push(`KIP-55 budget of user=${user} (a console rule; Kafka does not enforce it):`);
    for (const b of userBudget(configured, user).filter((l) => keys.includes(l.key))) {
      if (b.total === null && b.clients.length === 0 && b.defaultClientQuota === null) continue;
      const source = b.totalSource === "default" ? " (from user=<default>)" : "";
      const clients = b.clients.map((c) => `${c.clientId}=${c.value}`).join(", ") || "none";
      const left = b.remaining === null ? "no total" : b.overBudget ? `OVER by ${-b.remaining}` : `${b.remaining} left`;
      const dflt =
        b.defaultClientQuota === null
          ? ""
          : `; every other client gets its own ${b.defaultClientQuota} (client-id=<default>)`;
      lines.push(
        `  ${b.key.padEnd(25)} total ${show(b.total)}${source}, sub-quotas ${b.sum} [${clients}]: ${left}${dflt}`,
      );
    }
    return { text: lines.join("\n") + "\n", exitCode: 0 };
  }
  if (command === "budget") {
    const file = rest[0];
    if (!file) throw new PolicyInputError("budget: give the quota FILE");
    const configured = await readQuotas(file, readFile);
    const f = budgetFindings(configured);
    const who = (u: string | null) => (u === null ? "<default>" : u);
    const lines: string[] = [];
    for (const v of f.violations)
      lines.push(
        `VIOLATION user=${who(v.user)} ${v.key}: client sub-quotas sum to ${v.sum}, over the user's ` +
          `total ${show(v.total)} (clients: ${v.clients.join(", ")})`,
      );
    for (const w of f.warnings) lines.push(`WARNING   user=${who(w.user)} ${w.key}: ${w.message}`);
    if (lines.length === 0) lines.push("No KIP-55 findings: every user's client sub-quotas fit its total.");
    lines.push("(KIP-55 sub-quota budget is a console rule; Kafka itself does not check it.)");
    return { text: lines.join("\n") + "\n", exitCode: f.violations.length > 0 ? 1 : 0 };
  }
  return null;
}
