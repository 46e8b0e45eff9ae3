/**
 * The identity commands of the policy CLI (scripts/policy.ts dispatches to them).
 * - `principal-map`: one JSON document in, one out, exactly the shape of the stable
 *   contract in docs/policy-cli.md:
 *     { ssl: { rules } | null, kerberos: { rules, defaultRealm } | null,
 *       requests: [{ type: "ssl", distinguishedName } | { type: "kerberos", principal }] }
 *     -> { results: [{ name, principal } | { error, message }] }
 *   A rules value Kafka refuses answers every request with its exception (exit 0).
 *   Bad input throws PolicyInputError; the dispatcher turns it into exit 2. So does a
 *   document whose rules and requests together need more than CLI_REGEX_STEP_BUDGET regex
 *   steps (some seconds of work, where the console allows a request a fraction of one).
 */
import { PolicyInputError } from "../lib/policy/acl/errors";
import {
  mapPrincipals,
  type PrincipalMappingConfig,
  type PrincipalMappingRequest,
  type PrincipalMappingResult,
} from "../lib/policy/identity/principal-map";
import { RegexBudget, RegexBudgetExceeded } from "../lib/policy/identity/regex-budget";

/** Regex steps one `principal-map` document may spend over all its rules and requests. */
export const CLI_REGEX_STEP_BUDGET = 100_000_000;

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

function stringOrNull(o: Obj, key: string, where: string): string | null {
  const v = o[key];
  if (v === undefined || v === null) return null;
  if (typeof v !== "string")
    throw new PolicyInputError(`${where}.${key} must be a string or null, got ${JSON.stringify(v)}`);
  return v;
}

function section(input: Obj, key: "ssl" | "kerberos"): Obj | null {
  const v = input[key];
  if (v === undefined || v === null) return null;
  if (!isObj(v)) throw new PolicyInputError(`${key} must be an object or null, got ${JSON.stringify(v)}`);
  return v;
}

function parseRequest(value: unknown, i: number): PrincipalMappingRequest {
  const where = `requests[${i}]`;
  if (!isObj(value))
    throw new PolicyInputError(
      `${where} must be an object { type: "ssl", distinguishedName } or { type: "kerberos", principal }`,
    );
  if (value.type === "ssl") {
    if (!("distinguishedName" in value))
      throw new PolicyInputError(`${where}.distinguishedName is missing (null for a client without a certificate)`);
    return { type: "ssl", distinguishedName: stringOrNull(value, "distinguishedName", where) };
  }
  if (value.type === "kerberos") {
    if (typeof value.principal !== "string")
      throw new PolicyInputError(`${where}.principal must be a string, got ${JSON.stringify(value.principal)}`);
    return { type: "kerberos", principal: value.principal };
  }
  throw new PolicyInputError(`${where}.type must be "ssl" or "kerberos", got ${JSON.stringify(value.type)}`);
}

export function principalMapCommand(input: unknown): unknown {
  if (!isObj(input))
    throw new PolicyInputError("principal-map: the input must be a JSON object { ssl, kerberos, requests }");
  const ssl = section(input, "ssl");
  const kerberos = section(input, "kerberos");
  if (!Array.isArray(input.requests)) throw new PolicyInputError("requests must be an array");
  const config: PrincipalMappingConfig = {
    ssl: ssl === null ? null : { rules: stringOrNull(ssl, "rules", "ssl") },
    kerberos:
      kerberos === null
        ? null
        : {
            rules: stringOrNull(kerberos, "rules", "kerberos"),
            defaultRealm: stringOrNull(kerberos, "defaultRealm", "kerberos"),
          },
  };
  const requests = input.requests.map(parseRequest);
  let results: PrincipalMappingResult[];
  try {
    results = mapPrincipals(config, requests, new RegexBudget(CLI_REGEX_STEP_BUDGET, null, "document"));
  } catch (e) {
    if (e instanceof RegexBudgetExceeded) throw new PolicyInputError(e.message);
    throw e;
  }
  return {
    results: results.map((r) =>
      r.ok ? { name: r.name, principal: r.principal } : { error: r.error, message: r.message },
    ),
  };
}

export const IDENTITY_JSON_COMMANDS = ["principal-map"] as const;
export type IdentityJsonCommand = (typeof IDENTITY_JSON_COMMANDS)[number];

export const identityJsonCommands: Record<IdentityJsonCommand, (input: unknown) => unknown> = {
  "principal-map": principalMapCommand,
};
