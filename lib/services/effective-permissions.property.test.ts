/**
 * Invariants of the auditor views, over random small ACL sets (fast-check):
 *
 * - every "who can" row is the policy core's `authorize` for that principal, resource,
 *   operation and host (a null host: an address no ACL names);
 * - the `User:*` row stands for every principal no applicable ACL names: a principal that
 *   appears in no ACL gets exactly its answers;
 * - "what can P do" and "who can do what" agree: P's cell on a resource is P's row there
 *   (or the `User:*` row when no applicable ACL names P).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  AclIndex,
  authorize,
  type AclBinding,
  type AclOperation,
  type AuthorizerConfig,
  type PatternType,
  type ResourceType,
} from "@/lib/policy";
import { knownResources, principalPermissions, whoCan } from "./effective-permissions";

const NAMES = ["a", "ab", "abc", "b", "*", "*x"];
const aclArb: fc.Arbitrary<AclBinding> = fc.record({
  resourceType: fc.constantFrom<ResourceType>("TOPIC", "GROUP"),
  resourceName: fc.constantFrom(...NAMES, "a"),
  patternType: fc.constantFrom<PatternType>("LITERAL", "PREFIXED"),
  principal: fc.constantFrom("User:alice", "User:bob", "User:*", "Group:alice"),
  host: fc.constantFrom("*", "10.0.0.1"),
  operation: fc.constantFrom<AclOperation>(
    "ALL",
    "READ",
    "WRITE",
    "DESCRIBE",
    "DELETE",
    "ALTER_CONFIGS",
    "DESCRIBE_CONFIGS",
  ),
  permissionType: fc.constantFrom("ALLOW" as const, "DENY" as const),
});
const configArb: fc.Arbitrary<AuthorizerConfig> = fc.record({
  superUsers: fc.constantFrom<string[]>([], ["User:bob"]),
  allowEveryoneIfNoAclFound: fc.boolean(),
});
const RESOURCES = ["a", "ab", "abc", "b", "zzz", "*x"].flatMap((name) =>
  (["TOPIC", "GROUP"] as const).map((resourceType) => ({
    resourceType,
    resourceName: name,
    origin: "listed" as const,
  })),
);
const NOWHERE = "192.0.2.1";

describe("who can do what, over random ACL sets", () => {
  it(
    "every row is authorize's answer; User:* answers for a principal no ACL names; P's view agrees with " + "P's row",
    () => {
      fc.assert(
        fc.property(fc.array(aclArb, { maxLength: 14 }), configArb, (acls, config) => {
          const index = AclIndex.build(acls);
          const rows = whoCan(index, RESOURCES, config, null);
          for (const r of rows) {
            const host = r.host ?? NOWHERE;
            const expected = authorize(
              index,
              {
                principal: r.principal,
                host,
                operation: r.operation,
                resourceType: r.resourceType,
                resourceName: r.resourceName,
              },
              config,
            );
            expect([r.decision, r.rule]).toEqual([expected.decision, expected.rule]);
            if (r.principal === "User:*" && r.host === null) {
              const stranger = authorize(
                index,
                {
                  principal: "User:zed",
                  host: NOWHERE,
                  operation: r.operation,
                  resourceType: r.resourceType,
                  resourceName: r.resourceName,
                },
                config,
              );
              expect(stranger.decision).toBe(r.decision);
            }
          }
          const listed = { TOPIC: NAMES, GROUP: NAMES };
          const known = knownResources({ resourceNames: () => [] }, listed);
          for (const principal of ["User:alice", "Group:alice"]) {
            const view = principalPermissions(index, principal, known, config, { host: null, decisions: "all" });
            for (const s of view.sections) {
              for (const res of s.resources) {
                const mine = rows.filter(
                  (r) => r.resourceType === s.resourceType && r.resourceName === res.resourceName && r.host === null,
                );
                const own = mine.filter((r) => r.principal === principal);
                const row = own.length > 0 ? own : mine.filter((r) => r.principal === "User:*");
                if (row.length === 0) continue; // a resource outside RESOURCES
                for (const c of res.cells)
                  expect(c.decision).toBe(row.find((r) => r.operation === c.operation)?.decision);
              }
            }
          }
        }),
        { numRuns: 300 },
      );
    },
  );
});
