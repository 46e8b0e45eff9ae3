/**
 * Identities: who a client is to Kafka. Maps certificate DNs (typed, or taken from an
 * uploaded PEM certificate's subject, printed as Java prints it) and Kerberos principals
 * to Kafka principals with the brokers' mapping rules (the console's settings
 * KAFKA_SSL_PRINCIPAL_MAPPING_RULES, KAFKA_SASL_KERBEROS_PRINCIPAL_TO_LOCAL_RULES and
 * KAFKA_KERBEROS_DEFAULT_REALM, or rules pasted into the page), exactly as Kafka 4.1's
 * DefaultKafkaPrincipalBuilder does (lib/policy/identity), and says what each resulting
 * principal may do according to the ACLs Kafka lets the viewer describe (the shared ACL
 * snapshot; nothing is shown when Kafka refuses). Used by the Identities page, POST
 * /api/v1/identities/map, the access check (a client given by DN or Kerberos principal)
 * and the ACL lint (principals no rule can produce).
 *
 * The rules and inputs come from the user, and a few backtracking rules against a few
 * inputs can take seconds on the server's one event loop. So every request maps with ONE
 * regex budget (requestRegexBudget): RULES_STEP_BUDGET steps shared by all its rules and
 * inputs, at most RULES_TIME_LIMIT_MS, and no further once its client has gone. Past any
 * of them the whole request is refused (RULES_TOO_COSTLY, 422) with the limit named.
 */
import "server-only";
import { X509Certificate } from "node:crypto";
import type { Viewer } from "@/lib/auth/sign-in";
import type { ActionResult } from "@/lib/schemas/result";
import {
  certificateIssuerRfc2253,
  certificateSubjectRfc2253,
  effectiveForPrincipal,
  kerberosRuleToString,
  normalizeDistinguishedName,
  principalMapper,
  RegexBudget,
  RegexBudgetExceeded,
  sslRuleToString,
  type AuthorizerConfig,
  type PrincipalMappingConfig,
  type PrincipalMappingRequest,
} from "@/lib/policy";
import type {
  IdentityInput,
  IdentityMapBody,
  IdentityMapResult,
  IdentityResult,
  PrincipalAccess,
} from "@/lib/schemas/identities";
import { getAclSnapshot, type AclSnapshot } from "./acl-snapshot";
import { toAuthorizerConfig } from "@/lib/authorizer-config";
import { clusterOf } from "@/lib/clusters";
import type { KafkaCredential } from "@/lib/kafka";

/** Patterns listed per principal; the rest are counted. */
const ACCESS_PATTERNS_SHOWN = 50;

/** Regex steps one request may spend on principal mapping, over every rule and input (some 0.1 s of work). */
export const RULES_STEP_BUDGET = 3_000_000;
/** And the time its mapping may take at most, whatever it is spent on. */
export const RULES_TIME_LIMIT_MS = 150;

/**
 * The one budget of a request's mapping (or of one lint's mapping checks); the time limit
 * counts from the first rule parsed. `signal` (the request's) stops it when the client has gone.
 */
export function requestRegexBudget(signal?: AbortSignal | null): RegexBudget {
  let deadline: number | null = null;
  return new RegexBudget(RULES_STEP_BUDGET, () => {
    if (signal?.aborted) throw new RegexBudgetExceeded("The request was cancelled, so its mapping was stopped.");
    const now = performance.now();
    deadline ??= now + RULES_TIME_LIMIT_MS;
    if (now > deadline) {
      throw new RegexBudgetExceeded(
        `Mapping these inputs with these rules takes longer than ${RULES_TIME_LIMIT_MS} ms (the limit per ` +
          `request); simplify the rules or send fewer inputs.`,
      );
    }
  });
}

/** A request refused for its mapping's cost, or rethrows anything else. */
export function rulesTooCostly(error: unknown): Extract<ActionResult<never>, { ok: false }> {
  if (!(error instanceof RegexBudgetExceeded)) throw error;
  return { ok: false, code: "RULES_TOO_COSTLY", message: error.message };
}

/**
 * The mapping settings of the brokers of `cluster` (the credential's cluster; the default
 * cluster when not given) as the console is told them (unset or blank: the property is unset).
 */
export function configuredPrincipalMapping(
  cluster: Pick<KafkaCredential, "clusterId"> = {},
): PrincipalMappingConfig & { configured: boolean } {
  const { sslRules: ssl, kerberosRules: kerberos, kerberosDefaultRealm: realm } = clusterOf(cluster).principalMapping;
  return {
    ssl: ssl === null ? null : { rules: ssl },
    kerberos: kerberos === null && realm === null ? null : { rules: kerberos, defaultRealm: realm },
    configured: ssl !== null || kerberos !== null,
  };
}

