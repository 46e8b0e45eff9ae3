/**
 * What one asks an AclStore: the query (Kafka's AclBindingFilter fields plus what a
 * console needs beside them: names starting with a prefix, the patterns that apply to a
 * name, a principal fragment), the orders a page can be a slice of, and the page.
 */
import {
  ACL_BINDING_FIELDS,
  type AclBinding,
  type AclBindingFilter,
  type AclOperationFilter,
  type AclPermissionTypeFilter,
  type PatternTypeFilter,
  type ResourceTypeFilter,
} from "../types";

/**
 * Orders a page can be a slice of: the browse order ("resource", the same as
 * "resourceType"), or one column first and then the browse order. Each column's order is
 * a permutation counted out once per store (O(n), no comparison sort); a filtered query
 * orders just its matches (a small answer is sorted, a large one picked out of the
 * permutation). `descending` reverses the whole order.
 */
export const ACL_STORE_SORTS = ["resource", ...ACL_BINDING_FIELDS] as const;
export type AclStoreSort = (typeof ACL_STORE_SORTS)[number];

export interface AclStoreQuery {
  resourceType?: ResourceTypeFilter;
  /** With patternType: Kafka's filter semantics (ANY: exact name; MATCH: applies to the name). */
  resourceName?: string | null;
  patternType?: PatternTypeFilter;
  /** Only patterns whose name starts with this (the pattern's own name, not MATCH). */
  resourceNamePrefix?: string | null;
  /**
   * Only patterns that apply to a resource of this name (Kafka's MATCH, what
   * `kafka-acls.sh --list --resource-pattern-type match` answers): LITERAL this name,
   * LITERAL `*`, and PREFIXED patterns the name starts with. Combines with every other
   * field (e.g. patternType PREFIXED: just the prefixes that apply).
   */
  resourceNameMatch?: string | null;
  /** Exact principal (`User:alice` does not return `User:*`). */
  principal?: string | null;
  /** Case-insensitive fragment of the principal. */
  principalContains?: string | null;
  host?: string | null;
  operation?: AclOperationFilter;
  permissionType?: AclPermissionTypeFilter;
  sort?: AclStoreSort;
  descending?: boolean;
}

export interface AclStorePageRequest extends AclStoreQuery {
  /** 1-based; clamped to the last page. */
  page?: number;
  pageSize?: number;
}

/** The same shape as the ACL list's answer (lib/schemas/acls AclListResult). */
export interface AclStorePage {
  acls: AclBinding[];
  /** ACLs in the store. */
  total: number;
  /** ACLs the filters match. */
  matching: number;
  page: number;
  pageSize: number;
  pages: number;
}

export const DEFAULT_STORE_PAGE_SIZE = 200;

/** An AclBindingFilter as a store query (same semantics). */
export function fromKafkaFilter(f: AclBindingFilter): AclStoreQuery {
  return {
    resourceType: f.resourceType,
    resourceName: f.resourceName,
    patternType: f.patternType,
    principal: f.principal,
    host: f.host,
    operation: f.operation,
    permissionType: f.permissionType,
  };
}
