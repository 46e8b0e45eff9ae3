/** Identities: how a client becomes a Kafka principal (SSL and Kerberos principal mapping), mirrored from Kafka 4.1. */
export { ANONYMOUS, mapPrincipals, principalMapper } from "./principal-map";
export type {
  PrincipalMapper,
  PrincipalMappingConfig,
  PrincipalMappingRequest,
  PrincipalMappingResult,
} from "./principal-map";
export {
  applySslRule,
  DEFAULT_SSL_PRINCIPAL_MAPPING_RULES,
  mapDistinguishedName,
  parseSslRules,
  splitSslRules,
  sslRulesToString,
  sslRuleToString,
} from "./ssl-principal-mapper";
export type { SslMapping, SslRule } from "./ssl-principal-mapper";
export {
  applyKerberosRule,
  DEFAULT_KERBEROS_RULES,
  kerberosNameToString,
  kerberosRulesToString,
  kerberosRuleToString,
  kerberosShortName,
  parseKerberosName,
  parseKerberosRules,
  replaceParameters,
  splitKerberosRules,
} from "./kerberos";
export type { KerberosMapping, KerberosName, KerberosRule } from "./kerberos";
export {
  certificateIssuerRfc2253,
  certificateSubjectRfc2253,
  DerError,
  escapeRfc2253Value,
  normalizeDistinguishedName,
  parseDistinguishedName,
  RFC2253_KEYWORDS,
} from "./x500-name";
export type { DnAttribute } from "./x500-name";
export { JavaException, UNSUPPORTED_JAVA_REGEX } from "./java/exception";
export { JavaPattern } from "./java/regex/pattern";
export { CHECKPOINT_STEPS, RegexBudget, RegexBudgetExceeded } from "./regex-budget";
