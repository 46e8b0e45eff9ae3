/**
 * One regex budget for all the matches of a request: rules that backtrack a lot, against
 * many inputs, are refused as a whole after a bounded amount of work, instead of each
 * match being allowed its own MAX_STEPS (which let 10 rules x 10 DNs take seconds).
 */
import { describe, expect, it } from "vitest";
import { mapPrincipals, type PrincipalMappingConfig, type PrincipalMappingRequest } from "./principal-map";
import { CHECKPOINT_STEPS, RegexBudget, RegexBudgetExceeded } from "./regex-budget";

/**
 * Backtracks through ~1.8 million steps on the DN below, then fails: under MAX_STEPS per match, but seconds for 100
 * matches.
 */
const BACKTRACKING_RULE = "RULE:^(.*a){5}$/x/";
const BACKTRACKING_DN = "a".repeat(40) + "!";

const ssl = (rules: number): PrincipalMappingConfig => ({
  ssl: { rules: Array<string>(rules).fill(BACKTRACKING_RULE).join(",") },
  kerberos: null,
});
const dns = (n: number): PrincipalMappingRequest[] =>
  Array.from({ length: n }, () => ({ type: "ssl", distinguishedName: BACKTRACKING_DN }));

/** What `run` throws and how long it took to. */
function refusal(run: () => unknown): { error: unknown; ms: number } {
  const started = performance.now();
  try {
    run();
  } catch (error) {
    return { error, ms: performance.now() - started };
  }
  throw new Error("expected a refusal");
}

describe("a regex budget shared by every match of a request", () => {
  it("refuses 10 backtracking rules against 10 DNs after the budget, quickly, naming the limit", () => {
    const budget = new RegexBudget(3_000_000);
    const { error, ms } = refusal(() => mapPrincipals(ssl(10), dns(10), budget));
    expect(error).toBeInstanceOf(RegexBudgetExceeded);
    expect((error as Error).message).toMatch(/more than 3,000,000 regex steps .*limit per request/);
    // Without the shared budget the same document runs 100 matches of ~1.8M steps each: seconds.
    expect(ms).toBeLessThan(1000);
  });

  it("refuses 1,050 backtracking rules (the most 20,000 characters hold) against 100 DNs just as quickly", () => {
    const { error, ms } = refusal(() => mapPrincipals(ssl(1050), dns(100), new RegexBudget(3_000_000)));
    expect(error).toBeInstanceOf(RegexBudgetExceeded);
    expect(ms).toBeLessThan(1000);
  });

  it("is one budget: what one match may spend, two matches (two inputs, or two rules) may not", () => {
    const measure = new RegexBudget(Number.MAX_SAFE_INTEGER);
    const [alone] = mapPrincipals(ssl(1), dns(1), measure);
    expect(alone).toMatchObject({ ok: false, error: "NoMatchingRule" });
    const oneMatch = measure.used;
    expect(oneMatch).toBeGreaterThan(100_000);

    const enoughForOne = () => new RegexBudget(Math.ceil(oneMatch * 1.5));
    expect(mapPrincipals(ssl(1), dns(1), enoughForOne())).toEqual([alone]);
    expect(() => mapPrincipals(ssl(1), dns(2), enoughForOne())).toThrow(RegexBudgetExceeded);
    expect(() => mapPrincipals(ssl(2), dns(1), enoughForOne())).toThrow(RegexBudgetExceeded);
  });

  it("counts Kerberos rules too", () => {
    const config: PrincipalMappingConfig = {
      ssl: null,
      kerberos: { rules: Array<string>(10).fill("RULE:[1:$1](.*a.*a.*a.*a.*a)").join(","), defaultRealm: "R" },
    };
    const requests: PrincipalMappingRequest[] = Array.from({ length: 10 }, () => ({
      type: "kerberos",
      principal: `${BACKTRACKING_DN}@R`,
    }));
    const { error, ms } = refusal(() => mapPrincipals(config, requests, new RegexBudget(3_000_000)));
    expect(error).toBeInstanceOf(RegexBudgetExceeded);
    expect(ms).toBeLessThan(1000);
  });

  it(
    "lets the caller stop the work (a time limit, a client gone) at its checkpoint, run every few thousand " +
      "steps and before each input",
    () => {
      let checkpoints = 0;
      const budget = new RegexBudget(Number.MAX_SAFE_INTEGER, () => {
        if (++checkpoints > 3) throw new RegexBudgetExceeded("stopped by the caller");
      });
      expect(() => mapPrincipals(ssl(10), dns(10), budget)).toThrow("stopped by the caller");
      expect(budget.used).toBeLessThanOrEqual(3 * CHECKPOINT_STEPS);
    },
  );

  it("changes no answer of a request within the budget", () => {
    const config: PrincipalMappingConfig = {
      ssl: { rules: "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/,DEFAULT" },
      kerberos: { rules: "RULE:[1:$1@$0](.*@EXAMPLE.COM)s/@.*//", defaultRealm: null },
    };
    const requests: PrincipalMappingRequest[] = [
      { type: "ssl", distinguishedName: "CN=svc,OU=ServiceUsers,O=Acme" },
      { type: "ssl", distinguishedName: "CN=alice,OU=Eng" },
      { type: "kerberos", principal: "bob@EXAMPLE.COM" },
      { type: "kerberos", principal: "bob@OTHER.COM" },
    ];
    expect(mapPrincipals(config, requests, new RegexBudget(3_000_000))).toEqual(mapPrincipals(config, requests));
  });
});
