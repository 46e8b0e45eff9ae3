/**
 * Ported from clients/src/test/.../common/acl/ResourcePatternFilterTest.java,
 * AclBindingTest.java#testMatching and core AuthorizerTest.scala (testAclsFilter,
 * testGetAclsPrincipal, testAddAclsOn*Resource).
 */
import { describe, expect, it } from "vitest";
import type {
  AclBinding,
  AclBindingFilter,
  PatternType,
  PatternTypeFilter,
  ResourceType,
  ResourceTypeFilter,
} from "../types";
import { AclIndex } from "./acl-index";
import { ANY_ACL_FILTER, filterAcls, matchesFilter } from "./filter";
import { acl } from "@/test/policy/acl-helpers";

function patternFilter(
  resourceType: ResourceTypeFilter,
  resourceName: string | null,
  patternType: PatternTypeFilter,
): AclBindingFilter {
  return { ...ANY_ACL_FILTER, resourceType, resourceName, patternType };
}

function pattern(resourceType: ResourceType, name: string, patternType: PatternType): AclBinding {
  return acl(resourceType, name, patternType, "User:x", "*", "READ", "ALLOW");
}

describe("matchesFilter — ResourcePatternFilterTest", () => {
  const rows: Array<[string, AclBindingFilter, AclBinding, boolean]> = [
    [
      "shouldNotMatchIfDifferentResourceType",
      patternFilter("TOPIC", "Name", "LITERAL"),
      pattern("GROUP", "Name", "LITERAL"),
      false,
    ],
    [
      "shouldNotMatchIfDifferentName",
      patternFilter("TOPIC", "Different", "PREFIXED"),
      pattern("TOPIC", "Name", "PREFIXED"),
      false,
    ],
    [
      "shouldNotMatchIfDifferentNameCase",
      patternFilter("TOPIC", "NAME", "LITERAL"),
      pattern("TOPIC", "Name", "LITERAL"),
      false,
    ],
    [
      "shouldNotMatchIfDifferentPatternType",
      patternFilter("TOPIC", "Name", "LITERAL"),
      pattern("TOPIC", "Name", "PREFIXED"),
      false,
    ],
    [
      "shouldMatchWhereResourceTypeIsAny",
      patternFilter("ANY", "Name", "PREFIXED"),
      pattern("TOPIC", "Name", "PREFIXED"),
      true,
    ],
    [
      "shouldMatchWhereResourceNameIsAny",
      patternFilter("TOPIC", null, "PREFIXED"),
      pattern("TOPIC", "Name", "PREFIXED"),
      true,
    ],
    [
      "shouldMatchWherePatternTypeIsAny",
      patternFilter("TOPIC", null, "ANY"),
      pattern("TOPIC", "Name", "PREFIXED"),
      true,
    ],
    [
      "shouldMatchWherePatternTypeIsMatch",
      patternFilter("TOPIC", null, "MATCH"),
      pattern("TOPIC", "Name", "PREFIXED"),
      true,
    ],
    [
      "shouldMatchLiteralIfExactMatch",
      patternFilter("TOPIC", "Name", "LITERAL"),
      pattern("TOPIC", "Name", "LITERAL"),
      true,
    ],
    [
      "shouldMatchLiteralIfNameMatchesAndFilterIsOnPatternTypeAny",
      patternFilter("TOPIC", "Name", "ANY"),
      pattern("TOPIC", "Name", "LITERAL"),
      true,
    ],
    [
      "shouldMatchLiteralIfNameMatchesAndFilterIsOnPatternTypeMatch",
      patternFilter("TOPIC", "Name", "MATCH"),
      pattern("TOPIC", "Name", "LITERAL"),
      true,
    ],
    [
      "shouldNotMatchLiteralIfNamePrefixed",
      patternFilter("TOPIC", "Name-something", "MATCH"),
      pattern("TOPIC", "Name", "LITERAL"),
      false,
    ],
    [
      "shouldMatchLiteralWildcardIfExactMatch",
      patternFilter("TOPIC", "*", "LITERAL"),
      pattern("TOPIC", "*", "LITERAL"),
      true,
    ],
    [
      "shouldNotMatchLiteralWildcardAgainstOtherName",
      patternFilter("TOPIC", "Name", "LITERAL"),
      pattern("TOPIC", "*", "LITERAL"),
      false,
    ],
    [
      "shouldNotMatchLiteralWildcardTheWayAround",
      patternFilter("TOPIC", "*", "LITERAL"),
      pattern("TOPIC", "Name", "LITERAL"),
      false,
    ],
    [
      "shouldNotMatchLiteralWildcardIfFilterHasPatternTypeOfAny",
      patternFilter("TOPIC", "Name", "ANY"),
      pattern("TOPIC", "*", "LITERAL"),
      false,
    ],
    [
      "shouldMatchLiteralWildcardIfFilterHasPatternTypeOfMatch",
      patternFilter("TOPIC", "Name", "MATCH"),
      pattern("TOPIC", "*", "LITERAL"),
      true,
    ],
    [
      "shouldMatchPrefixedIfExactMatch",
      patternFilter("TOPIC", "Name", "PREFIXED"),
      pattern("TOPIC", "Name", "PREFIXED"),
      true,
    ],
    [
      "shouldNotMatchIfBothPrefixedAndFilterIsPrefixOfResource",
      patternFilter("TOPIC", "Name", "PREFIXED"),
      pattern("TOPIC", "Name-something", "PREFIXED"),
      false,
    ],
    [
      "shouldNotMatchIfBothPrefixedAndResourceIsPrefixOfFilter",
      patternFilter("TOPIC", "Name-something", "PREFIXED"),
      pattern("TOPIC", "Name", "PREFIXED"),
      false,
    ],
    [
      "shouldNotMatchPrefixedIfNamePrefixedAnyFilterTypeIsAny",
      patternFilter("TOPIC", "Name-something", "ANY"),
      pattern("TOPIC", "Name", "PREFIXED"),
      false,
    ],
    [
      "shouldMatchPrefixedIfNamePrefixedAnyFilterTypeIsMatch",
      patternFilter("TOPIC", "Name-something", "MATCH"),
      pattern("TOPIC", "Name", "PREFIXED"),
      true,
    ],
    // MATCH with name `*` finds the wildcard itself and prefixed `*…`, nothing else.
    [
      "MATCH `*` returns the wildcard ACL",
      patternFilter("TOPIC", "*", "MATCH"),
      pattern("TOPIC", "*", "LITERAL"),
      true,
    ],
    ["MATCH `*` returns a PREFIXED `*`", patternFilter("TOPIC", "*", "MATCH"), pattern("TOPIC", "*", "PREFIXED"), true],
    [
      "MATCH `*` does not return other literals",
      patternFilter("TOPIC", "*", "MATCH"),
      pattern("TOPIC", "orders", "LITERAL"),
      false,
    ],
  ];
  it.each(rows)("%s", (_name, filter, binding, expected) => {
    expect(matchesFilter(binding, filter)).toBe(expected);
  });
});

