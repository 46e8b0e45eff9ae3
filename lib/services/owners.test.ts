import { describe, expect, it } from "vitest";
import type { OwnerRule } from "@/lib/clusters";
import { describeRules, maxGrantMinutes, ownerRulesFor, rulesNotOwnedBy, touches } from "./owners";

const payments: OwnerRule = {
  resourceType: "TOPIC",
  prefix: "payments-",
  principals: ["User:bob"],
  maxGrantMinutes: 60,
};
const groups: OwnerRule = { resourceType: "GROUP", prefix: "", principals: ["User:ops", "User:bob"] };
const topic = (resourceName: string, patternType: "LITERAL" | "PREFIXED" = "LITERAL") => ({
  resourceType: "TOPIC" as const,
  resourceName,
  patternType,
});

describe("resource owners", () => {
  it("a binding touches the rules of its type whose prefix its name starts with", () => {
    expect(touches(topic("payments-eu"), payments)).toBe(true);
    expect(touches(topic("orders"), payments)).toBe(false);
    expect(touches({ ...topic("payments-eu"), resourceType: "GROUP" }, payments)).toBe(false);
  });

  it("the wildcard and a shorter PREFIXED binding reach owned names too", () => {
    expect(touches(topic("*"), payments)).toBe(true);
    expect(touches(topic("pay", "PREFIXED"), payments)).toBe(true);
    expect(touches(topic("pay", "LITERAL"), payments)).toBe(false);
    expect(touches(topic("payments-eu-", "PREFIXED"), payments)).toBe(true);
  });

  it("names the rules a change touches that the approver does not own, and the shortest grant", () => {
    const rules = ownerRulesFor(
      [topic("payments-eu"), { ...topic("billing"), resourceType: "GROUP" }],
      [payments, groups],
    );
    expect(rules).toEqual([payments, groups]);
    expect(rulesNotOwnedBy("User:bob", rules)).toEqual([]);
    expect(rulesNotOwnedBy("User:ops", rules)).toEqual([payments]);
    expect(describeRules([payments])).toBe("TOPIC payments-* (User:bob)");
    expect(maxGrantMinutes(480, rules)).toBe(60);
    expect(maxGrantMinutes(480, [])).toBe(480);
  });
});
