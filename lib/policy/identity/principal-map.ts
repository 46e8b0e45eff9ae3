/**
 * Who a client is to Kafka: DefaultKafkaPrincipalBuilder's answer for an SSL client
 * (its certificate's distinguished name through `ssl.principal.mapping.rules`) and for a
 * Kerberos (GSSAPI) client (its principal through `sasl.kerberos.principal.to.local.rules`),
 * both as `User:<short name>`. An SSL client without a certificate is `User:ANONYMOUS`.
 *
 * Configuration first: a rules value Kafka refuses stops the broker, so every request of
 * the document answers with that exception (SSL rules are checked before Kerberos rules).
 * Then per request: the name, or the mapper's exception. (The broker wraps the mappers'
 * IOExceptions — NoMatchingRule, BadFormatString — in a KafkaException "Failed to map
 * name for '<dn>' based on SSL principal mapping rules." / "Failed to set name for
 * '<principal>' based on Kerberos authentication rules."; `brokerError` carries that
 * outer exception, `error` the mapper's own.)
 *
 * Every regex step, from parsing the rules to the last request, is charged to the
 * optional RegexBudget (./regex-budget.ts) given to the mapper: past it, RegexBudgetExceeded
 * is thrown to the caller (it is no answer Kafka would give, so never a per-request result).
 *
 * Mirrors clients/.../security/authenticator/DefaultKafkaPrincipalBuilder.java (4.1).
 */
import { JavaException, UNSUPPORTED_JAVA_REGEX } from "./java/exception";
import {
  kerberosNameToString,
  kerberosRuleToString,
  kerberosShortName,
  parseKerberosName,
  parseKerberosRules,
  splitKerberosRules,
  type KerberosRule,
} from "./kerberos";
import { mapDistinguishedName, parseSslRules, sslRuleToString, type SslRule } from "./ssl-principal-mapper";
import type { RegexBudget } from "./regex-budget";

/** KafkaPrincipal.USER_TYPE and KafkaPrincipal.ANONYMOUS's name. */
export const USER_TYPE = "User";
export const ANONYMOUS = "ANONYMOUS";

export interface PrincipalMappingConfig {
  /** null: no SSL mapping configured, i.e. `ssl.principal.mapping.rules` unset (DEFAULT). */
  readonly ssl: { readonly rules: string | null } | null;
  /** null: `sasl.kerberos.principal.to.local.rules` unset (DEFAULT) and no default realm (""). */
  readonly kerberos: { readonly rules: string | null; readonly defaultRealm: string | null } | null;
}

export type PrincipalMappingRequest =
  | { readonly type: "ssl"; readonly distinguishedName: string | null }
  | { readonly type: "kerberos"; readonly principal: string };

export type PrincipalMappingResult =
  | {
      readonly ok: true;
      readonly name: string;
      readonly principal: string;
      /**
       * The rule that produced the name (index into the parsed rules, and how Kafka prints it); null when no rule was
       * consulted.
       */
      readonly rule: { readonly index: number; readonly text: string } | null;
    }
  | {
      readonly ok: false;
      /**
       * Java's simple exception class name, e.g. NoMatchingRule; UnsupportedJavaRegex when the policy core cannot tell.
       */
      readonly error: string;
      readonly message: string;
      /** "config": the rules value is refused (the broker would not start); "mapping": this client is refused. */
      readonly stage: "config" | "mapping";
      /** Which property the configuration error is about. */
      readonly property?: "ssl.principal.mapping.rules" | "sasl.kerberos.principal.to.local.rules";
      /** The exception the broker logs when it wraps the mapper's (KafkaException), when it does. */
      readonly brokerError?: { readonly error: string; readonly message: string };
    };

export interface PrincipalMapper {
  readonly sslRules: readonly SslRule[] | null;
  readonly kerberosRules: readonly KerberosRule[] | null;
  /** The configuration error every request answers with, if any. */
  readonly configError: Extract<PrincipalMappingResult, { ok: false }> | null;
  map(request: PrincipalMappingRequest): PrincipalMappingResult;
}