export type CertificateSubject =
  { ok: true; subject: string; issuer: string; notes: string[] } | { ok: false; error: string; message: string };

/** The subject (and issuer) of the first certificate in `pem`, as a broker's X500Principal#getName() prints it. */
export function certificateSubject(pem: string): CertificateSubject {
  let der: Uint8Array;
  try {
    der = new Uint8Array(new X509Certificate(pem).raw);
  } catch {
    return {
      ok: false,
      error: "CertificateException",
      message: "Not a readable certificate: paste or upload a PEM file (-----BEGIN CERTIFICATE----- ...).",
    };
  }
  try {
    const notes: string[] = [];
    const subject = certificateSubjectRfc2253(der, notes);
    return { ok: true, subject, issuer: certificateIssuerRfc2253(der), notes };
  } catch (e) {
    return {
      ok: false,
      error: "CertificateException",
      message: `The certificate's names could not be read: ${e instanceof Error ? e.message : String(e)}.`,
    };
  }
}

/** What `principal` may do, pattern by pattern, from the ACLs naming it or User:*. */
export function principalAccess(snapshot: AclSnapshot, principal: string, config: AuthorizerConfig): PrincipalAccess {
  const effective = effectiveForPrincipal(snapshot.index(), principal, undefined, config);
  const patterns = effective.patterns.map((p) => ({
    resourceType: p.resourceType,
    patternType: p.patternType,
    resourceName: p.resourceName,
    allowed: p.operations.filter((c) => c.decision === "ALLOWED").map((c) => c.operation),
    denied: p.operations.filter((c) => c.decision === "DENIED").map((c) => c.operation),
  }));
  return {
    principal,
    superUser: effective.superUser,
    patterns: patterns.slice(0, ACCESS_PATTERNS_SHOWN),
    more: Math.max(0, patterns.length - ACCESS_PATTERNS_SHOWN),
  };
}

function mappingConfigOf(
  body: Pick<IdentityMapBody, "sslRules" | "kerberosRules" | "defaultRealm">,
  cluster: Pick<KafkaCredential, "clusterId">,
): PrincipalMappingConfig {
  const configured = configuredPrincipalMapping(cluster);
  const sslRules = body.sslRules === undefined ? (configured.ssl?.rules ?? null) : body.sslRules;
  const kerberosRules = body.kerberosRules === undefined ? (configured.kerberos?.rules ?? null) : body.kerberosRules;
  const defaultRealm =
    body.defaultRealm === undefined ? (configured.kerberos?.defaultRealm ?? null) : body.defaultRealm;
  return { ssl: { rules: sslRules }, kerberos: { rules: kerberosRules, defaultRealm } };
}

/** Maps every input (pure apart from reading certificates): the page, the API and the access check share it. */
export function mapIdentities(
  body: IdentityMapBody,
  cluster: Pick<KafkaCredential, "clusterId"> = {},
  budget: RegexBudget = requestRegexBudget(),
): { config: IdentityMapResult["config"]; results: Omit<IdentityResult, "access">[] } {
  const config = mappingConfigOf(body, cluster);
  const mapper = principalMapper(config, budget);
  const results = body.inputs.map((input): Omit<IdentityResult, "access"> => {
    let request: PrincipalMappingRequest;
    let certificate: IdentityResult["certificate"] = null;
    if (input.type === "certificate") {
      const read = certificateSubject(input.pem);
      budget.check();
      if (!read.ok)
        return {
          input: { type: "certificate", value: null },
          certificate: null,
          outcome: { ok: false, error: read.error, message: read.message, stage: "certificate" },
        };
      certificate = { subject: read.subject, issuer: read.issuer, notes: read.notes };
      request = { type: "ssl", distinguishedName: read.subject };
    } else
      request =
        input.type === "ssl"
          ? { type: "ssl", distinguishedName: input.distinguishedName }
          : { type: "kerberos", principal: input.principal };
    const outcome = mapper.map(request);
    return {
      input: { type: input.type, value: inputValue(input, certificate) },
      certificate,
      outcome: outcome.ok
        ? { ok: true, name: outcome.name, principal: outcome.principal, rule: outcome.rule }
        : {
            ok: false,
            error: outcome.error,
            message: outcome.message,
            stage: outcome.stage,
            ...(outcome.brokerError ? { brokerError: outcome.brokerError } : {}),
          },
    };
  });
  const error = mapper.configError;
  return {
    config: {
      sslRules: config.ssl?.rules ?? null,
      kerberosRules: config.kerberos?.rules ?? null,
      defaultRealm: config.kerberos?.defaultRealm ?? null,
      parsedSslRules: (mapper.sslRules ?? []).map(sslRuleToString),
      parsedKerberosRules: (mapper.kerberosRules ?? []).map(kerberosRuleToString),
      error: error === null ? null : { error: error.error, message: error.message, property: error.property ?? "" },
    },
    results,
  };
}

