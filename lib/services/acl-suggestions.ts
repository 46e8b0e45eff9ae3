import "server-only";
import type { Viewer } from "@/lib/auth/sign-in";
import { CLUSTER_RESOURCE_NAME, RESOURCE_TYPES, type PatternType, type ResourceType } from "@/lib/policy";
import { getAclSnapshot } from "./acl-snapshot";
import { clusterOf } from "@/lib/clusters";

/** What the ACL forms suggest as you type: names the cluster's ACLs already use. */
export interface AclSuggestions {
  principals: string[];
  topics: string[];
  groups: string[];
  transactionalIds: string[];
  /**
   * Every resource name the ACLs use (all types), for a resource name field before a type is chosen (and without
   * JavaScript).
   */
  resourceNames: string[];
  /**
   * The names the ACLs use per resource type (CLUSTER: kafka-cluster), for a resource name field narrowed by the chosen
   * type.
   */
  byType: Record<ResourceType, string[]>;
}

export const NO_SUGGESTIONS: AclSuggestions = Object.freeze({
  principals: [],
  topics: [],
  groups: [],
  transactionalIds: [],
  resourceNames: [],
  byType: Object.fromEntries(RESOURCE_TYPES.map((t) => [t, []])) as unknown as Record<ResourceType, string[]>,
});

/**
 * The first `limit` distinct strings of the lists, in order (the lists are sorted already; no list is copied whole).
 */
function bounded(lists: readonly (readonly string[])[], limit: number): string[] {
  const out = new Set<string>();
  for (const list of lists) {
    for (const s of list) {
      if (out.size >= limit) return [...out];
      out.add(s);
    }
  }
  return [...out];
}

/**
 * The suggestions from one ACL snapshot: the principals its ACLs name (and the configured
 * super users), and the resource names per resource type (topics, groups, transactional ids...), each
 * bounded to `limit` (a datalist of 10,000 names helps nobody; cost is proportional to the
 * answer plus the distinct names of the type, never to the ACL count).
 */
export function suggestionsOf(
  snapshot: {
    store: { principals: readonly string[] };
    resourceNames(type: ResourceType, patternType?: PatternType): string[];
  },
  superUsers: readonly string[] = [],
  /** The Combobox sends at most this many (its MAX_SUGGESTIONS). */
  limit = 200,
): AclSuggestions {
  const byType = Object.fromEntries(
    RESOURCE_TYPES.map((type) => [
      type,
      type === "CLUSTER" ? [CLUSTER_RESOURCE_NAME] : bounded([snapshot.resourceNames(type)], limit),
    ]),
  ) as Record<ResourceType, string[]>;
  return {
    principals: bounded([superUsers, snapshot.store.principals], limit),
    topics: byType.TOPIC,
    groups: byType.GROUP,
    transactionalIds: byType.TRANSACTIONAL_ID,
    resourceNames: bounded([byType.TOPIC, byType.GROUP, byType.TRANSACTIONAL_ID, byType.CLUSTER], limit),
    byType,
  };
}

/** The user principals among `principals` (`User:*` left out): who may own or renew a delegation token. */
export function userPrincipals(principals: readonly string[]): string[] {
  return principals.filter((p) => p.startsWith("User:") && p !== "User:*");
}

/** The viewer's suggestions; none when Kafka does not let the viewer read the ACLs (the forms still work). */
export async function aclSuggestions(viewer: Viewer): Promise<AclSuggestions> {
  const acls = await getAclSnapshot(viewer);
  if (!acls.ok) return NO_SUGGESTIONS;
  return suggestionsOf(acls.snapshot, clusterOf(viewer.credential).authorizer.superUsers);
}
