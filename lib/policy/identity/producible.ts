/**
 * Can the brokers' principal mapping rules produce a given principal name at all? A
 * console rule for the ACL lint: an ACL for `User:CN=alice,OU=Eng` is dead when the SSL
 * rules turn every certificate into a short name, and one for `User:alice@EXAMPLE.COM`
 * is dead when Kerberos clients are always shortened.
 *
 * The answer errs towards "maybe" (no finding): `canProduce` says "no" only when it can
 * show it.
 *  - SSL DEFAULT yields the DN itself, so the one DN that could give `name` through it is
 *    `name`, in the exact form Java prints (RFC 2253, no spaces after commas), and only if
 *    no earlier rule takes that DN first: that is checked by mapping it.
 *  - An SSL RULE yields `DN.replaceAll(pattern, replacement)`. When the pattern is anchored
 *    (`^...$`, no top-level `|`) the whole DN is one match, so the name is the replacement
 *    with its `$n` filled by what group n can match, then /L or /U: the name must match
 *    that template. Any other pattern, inline flags, `\Q` or `${name}` references: maybe.
 *  - Kerberos rules never yield a name with `/` or `@` (a realm-qualified name without a
 *    rule match is refused, a rule result with them is "Non-simple name"), and DEFAULT
 *    yields the first component; so a name with `@` or `/` never comes from Kerberos.
 *    A DN-shaped name is not looked for among Kerberos results: that would take a Kerberos
 *    principal whose name is itself a DN (`CN=alice,OU=Eng@REALM`).
 *
 * SASL/SCRAM, PLAIN and OAUTHBEARER users can be named anything: callers report only
 * names shaped like a mapping's input (a DN, a Kerberos principal), which such a user is
 * unlikely to have, and say so.
 */
import { javaToLowerCase, javaToUpperCase } from "./java/characters";
import { JavaPattern } from "./java/regex/pattern";
import type { PrincipalMapper } from "./principal-map";
import { RegexBudgetExceeded, type RegexBudget } from "./regex-budget";
import type { SslRule } from "./ssl-principal-mapper";
import { normalizeDistinguishedName } from "./x500-name";

/** The source of each capturing group (index 1..n), or null when the pattern is beyond this reader. */
function groupSources(source: string): string[] | null {
  if (source.includes("\\Q") || /\(\?[a-zA-Z-]+[:)]/.test(source)) return null;
  const groups: string[] = [""];
  const open: { start: number; capture: number | null }[] = [];
  let inClass = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === "\\") {
      i++;
      continue;
    }
    if (inClass > 0) {
      if (c === "[") inClass++;
      else if (c === "]") inClass--;
      continue;
    }
    if (c === "[") {
      inClass = 1;
      if (source[i + 1] === "^") i++;
      if (source[i + 1] === "]") i++;
      continue;
    }
    if (c === "(") {
      let capture: number | null = null;
      let start = i + 1;
      if (source[i + 1] !== "?") {
        capture = groups.length;
        groups.push("");
      } else if (source[i + 2] === "<" && source[i + 3] !== "=" && source[i + 3] !== "!") {
        const close = source.indexOf(">", i);
        if (close < 0) return null;
        capture = groups.length;
        groups.push("");
        start = close + 1;
      }
      open.push({ start, capture });
    } else if (c === ")") {
      const g = open.pop();
      if (g === undefined) return null;
      if (g.capture !== null) groups[g.capture] = source.slice(g.start, i);
    }
  }
  return open.length === 0 && inClass === 0 ? groups : null;
}

/** Whether the pattern is `^...$` with no alternation outside groups (its one match is the whole input). */
function wholeInputPattern(source: string): boolean {
  if (!source.startsWith("^") || !source.endsWith("$") || source.endsWith("\\$")) return false;
  let depth = 0;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === "\\") i++;
    else if (inClass) inClass = c !== "]";
    else if (c === "[") inClass = true;
    else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "|" && depth === 0) return false;
  }
  return true;
}