describe("matchesFilter — AclBindingTest#testMatching", () => {
  const acl1 = acl("TOPIC", "mytopic", "LITERAL", "User:ANONYMOUS", "", "ALL", "ALLOW");
  const acl2 = acl("TOPIC", "mytopic", "LITERAL", "User:*", "", "READ", "ALLOW");
  const acl3 = acl("TOPIC", "mytopic2", "LITERAL", "User:ANONYMOUS", "127.0.0.1", "READ", "DENY");
  const anyAnonymous: AclBindingFilter = { ...ANY_ACL_FILTER, principal: "User:ANONYMOUS" };
  const anyDeny: AclBindingFilter = { ...ANY_ACL_FILTER, permissionType: "DENY" };
  const anyMytopic: AclBindingFilter = {
    ...ANY_ACL_FILTER,
    resourceType: "TOPIC",
    resourceName: "mytopic",
    patternType: "LITERAL",
  };
  const rows: Array<[string, AclBindingFilter, AclBinding, boolean]> = [
    ["ANY matches acl1", ANY_ACL_FILTER, acl1, true],
    ["ANY matches acl2", ANY_ACL_FILTER, acl2, true],
    ["ANY matches acl3", ANY_ACL_FILTER, acl3, true],
    ["principal filter matches acl1", anyAnonymous, acl1, true],
    ["principal filter is exact: not User:*", anyAnonymous, acl2, false],
    ["principal filter matches acl3", anyAnonymous, acl3, true],
    ["DENY filter, ALLOW acl1", anyDeny, acl1, false],
    ["DENY filter, ALLOW acl2", anyDeny, acl2, false],
    ["DENY filter, DENY acl3", anyDeny, acl3, true],
    ["literal filter mytopic, acl1", anyMytopic, acl1, true],
    ["literal filter mytopic, acl2", anyMytopic, acl2, true],
    ["literal filter mytopic, mytopic2", anyMytopic, acl3, false],
  ];
  it.each(rows)("%s", (_name, filter, binding, expected) => {
    expect(matchesFilter(binding, filter)).toBe(expected);
  });
});

