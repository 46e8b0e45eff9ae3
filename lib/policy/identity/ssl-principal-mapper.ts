/**
 * Kafka 4.1's SslPrincipalMapper (clients/.../security/ssl/SslPrincipalMapper.java): turns
 * the client certificate's distinguished name (X500Principal.getName(), RFC 2253) into the
 * short name of the principal, with `ssl.principal.mapping.rules`.
 *
 * Precedence: rules apply in order, the first that yields a name wins; DEFAULT yields the
 * DN unchanged; a RULE yields a name only when its pattern matches the whole DN, and then
 * the name is `DN.replaceAll(pattern, replacement)` — every match replaced, so
 * `RULE:.*\/x/` gives "xx" (`.*` also matches the empty end) — optionally lower- or
 * upper-cased (Locale.ENGLISH). No rule yielding a name is NoMatchingRule.
 *
 * Splitting the value is Kafka's regex, not a comma split: a rule ends at the first
 * comma after its `/replacement/` (and optional L/U), so patterns may contain commas,
 * anything between the closing slash and the comma is kept and then refused, and empty
 * items are dropped:
 *
 *   "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/L, DEFAULT"  -> [RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/L, DEFAULT]
 *   ",,RULE://,,,DEFAULT,,"                             -> [RULE:/, DEFAULT]
 *
 * `$n` in a replacement that names a group the pattern lacks is made literal first
 * (escapeLiteralBackReferences, taken by Kafka from Apache NiFi, including its habit of
 * reading positions from the unmodified string after an earlier insertion).
 *
 * Every function that matches takes an optional RegexBudget (./regex-budget.ts) shared by
 * all the matches of one request.
 */
import { javaToLowerCase, javaToUpperCase, javaTrim } from "./java/characters";
import { JavaException } from "./java/exception";
import { parseJavaInt } from "./java/integer";
import { JavaPattern } from "./java/regex/pattern";
import type { RegexBudget } from "./regex-budget";

const RULE_PATTERN = String.raw`(DEFAULT)|RULE:((\\.|[^\\/])*)/((\\.|[^\\/])*)/([LU]?).*?|(.*?)`;
const RULE_SPLITTER = JavaPattern.compile(String.raw`\s*(` + RULE_PATTERN + String.raw`)\s*(,\s*|$)`);
const RULE_PARSER = JavaPattern.compile(RULE_PATTERN);
const BACK_REFERENCE = JavaPattern.compile(String.raw`\$(\d+)`);

/** BrokerSecurityConfigs.DEFAULT_SSL_PRINCIPAL_MAPPING_RULES */
export const DEFAULT_SSL_PRINCIPAL_MAPPING_RULES = "DEFAULT";

export type SslRule =
  | { readonly kind: "DEFAULT" }
  | {
      readonly kind: "RULE";
      readonly pattern: JavaPattern;
      readonly replacement: string;
      readonly toLowerCase: boolean;
      readonly toUpperCase: boolean;
    };

/** Rule.toString(): how Kafka prints a rule in its messages (no closing slash). */
export function sslRuleToString(rule: SslRule): string {
  if (rule.kind === "DEFAULT") return "DEFAULT";
  return `RULE:${rule.pattern.source}/${rule.replacement}${rule.toLowerCase ? "/L" : rule.toUpperCase ? "/U" : ""}`;
}

/** List.toString() of the rules: "[RULE:..., DEFAULT]". */
export const sslRulesToString = (rules: readonly SslRule[]) => `[${rules.map(sslRuleToString).join(", ")}]`;

/** The items Kafka's RULE_SPLITTER finds in the value (before they are parsed). */
export function splitSslRules(rules: string | null, budget: RegexBudget | null = null): string[] {
  const m = RULE_SPLITTER.matcher(javaTrim(rules ?? DEFAULT_SSL_PRINCIPAL_MAPPING_RULES), budget);
  const out: string[] = [];
  while (m.find()) out.push(m.group(1) as string);
  return out;
}

/**
 * SslPrincipalMapper.fromRules(value): the parsed rules, or the exception the broker
 * refuses to start with (IllegalArgumentException "Invalid rule: ...", or
 * PatternSyntaxException for a pattern Java cannot compile).
 */
export function parseSslRules(rules: string | null, budget: RegexBudget | null = null): SslRule[] {
  const out: SslRule[] = [];
  for (const rule of splitSslRules(rules, budget)) {
    const m = RULE_PARSER.matcher(rule, budget);
    if (!m.lookingAt()) throw new JavaException("IllegalArgumentException", `Invalid rule: ${rule}`);
    if (rule.length !== m.end())
      throw new JavaException(
        "IllegalArgumentException",
        `Invalid rule: \`${rule}\`, unmatched substring: \`${rule.slice(m.end())}\``,
      );
    if (m.group(1) !== null) {
      out.push({ kind: "DEFAULT" });
    } else if (m.group(2) !== null) {
      out.push({
        kind: "RULE",
        pattern: JavaPattern.compile(m.group(2) as string),
        replacement: m.group(4) as string,
        toLowerCase: m.group(6) === "L",
        toUpperCase: m.group(6) === "U",
      });
    }
    // An empty item (only group 7 matched) is ignored.
  }
  return out;
}

function escapeLiteralBackReferences(
  unescaped: string,
  numCapturingGroups: number,
  budget: RegexBudget | null,
): string {
  if (numCapturingGroups === 0) return unescaped;
  let value = unescaped;
  // Positions come from the original string while `value` grows: Kafka's (NiFi's) code does the same.
  const m = BACK_REFERENCE.matcher(unescaped, budget);
  while (m.find()) {
    const backRefNum = m.group(1) as string;
    if (backRefNum.startsWith("0")) continue;
    let backRefIndex = parseJavaInt(backRefNum);
    while (backRefIndex > numCapturingGroups && backRefIndex >= 10) backRefIndex = Math.trunc(backRefIndex / 10);
    if (backRefIndex > numCapturingGroups) {
      const groupStart = m.start(1);
      value = value.slice(0, groupStart - 1) + "\\" + value.slice(groupStart - 1);
    }
  }
  return value;
}

/** Rule.apply(dn): the short name, or null when the rule does not apply. */
export function applySslRule(
  rule: SslRule,
  distinguishedName: string,
  budget: RegexBudget | null = null,
): string | null {
  if (rule.kind === "DEFAULT") return distinguishedName;
  const m = rule.pattern.matcher(distinguishedName, budget);
  if (!m.matches()) return null;
  let result = rule.pattern.replaceAll(
    distinguishedName,
    escapeLiteralBackReferences(rule.replacement, rule.pattern.groupCount, budget),
    budget,
  );
  if (rule.toLowerCase) result = javaToLowerCase(result);
  else if (rule.toUpperCase) result = javaToUpperCase(result);
  return result;
}

export interface SslMapping {
  readonly name: string;
  /** Index into the rules of the rule that produced the name. */
  readonly ruleIndex: number;
}

/** SslPrincipalMapper.getName(dn); throws NoMatchingRule (or what a rule's replacement throws). */
export function mapDistinguishedName(
  rules: readonly SslRule[],
  distinguishedName: string,
  budget: RegexBudget | null = null,
): SslMapping {
  for (let i = 0; i < rules.length; i++) {
    const name = applySslRule(rules[i]!, distinguishedName, budget);
    if (name !== null) return { name, ruleIndex: i };
  }
  throw new JavaException("NoMatchingRule", `No rules apply to ${distinguishedName}, rules ${sslRulesToString(rules)}`);
}