const quote = (text: string) =>
  Array.from(text, (c) =>
    /[A-Za-z0-9]/.test(c) ? c : c === "\\" ? "\\\\" : /[\s\S]/.test(c) && c.charCodeAt(0) < 128 ? `\\${c}` : c,
  ).join("");

/** The names an anchored RULE can yield, as a Java regex; null when this reader cannot tell. */
function ruleTemplate(rule: Extract<SslRule, { kind: "RULE" }>): string | null {
  const source = rule.pattern.source;
  if (!wholeInputPattern(source)) return null;
  const groups = groupSources(source);
  if (groups === null) return null;
  let out = "";
  const r = rule.replacement;
  for (let i = 0; i < r.length; i++) {
    const c = r[i]!;
    if (c === "\\") {
      if (i + 1 >= r.length) return null;
      out += quote(r[++i]!);
    } else if (c === "$") {
      const d = /^\d/.exec(r.slice(i + 1));
      if (d === null) return null;
      const n = Number(d[0]);
      if (n === 0) out += "[\\s\\S]*";
      else if (n < groups.length) out += `(?:${groups[n]})`;
      else return null; // Kafka makes such a reference literal; not worth mirroring here
      i += 1;
    } else out += quote(c);
  }
  return out;
}

/** Whether `rule` may yield `name` (true when unsure; RegexBudgetExceeded is passed on). */
function sslRuleMayYield(rule: SslRule, name: string, budget: RegexBudget | null): boolean {
  if (rule.kind === "DEFAULT") return false; // decided by mapping the name itself (see canProduce)
  if (rule.toLowerCase && javaToLowerCase(name) !== name) return false;
  if (rule.toUpperCase && javaToUpperCase(name) !== name) return false;
  const template = ruleTemplate(rule);
  if (template === null) return true;
  let compiled: JavaPattern;
  try {
    compiled = JavaPattern.compile(rule.toLowerCase || rule.toUpperCase ? `(?iu)${template}` : template);
  } catch {
    return true;
  }
  try {
    return compiled.matches(name, budget);
  } catch (e) {
    if (e instanceof RegexBudgetExceeded) throw e;
    return true;
  }
}

export type Producibility =
  | { producible: true }
  | {
      producible: false;
      /** What a client presenting `name` as its DN / Kerberos principal becomes instead (or Kafka's refusal). */
      insteadAsDn: string | null;
      insteadAsKerberos: string | null;
      /** The DN written as Java prints it, when it differs from `name`. */
      canonicalDn: string | null;
    };

/**
 * Whether some client can end up as `User:<name>` through the mapper's rules. Only names
 * shaped like a mapping input are judged (a DN, or a name with `@` or `/`); any other
 * name is a plain user name (SASL) and is producible.
 */
export function canProduce(mapper: PrincipalMapper, name: string, budget: RegexBudget | null = null): Producibility {
  if (mapper.configError !== null || mapper.sslRules === null) return { producible: true };
  const canonical = normalizeDistinguishedName(name);
  const dnShaped = canonical !== null;
  const kerberosShaped = name.includes("@") || name.includes("/");
  if (!dnShaped && !kerberosShaped) return { producible: true };

  let insteadAsDn: string | null = null;
  if (dnShaped) {
    const asDn = mapper.map({ type: "ssl", distinguishedName: canonical });
    if (asDn.ok && asDn.name === name) return { producible: true };
    insteadAsDn = asDn.ok ? asDn.principal : `refused (${asDn.error})`;
  }
  if (mapper.sslRules.some((rule) => sslRuleMayYield(rule, name, budget))) return { producible: true };
  let insteadAsKerberos: string | null = null;
  if (kerberosShaped && name.includes("@")) {
    const asKerberos = mapper.map({ type: "kerberos", principal: name });
    insteadAsKerberos = asKerberos.ok ? asKerberos.principal : `refused (${asKerberos.error})`;
  }
  return {
    producible: false,
    insteadAsDn,
    insteadAsKerberos,
    canonicalDn: canonical !== null && canonical !== name ? canonical : null,
  };
}