describe("filterAcls — AuthorizerTest", () => {
  it("testAclsFilter: resource filters, MATCH across types, input order kept", () => {
    const resource1 = "foo-3c9e";
    const resource2 = "bar-8a1d";
    const acl1 = acl("TOPIC", resource1, "LITERAL", "User:alice", "*", "READ", "ALLOW");
    const acl2 = acl("TOPIC", resource1, "LITERAL", "User:alice", "192.168.0.1", "WRITE", "ALLOW");
    const acl3 = acl("TOPIC", resource2, "LITERAL", "User:alice", "*", "DESCRIBE", "ALLOW");
    const acl4 = acl("TOPIC", "bar-", "PREFIXED", "User:*", "*", "READ", "ALLOW");
    const all = [acl1, acl2, acl3, acl4];
    expect(filterAcls(all, ANY_ACL_FILTER)).toEqual(all);
    expect(filterAcls(all, patternFilter("TOPIC", resource1, "LITERAL"))).toEqual([acl1, acl2]);
    expect(filterAcls(all, patternFilter("TOPIC", "bar-", "PREFIXED"))).toEqual([acl4]);
    expect(filterAcls(all, patternFilter("ANY", resource2, "MATCH"))).toEqual([acl3, acl4]);
    expect(filterAcls(all, { ...acl1, resourceType: "TOPIC" })).toEqual([acl1]);
    expect(filterAcls(all, patternFilter("TOPIC", "baz", "ANY"))).toEqual([]);
    expect(AclIndex.build(all).matching("TOPIC", resource2)).toEqual([acl3, acl4]);
  });

  it("testGetAclsPrincipal: principal filters do not expand User:*", () => {
    const specific = acl("TOPIC", "r", "LITERAL", "User:alice", "*", "WRITE", "ALLOW");
    const wildcard = acl("TOPIC", "r", "LITERAL", "User:*", "*", "WRITE", "ALLOW");
    const byPrincipal = (p: string): AclBindingFilter => ({ ...ANY_ACL_FILTER, principal: p });
    expect(filterAcls([specific], byPrincipal("User:*"))).toEqual([]);
    expect(filterAcls([specific], byPrincipal("User:alice"))).toEqual([specific]);
    expect(filterAcls([wildcard], byPrincipal("User:*"))).toEqual([wildcard]);
    expect(filterAcls([wildcard], byPrincipal("User:alice"))).toEqual([]);
  });

  it("testAddAclsOnLiteral/Wildcard/PrefixedResource: a LITERAL filter lists only that exact pattern", () => {
    const onResource = acl("TOPIC", "foo-1", "LITERAL", "User:*", "*", "READ", "ALLOW");
    const onWildcard = acl("TOPIC", "*", "LITERAL", "User:*", "*", "READ", "ALLOW");
    const onPrefix = acl("TOPIC", "foo", "PREFIXED", "User:*", "*", "READ", "ALLOW");
    const all = [onResource, onWildcard, onPrefix];
    expect(filterAcls(all, patternFilter("TOPIC", "foo-1", "LITERAL"))).toEqual([onResource]);
    expect(filterAcls(all, patternFilter("TOPIC", "*", "LITERAL"))).toEqual([onWildcard]);
    expect(filterAcls(all, patternFilter("TOPIC", "foo", "PREFIXED"))).toEqual([onPrefix]);
    expect(filterAcls(all, patternFilter("TOPIC", "foo-1", "MATCH"))).toEqual(all);
  });
});
