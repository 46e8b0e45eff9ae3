/**
 * The Resources area: the resources of each type the signed-in viewer may see, with
 * the ACLs that apply to each, and one resource's detail. Kafka filters the listings as
 * the viewer (DESCRIBE on each topic, group, transactional id, token). The ACLs come
 * from the shared ACL snapshot (acl-snapshot.ts), which the viewer may use only after
 * Kafka let them describe ACLs (DESCRIBE on CLUSTER); without it the index still lists
 * the resources, with Kafka's readable reason instead of counts. Counts and the ACLs
 * that apply to one resource come from the snapshot's indexes (a few lookups per
 * resource; nothing is built per request but the detail's index of the ACLs on that one
 * resource). Used by the Resources page and GET /api/v1/resources.
 */
import "server-only";
import {
  describeDelegationTokens,
  listConsumerGroupsPerBroker,
  listTopics,
  listTransactionalIdsPerBroker,
  unreachableNote,
} from "@/lib/kafka";
import { clusterOf } from "@/lib/clusters";
import type { Viewer } from "@/lib/auth/sign-in";
import type { ActionResult } from "@/lib/schemas/result";
import { toErrorResult } from "@/lib/kafka/error-result";
import { AclIndex, CLUSTER_RESOURCE_NAME, type ResourceType } from "@/lib/policy";
import {
  RESOURCE_SECTIONS,
  type ResourceDetail,
  type ResourceDetailQuery,
  type ResourceIndex,
  type ResourceIndexQuery,
  type ResourceSection,
} from "@/lib/schemas/resources";
import {
  fromAclSnapshot,
  getAclSnapshot,
  type AclSnapshot,
  type AclSnapshotRead,
  type AclSnapshotReadOptions,
} from "./acl-snapshot";
import { buildResourceDetail, buildSection, userResourcesOfSnapshot } from "./resources-view";

/**
 * The names of topics, groups or transactional ids Kafka lists to the viewer (it filters
 * them by DESCRIBE), and which part is missing: groups and transactional ids are listed by
 * each broker for what it coordinates, so a broker that is down leaves out only its share.
 */
export async function listedNamesOf(
  viewer: Viewer,
  type: "TOPIC" | "GROUP" | "TRANSACTIONAL_ID",
): Promise<{ names: string[]; note: string | null }> {
  switch (type) {
    case "TOPIC":
      return { names: await listTopics(viewer.credential), note: null };
    case "GROUP": {
      const listing = await listConsumerGroupsPerBroker(viewer.credential);
      return { names: listing.items.map((g) => g.groupId), note: unreachableNote(listing.unreachable, "groups") };
    }
    case "TRANSACTIONAL_ID": {
      const listing = await listTransactionalIdsPerBroker(viewer.credential);
      return {
        names: listing.items.map((t) => t.transactionalId),
        note: unreachableNote(listing.unreachable, "transactional ids"),
      };
    }
  }
}

/** The names of listedNamesOf. */
export async function listedNames(viewer: Viewer, type: "TOPIC" | "GROUP" | "TRANSACTIONAL_ID"): Promise<string[]> {
  return (await listedNamesOf(viewer, type)).names;
}

async function names(
  viewer: Viewer,
  type: ResourceType,
  snapshot: AclSnapshot | null,
): Promise<ActionResult<string[]> & { note?: string | null }> {
  try {
    switch (type) {
      case "TOPIC":
      case "GROUP":
      case "TRANSACTIONAL_ID": {
        const listed = await listedNamesOf(viewer, type);
        return { ok: true, data: listed.names, note: listed.note };
      }
      case "CLUSTER":
        return { ok: true, data: [CLUSTER_RESOURCE_NAME] };
      case "USER":
        return { ok: true, data: snapshot ? userResourcesOfSnapshot(snapshot) : [] };
      case "DELEGATION_TOKEN":
        return { ok: true, data: (await describeDelegationTokens(viewer.credential, null)).map((t) => t.tokenId) };
    }
  } catch (error) {
    return toErrorResult(error, `list ${type} resources`);
  }
}

/** Every section: each type's resources (filtered by name), with ACL counts when the viewer may describe ACLs. */
export async function resourceIndex(
  viewer: Viewer,
  query: ResourceIndexQuery,
  options: AclSnapshotReadOptions = {},
): Promise<AclSnapshotRead<ResourceIndex>> {
  const acls = await getAclSnapshot(viewer, options);
  const snapshot = acls.ok ? acls.snapshot : null;
  const sections = await Promise.all(
    RESOURCE_SECTIONS.map(async (type): Promise<ResourceSection> => {
      if (type === "USER" && snapshot === null) {
        return {
          resourceType: type,
          resources: [],
          error: "The users listed here are the USER resources named in ACLs, which could not be read.",
          note: null,
        };
      }
      const listed = await names(viewer, type, snapshot);
      if (!listed.ok) return { resourceType: type, resources: [], error: listed.message, note: null };
      return { ...buildSection(type, listed.data, query.q, snapshot), note: listed.note ?? null };
    }),
  );
  return {
    ok: true,
    data: { sections, aclsUnavailable: acls.ok ? null : acls.message },
    aclSnapshot: snapshot?.info() ?? null,
  };
}

/** One resource: the ACLs that apply, by reason, and the effective-permission matrix (needs DESCRIBE on CLUSTER). */
export function resourceDetail(
  viewer: Viewer,
  query: ResourceDetailQuery,
  options: AclSnapshotReadOptions = {},
): Promise<AclSnapshotRead<ResourceDetail>> {
  return fromAclSnapshot(viewer, options, (snapshot) => {
    const applicable = AclIndex.build(snapshot.matching(query.type, query.name));
    return buildResourceDetail(query.type, query.name, applicable, clusterOf(viewer.credential).authorizer);
  });
}