function asJavaException(e: unknown): JavaException {
  if (e instanceof JavaException) return e;
  if (e instanceof RangeError)
    return new JavaException(UNSUPPORTED_JAVA_REGEX, "the rule recurses too deeply for the policy core to follow");
  throw e;
}

/** Builds the mappers as the broker does at start-up; requests are then mapped one by one. */
export function principalMapper(config: PrincipalMappingConfig, budget: RegexBudget | null = null): PrincipalMapper {
  let sslRules: SslRule[] | null = null;
  let kerberosRules: KerberosRule[] | null = null;
  let configError: Extract<PrincipalMappingResult, { ok: false }> | null = null;
  budget?.check();
  try {
    sslRules = parseSslRules(config.ssl?.rules ?? null, budget);
  } catch (e) {
    const j = asJavaException(e);
    configError = {
      ok: false,
      error: j.exception,
      message: j.message,
      stage: "config",
      property: "ssl.principal.mapping.rules",
    };
  }
  if (configError === null) {
    try {
      const value = config.kerberos?.rules ?? null;
      kerberosRules = parseKerberosRules(
        config.kerberos?.defaultRealm ?? "",
        value === null ? null : splitKerberosRules(value, budget),
        budget,
      );
    } catch (e) {
      const j = asJavaException(e);
      configError = {
        ok: false,
        error: j.exception,
        message: j.message,
        stage: "config",
        property: "sasl.kerberos.principal.to.local.rules",
      };
    }
  }

  const user = (name: string, rule: { index: number; text: string } | null): PrincipalMappingResult => ({
    ok: true,
    name,
    principal: `${USER_TYPE}:${name}`,
    rule,
  });

  function mapSsl(dn: string | null): PrincipalMappingResult {
    if (dn === null) return user(ANONYMOUS, null);
    const rules = sslRules as SslRule[];
    try {
      const m = mapDistinguishedName(rules, dn, budget);
      return user(m.name, { index: m.ruleIndex, text: sslRuleToString(rules[m.ruleIndex]!) });
    } catch (e) {
      const j = asJavaException(e);
      const wrapped = j.exception === "NoMatchingRule";
      return {
        ok: false,
        error: j.exception,
        message: j.message,
        stage: "mapping",
        ...(wrapped
          ? {
              brokerError: {
                error: "KafkaException",
                message: `Failed to map name for '${dn}' based on SSL principal mapping rules.`,
              },
            }
          : {}),
      };
    }
  }

  function mapKerberos(principal: string): PrincipalMappingResult {
    const rules = kerberosRules as KerberosRule[];
    let printed = principal;
    try {
      const name = parseKerberosName(principal, budget);
      printed = kerberosNameToString(name);
      const m = kerberosShortName(rules, name, budget);
      return user(
        m.name,
        m.ruleIndex === null ? null : { index: m.ruleIndex, text: kerberosRuleToString(rules[m.ruleIndex]!) },
      );
    } catch (e) {
      const j = asJavaException(e);
      const wrapped = j.exception === "NoMatchingRule" || j.exception === "BadFormatString";
      return {
        ok: false,
        error: j.exception,
        message: j.message,
        stage: "mapping",
        ...(wrapped
          ? {
              brokerError: {
                error: "KafkaException",
                message: `Failed to set name for '${printed}' based on Kerberos authentication rules.`,
              },
            }
          : {}),
      };
    }
  }

  return {
    sslRules,
    kerberosRules,
    configError,
    map(request) {
      budget?.check();
      if (configError !== null) return configError;
      return request.type === "ssl" ? mapSsl(request.distinguishedName) : mapKerberos(request.principal);
    },
  };
}

/** Maps every request of one document (the `principal-map` CLI command's core). */
export function mapPrincipals(
  config: PrincipalMappingConfig,
  requests: readonly PrincipalMappingRequest[],
  budget: RegexBudget | null = null,
): PrincipalMappingResult[] {
  const mapper = principalMapper(config, budget);
  return requests.map((r) => mapper.map(r));
}
