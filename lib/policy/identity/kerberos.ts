/**
 * Kafka 4.1's Kerberos short namer (clients/.../security/kerberos/: KerberosName,
 * KerberosShortNamer, KerberosRule): turns a Kerberos principal (`user/host@REALM`) into
 * the short name of the Kafka principal, with `sasl.kerberos.principal.to.local.rules`.
 *
 * Precedence: a name without a realm (`alice`, no `@`) is returned unchanged, no rule is
 * consulted. Otherwise rules apply in order and the first that yields a name wins:
 *  - DEFAULT yields the first component when the realm equals the default realm
 *    (`""` when the broker cannot find one);
 *  - RULE:[n:format](match)s/from/to/[g][/L|/U] applies to names of exactly n components:
 *    `$0` is the realm, `$1`, `$2` the components; the result must match `match`
 *    entirely; `s/from/to/` replaces the first match (every match with `g`), Java regex
 *    and replacement syntax. A result containing `/` or `@` is NoMatchingRule ("Non-simple
 *    name"), checked before /L or /U lower- or upper-cases it (Locale.ENGLISH).
 * No rule yielding a name is NoMatchingRule.
 *
 * The property is a LIST config: ConfigDef trims the value, an empty value is no rules at
 * all, otherwise it is split at commas with surrounding whitespace (`\s*,\s*`, keeping
 * empty items, which are then refused as rules). A rule itself cannot contain a comma.
 *
 * Every function that matches takes an optional RegexBudget (./regex-budget.ts) shared by
 * all the matches of one request.
 */
import { javaToLowerCase, javaToUpperCase, javaTrim } from "./java/characters";
import { JavaException } from "./java/exception";
import { parseJavaInt } from "./java/integer";
import { JavaPattern } from "./java/regex/pattern";
import type { RegexBudget } from "./regex-budget";

const NAME_PARSER = JavaPattern.compile("([^/@]*)(/([^/@]*))?@([^/@]*)");
const RULE_PARSER = JavaPattern.compile(
  String.raw`((DEFAULT)|((RULE:\[(\d*):([^\]]*)](\(([^)]*)\))?(s/([^/]*)/([^/]*)/(g)?)?/?(L|U)?)))`,
);
const PARAMETER_PATTERN = JavaPattern.compile(String.raw`([^$]*)(\$(\d*))?`);
const NON_SIMPLE_PATTERN = JavaPattern.compile("[/@]");
const COMMA_WITH_WHITESPACE = JavaPattern.compile(String.raw`\s*,\s*`);

/** BrokerSecurityConfigs.DEFAULT_SASL_KERBEROS_PRINCIPAL_TO_LOCAL_RULES */
export const DEFAULT_KERBEROS_RULES: readonly string[] = ["DEFAULT"];

export interface KerberosName {
  readonly serviceName: string;
  readonly hostName: string | null;
  readonly realm: string | null;
}

/** KerberosName.parse: at most `service/host@REALM`; more slashes or at-signs is IllegalArgumentException. */
export function parseKerberosName(principalName: string, budget: RegexBudget | null = null): KerberosName {
  const m = NAME_PARSER.matcher(principalName, budget);
  if (!m.matches()) {
    if (principalName.includes("@"))
      throw new JavaException("IllegalArgumentException", `Malformed Kerberos name: ${principalName}`);
    return { serviceName: principalName, hostName: null, realm: null };
  }
  return { serviceName: m.group(1) as string, hostName: m.group(3), realm: m.group(4) };
}

export const kerberosNameToString = (n: KerberosName) =>
  n.serviceName + (n.hostName !== null ? `/${n.hostName}` : "") + (n.realm !== null ? `@${n.realm}` : "");

export type KerberosRule =
  | { readonly kind: "DEFAULT"; readonly defaultRealm: string }
  | {
      readonly kind: "RULE";
      readonly defaultRealm: string;
      readonly numOfComponents: number;
      readonly format: string;
      readonly match: JavaPattern | null;
      readonly fromPattern: JavaPattern | null;
      readonly toPattern: string | null;
      readonly repeat: boolean;
      readonly toLowerCase: boolean;
      readonly toUpperCase: boolean;
    };

/** KerberosRule.toString(), as Kafka prints rules in its messages. */
export function kerberosRuleToString(rule: KerberosRule): string {
  if (rule.kind === "DEFAULT") return "DEFAULT";
  let s = `RULE:[${rule.numOfComponents}:${rule.format}]`;
  if (rule.match !== null) s += `(${rule.match.source})`;
  if (rule.fromPattern !== null) s += `s/${rule.fromPattern.source}/${rule.toPattern}/${rule.repeat ? "g" : ""}`;
  if (rule.toLowerCase) s += "/L";
  if (rule.toUpperCase) s += "/U";
  return s;
}

export const kerberosRulesToString = (rules: readonly KerberosRule[]) =>
  `[${rules.map(kerberosRuleToString).join(", ")}]`;