function inputValue(input: IdentityInput, certificate: IdentityResult["certificate"]): string | null {
  if (input.type === "ssl") return input.distinguishedName;
  if (input.type === "kerberos") return input.principal;
  return certificate?.subject ?? null;
}

/**
 * The page's and the API's answer: every input mapped, with what each principal may do when
 * Kafka lets the viewer describe ACLs. `signal`: the request's, to stop when its client has gone.
 */
export async function mapIdentitiesFor(
  viewer: Viewer,
  body: IdentityMapBody,
  signal?: AbortSignal,
): Promise<ActionResult<IdentityMapResult>> {
  let mapped: ReturnType<typeof mapIdentities>;
  try {
    mapped = mapIdentities(body, viewer.credential, requestRegexBudget(signal));
  } catch (e) {
    return rulesTooCostly(e);
  }
  const principals = mapped.results.some((r) => r.outcome.ok);
  const acls = principals ? await getAclSnapshot(viewer) : null;
  const config = toAuthorizerConfig(clusterOf(viewer.credential).authorizer);
  const access = new Map<string, PrincipalAccess>();
  const results = mapped.results.map((r): IdentityResult => {
    if (!r.outcome.ok || acls === null || !acls.ok) return { ...r, access: null };
    const principal = r.outcome.principal;
    let a = access.get(principal);
    if (a === undefined) {
      a = principalAccess(acls.snapshot, principal, config);
      access.set(principal, a);
    }
    return { ...r, access: a };
  });
  return {
    ok: true,
    data: {
      ...mapped,
      results,
      accessUnavailable:
        acls !== null && !acls.ok ? `What these principals may do is not shown: ${acls.message}` : null,
    },
  };
}

export type MappedClient =
  | {
      ok: true;
      principal: string;
      rule: string | null;
      rules: string;
      /** The DN as Kafka sees it, when it was typed otherwise (spaces after commas, lower-case keywords). */
      canonicalDn: string | null;
    }
  | { ok: false; message: string };

/**
 * One client, given by certificate DN or Kerberos principal, mapped with the configured
 * rules (the access check). `rules` names the rules used, for the answer.
 */
export function mapConfiguredClient(
  kind: "certificate" | "kerberos",
  value: string,
  cluster: Pick<KafkaCredential, "clusterId"> = {},
  budget: RegexBudget = requestRegexBudget(),
): MappedClient {
  const configured = configuredPrincipalMapping(cluster);
  const mapper = principalMapper(configured, budget);
  const dn = kind === "certificate" ? (normalizeDistinguishedName(value) ?? value) : null;
  const outcome = mapper.map(
    dn !== null ? { type: "ssl", distinguishedName: dn } : { type: "kerberos", principal: value },
  );
  const rules =
    kind === "certificate"
      ? configured.ssl?.rules != null
        ? `ssl.principal.mapping.rules = ${configured.ssl.rules} (KAFKA_SSL_PRINCIPAL_MAPPING_RULES)`
        : "ssl.principal.mapping.rules unset (DEFAULT: the DN itself)"
      : configured.kerberos?.rules != null
        ? `sasl.kerberos.principal.to.local.rules = ${configured.kerberos.rules} ` +
          `(KAFKA_SASL_KERBEROS_PRINCIPAL_TO_LOCAL_RULES)`
        : `sasl.kerberos.principal.to.local.rules unset (DEFAULT, default ` +
          `realm ${JSON.stringify(configured.kerberos?.defaultRealm ?? "")})`;
  if (!outcome.ok) {
    const who = kind === "certificate" ? `A client presenting certificate DN ${value}` : `Kerberos principal ${value}`;
    return {
      ok: false,
      message:
        outcome.stage === "config"
          ? `The configured ${outcome.property} is refused by Kafka (a broker would not ` +
            `start): ${outcome.error}: ${outcome.message}`
          : `${who} gets no principal (${rules}): Kafka refuses the connection ` +
            `with ${outcome.error}: ${outcome.message}`,
    };
  }
  return {
    ok: true,
    principal: outcome.principal,
    rule: outcome.rule?.text ?? null,
    rules,
    canonicalDn: dn !== null && dn !== value ? dn : null,
  };
}
