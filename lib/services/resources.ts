/**
 * The Resources area: the resources of each type the signed-in viewer may see, with
 * the ACLs that apply to each, and one resource's detail. Everything is read as the
 * viewer: Kafka filters the listings (DESCRIBE on each topic, group, transactional id,
 * token) and reading ACLs needs DESCRIBE on CLUSTER; without it the index still lists
 * the resources, with Kafka's readable reason instead of counts. The ACLs are fetched
 * once per request (describeAcls ANY) and indexed once. Used by the Resources page and
 * GET /api/v1/resources.
 */
import "server-only";
import { describeAcls, describeDelegationTokens, listConsumerGroups, listTopics, listTransactionalIds } from "@/lib/kafka";
import type { Viewer } from "@/lib/auth/sign-in";
import type { ActionResult } from "@/lib/actions/result";
import { toErrorResult } from "@/lib/actions/errors";
import { ANY_ACL_FILTER, AclIndex, CLUSTER_RESOURCE_NAME, type AclBinding, type AclBindingFilter, type ResourceType } from "@/lib/policy";
import { RESOURCE_SECTIONS, type ResourceDetail, type ResourceDetailQuery, type ResourceIndex, type ResourceIndexQuery, type ResourceSection } from "@/lib/schemas/resources";
import { applicableAclsFilter } from "./access-check-explain";
import { readAuthorizerConfig } from "./authorizer-config";
import { buildResourceDetail, buildSection, userResourcesOf } from "./resources-view";

async function readAcls(viewer: Viewer, filter: AclBindingFilter = ANY_ACL_FILTER): Promise<ActionResult<AclBinding[]>> {
  try {
    return { ok: true, data: await describeAcls(viewer.credential, filter) };
  } catch (error) {
    return toErrorResult(error, "describe ACLs for the resources");
  }
}

async function names(viewer: Viewer, type: ResourceType, acls: readonly AclBinding[] | null): Promise<ActionResult<string[]>> {
  try {
    switch (type) {
      case "TOPIC":
        return { ok: true, data: await listTopics(viewer.credential) };
      case "GROUP":
        return { ok: true, data: (await listConsumerGroups(viewer.credential)).map((g) => g.groupId) };
      case "TRANSACTIONAL_ID":
        return { ok: true, data: (await listTransactionalIds(viewer.credential)).map((t) => t.transactionalId) };
      case "CLUSTER":
        return { ok: true, data: [CLUSTER_RESOURCE_NAME] };
      case "USER":
        return { ok: true, data: acls ? userResourcesOf(acls) : [] };
      case "DELEGATION_TOKEN":
        return { ok: true, data: (await describeDelegationTokens(viewer.credential, null)).map((t) => t.tokenId) };
    }
  } catch (error) {
    return toErrorResult(error, `list ${type} resources`);
  }
}

/** Every section: each type's resources (filtered by name), with ACL counts when the viewer may describe ACLs. */
export async function resourceIndex(viewer: Viewer, query: ResourceIndexQuery): Promise<ActionResult<ResourceIndex>> {
  const acls = await readAcls(viewer);
  const index = acls.ok ? AclIndex.build(acls.data) : null;
  const sections = await Promise.all(
    RESOURCE_SECTIONS.map(async (type): Promise<ResourceSection> => {
      if (type === "USER" && !acls.ok) {
        return { resourceType: type, resources: [], error: "The users listed here are the USER resources named in ACLs, which could not be read." };
      }
      const listed = await names(viewer, type, acls.ok ? acls.data : null);
      if (!listed.ok) return { resourceType: type, resources: [], error: listed.message };
      return buildSection(type, listed.data, query.q, index);
    }),
  );
  return { ok: true, data: { sections, aclsUnavailable: acls.ok ? null : acls.message } };
}

/** One resource: the ACLs that apply, by reason, and the effective-permission matrix (needs DESCRIBE on CLUSTER). */
export async function resourceDetail(viewer: Viewer, query: ResourceDetailQuery): Promise<ActionResult<ResourceDetail>> {
  // Kafka's MATCH filter returns exactly the ACLs that apply to this one name.
  const acls = await readAcls(viewer, applicableAclsFilter({ resourceType: query.type, resourceName: query.name }));
  if (!acls.ok) return acls;
  return { ok: true, data: buildResourceDetail(query.type, query.name, AclIndex.build(acls.data), readAuthorizerConfig()) };
}