/** ConfigDef.parseType(value, LIST): the rules Kafka reads from the property value. */
export function splitKerberosRules(value: string, budget: RegexBudget | null = null): string[] {
  const trimmed = javaTrim(value);
  if (trimmed.length === 0) return [];
  return COMMA_WITH_WHITESPACE.split(trimmed, -1, budget);
}

/**
 * KerberosShortNamer.fromUnparsedRules(defaultRealm, rules): the parsed rules, or the
 * exception the broker refuses to start with (IllegalArgumentException "Invalid rule: ...",
 * NumberFormatException for `RULE:[:...]`, PatternSyntaxException).
 */
export function parseKerberosRules(
  defaultRealm: string,
  rules: readonly string[] | null,
  budget: RegexBudget | null = null,
): KerberosRule[] {
  return (rules ?? DEFAULT_KERBEROS_RULES).map((rule): KerberosRule => {
    const m = RULE_PARSER.matcher(rule, budget);
    if (!m.lookingAt()) throw new JavaException("IllegalArgumentException", `Invalid rule: ${rule}`);
    if (rule.length !== m.end())
      throw new JavaException(
        "IllegalArgumentException",
        `Invalid rule: \`${rule}\`, unmatched substring: \`${rule.slice(m.end())}\``,
      );
    if (m.group(2) !== null) return { kind: "DEFAULT", defaultRealm };
    const numOfComponents = parseJavaInt(m.group(5) as string);
    const match = m.group(8);
    const from = m.group(10);
    return {
      kind: "RULE",
      defaultRealm,
      numOfComponents,
      format: m.group(6) as string,
      match: match === null ? null : JavaPattern.compile(match),
      fromPattern: from === null ? null : JavaPattern.compile(from),
      toPattern: m.group(11),
      repeat: m.group(12) === "g",
      toLowerCase: m.group(13) === "L",
      toUpperCase: m.group(13) === "U",
    };
  });
}

/**
 * KerberosRule.replaceParameters: `$n` is params[n] (0: the realm); out of range or not a number is BadFormatString.
 */
export function replaceParameters(
  format: string,
  params: readonly string[],
  budget: RegexBudget | null = null,
): string {
  const m = PARAMETER_PATTERN.matcher(format, budget);
  let start = 0;
  let result = "";
  while (start < format.length && m.findFrom(start)) {
    result += m.group(1) as string;
    const paramNum = m.group(3);
    if (paramNum !== null) {
      let num: number;
      try {
        num = parseJavaInt(paramNum);
      } catch {
        throw new JavaException("BadFormatString", `bad format in username mapping in ${paramNum}`);
      }
      if (num < 0 || num >= params.length) {
        throw new JavaException(
          "BadFormatString",
          `index ${num} from ${format} is outside of the valid range 0 to ${params.length - 1}`,
        );
      }
      result += params[num];
    }
    start = m.end();
  }
  return result;
}

/** KerberosRule.apply(params): the short name, or null when the rule does not apply. */
export function applyKerberosRule(
  rule: KerberosRule,
  params: readonly string[],
  budget: RegexBudget | null = null,
): string | null {
  let result: string | null = null;
  if (rule.kind === "DEFAULT") {
    if (rule.defaultRealm === params[0]) result = params[1] ?? null;
  } else if (params.length - 1 === rule.numOfComponents) {
    const base = replaceParameters(rule.format, params, budget);
    if (rule.match === null || rule.match.matches(base, budget)) {
      if (rule.fromPattern === null) result = base;
      else
        result = rule.repeat
          ? rule.fromPattern.replaceAll(base, rule.toPattern as string, budget)
          : rule.fromPattern.replaceFirst(base, rule.toPattern as string, budget);
    }
  }
  if (result !== null && NON_SIMPLE_PATTERN.matcher(result, budget).find()) {
    throw new JavaException(
      "NoMatchingRule",
      `Non-simple name ${result} after auth_to_local rule ${kerberosRuleToString(rule)}`,
    );
  }
  if (rule.kind === "RULE" && result !== null) {
    if (rule.toLowerCase) result = javaToLowerCase(result);
    else if (rule.toUpperCase) result = javaToUpperCase(result);
  }
  return result;
}

export interface KerberosMapping {
  readonly name: string;
  /** The rule that produced the name; null for a name without realm (returned as is). */
  readonly ruleIndex: number | null;
}

/** KerberosShortNamer.shortName(name); throws NoMatchingRule, BadFormatString or what a replacement throws. */
export function kerberosShortName(
  rules: readonly KerberosRule[],
  name: KerberosName,
  budget: RegexBudget | null = null,
): KerberosMapping {
  let params: string[];
  if (name.hostName === null) {
    if (name.realm === null) return { name: name.serviceName, ruleIndex: null };
    params = [name.realm, name.serviceName];
  } else {
    params = [name.realm as string, name.serviceName, name.hostName];
  }
  for (let i = 0; i < rules.length; i++) {
    const result = applyKerberosRule(rules[i]!, params, budget);
    if (result !== null) return { name: result, ruleIndex: i };
  }
  throw new JavaException(
    "NoMatchingRule",
    `No rules apply to ${kerberosNameToString(name)}, rules ${kerberosRulesToString(rules)}`,
  );
}
