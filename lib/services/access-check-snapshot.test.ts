/**
 * The access check and the resource detail answered from the ACL snapshot — the ACLs
 * its store finds for the resource, or its authorizer index over every ACL — answer
 * exactly what they answered over the ACLs Kafka's MATCH filter returns for the resource:
 * same decision, same deciding ACL, same table, same notes, same matrix, same counts.
 * Thousands of random ACL sets.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  AclIndex,
  AclStore,
  filterAcls,
  OPERATIONS,
  type AclBinding,
  type AclOperation,
  type ResourceType,
} from "@/lib/policy";
import { applicableAclsFilter, explainAccessDecision } from "./access-check-explain";
import { buildResourceDetail, buildSection, userResourcesOf, userResourcesOfSnapshot } from "./resources-view";

const TYPES: ResourceType[] = ["TOPIC", "GROUP", "USER"];
const NAMES = ["*", "pay", "payments-", "payments-eu", "payments-us", "*x", "orders", "User:svc"];
const PRINCIPALS = ["User:*", "User:alice", "User:bob", "Group:ops"];
const HOSTS = ["*", "127.0.0.1", "10.0.0.2", "::1"];

const aclArb: fc.Arbitrary<AclBinding> = fc.record({
  resourceType: fc.constantFrom(...TYPES),
  resourceName: fc.constantFrom(...NAMES),
  patternType: fc.constantFrom("LITERAL" as const, "PREFIXED" as const),
  principal: fc.constantFrom(...PRINCIPALS),
  host: fc.constantFrom(...HOSTS),
  operation: fc.constantFrom(...OPERATIONS),
  permissionType: fc.constantFrom("ALLOW" as const, "DENY" as const),
});

/** A set of ACLs as Kafka holds them: no binding twice (Kafka's ACLs are a set; DescribeAcls never repeats one). */
const aclSetArb = fc.uniqueArray(aclArb, { maxLength: 40, selector: (a) => JSON.stringify(a) });

const requestArb = fc.record({
  principal: fc.constantFrom(...PRINCIPALS),
  host: fc.constantFrom(...HOSTS),
  operation: fc.constantFrom(...OPERATIONS.filter((o): o is Exclude<AclOperation, "ALL"> => o !== "ALL")),
  resourceType: fc.constantFrom(...TYPES),
  resourceName: fc.constantFrom(...NAMES, "payments-eu-1", "*y"),
});

const ASSUMPTIONS = { superUsers: ["User:admin"], allowEveryoneIfNoAclFound: false, source: "test", warnings: [] };

describe("deciding over the snapshot's index", () => {
  it("the access check answers as over Kafka's MATCH answer for the resource", () => {
    fc.assert(
      fc.property(aclSetArb, requestArb, fc.boolean(), (acls, request, everyone) => {
        const assumptions = { ...ASSUMPTIONS, allowEveryoneIfNoAclFound: everyone };
        const store = AclStore.build(acls);
        const index = store.index();
        const viaKafkaMatch = explainAccessDecision(
          request,
          filterAcls(acls, applicableAclsFilter(request)),
          assumptions,
        );
        expect(
          explainAccessDecision(request, store.matching(request.resourceType, request.resourceName), assumptions),
        ).toEqual(viaKafkaMatch);
        expect(
          explainAccessDecision(
            request,
            index.matching(request.resourceType, request.resourceName),
            assumptions,
            index,
          ),
        ).toEqual(viaKafkaMatch);
      }),
      { numRuns: 2000 },
    );
  });

  it("the resource detail and index counts answer as over Kafka's MATCH answer", () => {
    fc.assert(
      fc.property(
        aclSetArb,
        fc.constantFrom(...TYPES),
        fc.constantFrom(...NAMES, "payments-eu-1"),
        (acls, type, name) => {
          const store = AclStore.build(acls);
          const applicable = filterAcls(acls, applicableAclsFilter({ resourceType: type, resourceName: name }));
          const expected = buildResourceDetail(type, name, AclIndex.build(applicable), ASSUMPTIONS);
          expect(buildResourceDetail(type, name, AclIndex.build(store.matching(type, name)), ASSUMPTIONS)).toEqual(
            expected,
          );
          expect(buildResourceDetail(type, name, store.index(), ASSUMPTIONS)).toEqual(expected);
          const distinct = new Set(applicable.map((a) => JSON.stringify(a))).size;
          expect(buildSection(type, [name], "", store).resources).toEqual([{ name, acls: distinct }]);
          expect(buildSection(type, [name], "", store.index()).resources).toEqual([{ name, acls: distinct }]);
          expect(userResourcesOfSnapshot(store)).toEqual(userResourcesOf(acls));
        },
      ),
      { numRuns: 1000 },
    );
  });
});
