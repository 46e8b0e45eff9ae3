/**
 * Lint finding `principal-not-producible` (only when the brokers' principal mapping rules
 * are given): an ACL whose principal is shaped like a mapping's input — a certificate DN
 * (`User:CN=alice,OU=Eng,O=Acme`) or a Kerberos principal (`User:alice@EXAMPLE.COM`) — that
 * no configured rule can produce (lib/policy/identity/producible.ts), so the ACL never
 * applies to a certificate or Kerberos client. The message says what such a client is
 * instead. Plain names (`User:alice`) are never reported: SASL/SCRAM, PLAIN and
 * OAUTHBEARER users can be named anything.
 *
 * Every regex step is charged to the optional `budget` (identity/regex-budget.ts): when it
 * runs out, the principals not yet checked are left out and one info finding says so.
 */
import type { AclBinding } from "../types";
import { canProduce } from "../identity/producible";
import { principalMapper, type PrincipalMapper, type PrincipalMappingConfig } from "../identity/principal-map";
import { RegexBudgetExceeded, type RegexBudget } from "../identity/regex-budget";

export const PRINCIPAL_NOT_PRODUCIBLE = "principal-not-producible" as const;

/** Whether `config` sets any rules (unset properties are Kafka's defaults, which need no lint). */
export function hasMappingRules(config: PrincipalMappingConfig | null | undefined): config is PrincipalMappingConfig {
  return config != null && ((config.ssl?.rules ?? null) !== null || (config.kerberos?.rules ?? null) !== null);
}

export interface PrincipalMappingFinding {
  /** Only the note that the budget ran out is "info"; the findings themselves are warnings. */
  severity?: "info";
  message: string;
  acls: AclBinding[];
  /** The input position of the principal's first ACL (for the findings' order). */
  at: number;
}

export function unproduciblePrincipalFindings(
  acls: readonly AclBinding[],
  config: PrincipalMappingConfig,
  budget: RegexBudget | null = null,
): PrincipalMappingFinding[] {
  const byPrincipal = new Map<string, { at: number; acls: AclBinding[] }>();
  acls.forEach((b, i) => {
    if (!b.principal.startsWith("User:") || b.principal === "User:*") return;
    const slot = byPrincipal.get(b.principal);
    if (slot) slot.acls.push(b);
    else byPrincipal.set(b.principal, { at: i, acls: [b] });
  });
  if (byPrincipal.size === 0) return [];
  const out: PrincipalMappingFinding[] = [];
  let checked = 0;
  const stopped = (): PrincipalMappingFinding[] => [
    ...out,
    {
      severity: "info",
      message:
        `Only ${checked} of the ${byPrincipal.size} principals were checked against the principal mapping rules: ` +
        "checking the others would take longer than the console allows one lint (the rules backtrack a lot), " +
        "so they are not reported.",
      acls: [],
      at: acls.length,
    },
  ];
  let mapper: PrincipalMapper;
  try {
    mapper = principalMapper(config, budget);
  } catch (e) {
    if (e instanceof RegexBudgetExceeded) return stopped();
    throw e;
  }
  for (const [principal, { at, acls: list }] of byPrincipal) {
    const name = principal.slice("User:".length);
    let verdict: ReturnType<typeof canProduce>;
    try {
      verdict = canProduce(mapper, name, budget);
    } catch (e) {
      if (e instanceof RegexBudgetExceeded) return stopped();
      throw e;
    }
    checked++;
    if (verdict.producible) continue;
    const parts = [
      `No configured principal mapping rule produces ${principal}, so ` +
        `its ${list.length === 1 ? "ACL applies" : `${list.length} ACLs apply`} to no certificate or Kerberos ` +
        `client.`,
    ];
    if (verdict.insteadAsDn !== null)
      parts.push(`A client presenting the certificate DN ${verdict.canonicalDn ?? name} is ${verdict.insteadAsDn}.`);
    if (verdict.canonicalDn !== null) parts.push(`(Kafka writes this DN as ${verdict.canonicalDn}.)`);
    if (verdict.insteadAsKerberos !== null) parts.push(`Kerberos principal ${name} is ${verdict.insteadAsKerberos}.`);
    parts.push("Only a SASL user (SCRAM, PLAIN, OAUTHBEARER) of exactly this name could match it.");
    out.push({ message: parts.join(" "), acls: list, at });
  }
  return out;
}
