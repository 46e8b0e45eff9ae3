/**
 * Lint claims checked against the authorizer: an ACL reported as a duplicate, as
 * redundant (a broader ALLOW covers it) or as dead (a DENY covers it) can be deleted
 * without changing a single decision.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { OPERATIONS, type AclBinding, type AclOperation, type PatternType, type ResourceType } from "../types";
import { AclIndex, bindingKey } from "./acl-index";
import { authorize } from "./authorize";
import { lintAcls } from "./lint";
import type { AuthorizeRequest } from "./model";

const nameArb = fc.array(fc.constantFrom("a", "b", "ab", "*", "-x"), { maxLength: 3 }).map((p) => p.join(""));
const typeArb = fc.constantFrom<ResourceType>("TOPIC", "GROUP");
const operationArb = fc.constantFrom<AclOperation>(...OPERATIONS);
// ACLs overlap more than requests: fewer names, and the operations that imply others.
const aclArb: fc.Arbitrary<AclBinding> = fc.record({
  resourceType: typeArb,
  resourceName: fc.array(fc.constantFrom("a", "ab", "*"), { maxLength: 2 }).map((p) => p.join("")),
  patternType: fc.constantFrom<PatternType>("LITERAL", "PREFIXED"),
  principal: fc.constantFrom("User:alice", "User:bob", "User:*"),
  host: fc.constantFrom("*", "10.0.0.1"),
  operation: fc.oneof(
    fc.constantFrom<AclOperation>("ALL", "READ", "DESCRIBE", "WRITE", "ALTER_CONFIGS", "DESCRIBE_CONFIGS"),
    operationArb,
  ),
  permissionType: fc.constantFrom("ALLOW" as const, "ALLOW" as const, "DENY" as const),
});
const requestArb: fc.Arbitrary<AuthorizeRequest> = fc.record({
  principal: fc.constantFrom("User:alice", "User:bob", "User:carol"),
  host: fc.constantFrom("10.0.0.1", "10.0.0.2"),
  operation: operationArb,
  resourceType: typeArb,
  resourceName: nameArb,
});

describe("lintAcls — properties", () => {
  it("deleting an ACL reported as duplicate, redundant or dead changes no decision", () => {
    const checked = { "redundant-allow": 0, "dead-allow": 0, duplicate: 0 };
    fc.assert(
      fc.property(
        fc.array(aclArb, { minLength: 8, maxLength: 30 }),
        fc.array(requestArb, { minLength: 10, maxLength: 30 }),
        (acls, requests) => {
          const before = AclIndex.build(acls);
          for (const f of lintAcls(acls)) {
            if (f.code !== "redundant-allow" && f.code !== "dead-allow" && f.code !== "duplicate") continue;
            checked[f.code]++;
            const drop = bindingKey(f.acls[0]!);
            const remaining =
              f.code === "duplicate" ? [...before.acls] : before.acls.filter((a) => bindingKey(a) !== drop);
            expect(remaining.length).toBe(f.code === "duplicate" ? before.size : before.size - 1);
            const after = AclIndex.build(remaining);
            for (const r of requests)
              expect(authorize(after, r).decision, `${f.code} ${f.message}`).toBe(authorize(before, r).decision);
          }
        },
      ),
      { numRuns: 2000 },
    );
    // The generator must actually produce each kind of finding.
    expect(checked["redundant-allow"]).toBeGreaterThan(1000);
    expect(checked["dead-allow"]).toBeGreaterThan(300);
    expect(checked.duplicate).toBeGreaterThan(30);
  });
});
