import { describe, expect, it } from "vitest";
import {
  ACLS_ASSUMED,
  DELETE_FILTERS_MAX,
  aclsHeldOn,
  deleteFiltersPerRequest,
  noteAclsHeld,
  slices,
} from "./acl-delete-batches";

describe("filters per DeleteAcls request", () => {
  it(
    "shrinks as Kafka holds more ACLs (the controller walks all of them per filter), between 1 and the " + "maximum",
    () => {
      expect(deleteFiltersPerRequest(100_000)).toBe(20);
      expect(deleteFiltersPerRequest(300_000)).toBe(6);
      expect(deleteFiltersPerRequest(10_000_000)).toBe(1);
      expect(deleteFiltersPerRequest(20)).toBe(DELETE_FILTERS_MAX);
      expect(deleteFiltersPerRequest(0)).toBe(DELETE_FILTERS_MAX);
    },
  );

  it("follows the ACL count each cluster last answered, and assumes a large cluster before that", () => {
    expect(deleteFiltersPerRequest()).toBe(deleteFiltersPerRequest(ACLS_ASSUMED));
    noteAclsHeld(40_000);
    expect(deleteFiltersPerRequest()).toBe(50);
    expect(aclsHeldOn("other")).toBe(ACLS_ASSUMED);
    noteAclsHeld(500, "other");
    expect(deleteFiltersPerRequest(aclsHeldOn("other"))).toBe(DELETE_FILTERS_MAX);
    expect(aclsHeldOn()).toBe(40_000);
  });

  it("slices keep order and sizes", () => {
    expect(slices([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(slices([], 3)).toEqual([]);
  });
});
