/**
 * `principal-map` keeps its contract for ordinary documents, and a document whose rules
 * backtrack against many inputs stops after CLI_REGEX_STEP_BUDGET steps (a bad-input exit
 * 2 naming the limit) instead of running for minutes.
 */
import { describe, expect, it } from "vitest";
import { PolicyInputError } from "../lib/policy/acl/errors";
import { CLI_REGEX_STEP_BUDGET, principalMapCommand } from "./policy-identity";

describe("principal-map's budget", () => {
  it("answers an ordinary document as before", () => {
    expect(
      principalMapCommand({
        ssl: { rules: "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/,DEFAULT" },
        kerberos: { rules: null, defaultRealm: "EXAMPLE.COM" },
        requests: [
          { type: "ssl", distinguishedName: "CN=svc,OU=ServiceUsers,O=Acme" },
          { type: "ssl", distinguishedName: null },
          { type: "kerberos", principal: "bob/host@EXAMPLE.COM" },
          { type: "kerberos", principal: "bob@OTHER.COM" },
        ],
      }),
    ).toEqual({
      results: [
        { name: "svc", principal: "User:svc" },
        { name: "ANONYMOUS", principal: "User:ANONYMOUS" },
        { name: "bob", principal: "User:bob" },
        { error: "NoMatchingRule", message: "No rules apply to bob@OTHER.COM, rules [DEFAULT]" },
      ],
    });
  });

  it("refuses a document that needs more than its budget, naming it, instead of hanging", () => {
    const doc = {
      ssl: { rules: Array<string>(1050).fill("RULE:^(.*a){5}$/x/").join(",") },
      kerberos: null,
      requests: Array.from({ length: 100 }, () => ({ type: "ssl", distinguishedName: "a".repeat(40) + "!" })),
    };
    let refused: unknown = null;
    try {
      principalMapCommand(doc);
    } catch (e) {
      refused = e;
    }
    expect(refused).toBeInstanceOf(PolicyInputError);
    expect((refused as Error).message).toContain(
      `more than ${CLI_REGEX_STEP_BUDGET.toLocaleString("en-US")} regex steps for these inputs (the limit per document`,
    );
  });
});
