/**
 * ACLs as the signed-in user: DescribeAcls needs DESCRIBE on CLUSTER, CreateAcls and
 * DeleteAcls need ALTER on CLUSTER. Create and delete report per binding / per filter,
 * because Kafka accepts some items of a request and refuses others.
 */
import { createAclsV3, deleteAclsV3, type Admin, type Connection } from "@platformatic/kafka";
import type { AclBinding, AclBindingFilter } from "@/lib/policy/types";
import { anyBrokerConnection, principalOf, withAdmin } from "./client";
import { errorInfoFor, kafkaErrorName, partialResponse } from "./errors";
import type { CreateAclResult, DeleteAclsResult, KafkaCredential } from "./types";
import { settle } from "./settle";
import { bindingFromWire, bindingToWire, filterToWire } from "./wire";

/** The bindings matching `filter` (Kafka's own filter semantics, incl. ANY and MATCH). */
export async function describeAcls(cred: KafkaCredential, filter: AclBindingFilter): Promise<AclBinding[]> {
  return withAdmin(cred, "DescribeAcls", async (admin) => {
    const resources = await admin.describeAcls({ filter: filterToWire(filter) });
    return resources.flatMap((r) =>
      r.acls.map((acl) =>
        bindingFromWire({
          resourceType: r.resourceType,
          resourceName: r.resourceName,
          resourcePatternType: r.resourcePatternType,
          principal: acl.principal,
          host: acl.host,
          operation: acl.operation,
          permissionType: acl.permissionType,
        }),
      ),
    );
  });
}

type CreateAclsResponse = Awaited<ReturnType<typeof createAclsV3.api.async>>;
type DeleteAclsResponse = Awaited<ReturnType<typeof deleteAclsV3.api.async>>;

async function sendOrPartial<R>(send: () => Promise<R>): Promise<R> {
  try {
    return await send();
  } catch (error) {
    const response = partialResponse<R>(error);
    if (response) return response;
    throw error;
  }
}

/** Creates the bindings; each result says whether Kafka created it (creating an existing one succeeds). */
export async function createAcls(cred: KafkaCredential, bindings: AclBinding[]): Promise<CreateAclResult[]> {
  if (bindings.length === 0) return [];
  const ctx = { api: "CreateAcls", principal: principalOf(cred) };
  return withAdmin(cred, ctx.api, async (admin) => {
    const connection: Connection = await anyBrokerConnection(admin);
    const response = await sendOrPartial<CreateAclsResponse>(() => createAclsV3.api.async(connection, bindings.map(bindingToWire)));
    const results = bindings.map((binding, i) => {
      const result = response.results[i];
      if (!result) throw new Error(`Kafka answered CreateAcls with ${response.results.length} results for ${bindings.length} bindings.`);
      return {
        binding,
        error: result.errorCode === 0 ? null : errorInfoFor(kafkaErrorName(result.errorCode), result.errorMessage, ctx),
      };
    });
    const created = results.filter((r) => r.error === null).map((r) => r.binding);
    await settle(async () => {
      for (const binding of created) if (!(await bindingVisible(admin, binding))) return false;
      return true;
    });
    return results;
  });
}

/** Deletes every binding each filter matches; each result lists what that filter deleted. */
export async function deleteAcls(cred: KafkaCredential, filters: AclBindingFilter[]): Promise<DeleteAclsResult[]> {
  if (filters.length === 0) return [];
  const ctx = { api: "DeleteAcls", principal: principalOf(cred) };
  return withAdmin(cred, ctx.api, async (admin) => {
    const connection = await anyBrokerConnection(admin);
    const response = await sendOrPartial<DeleteAclsResponse>(() => deleteAclsV3.api.async(connection, filters.map(filterToWire)));
    const results = filters.map((filter, i) => {
      const result = response.filterResults[i];
      if (!result) throw new Error(`Kafka answered DeleteAcls with ${response.filterResults.length} results for ${filters.length} filters.`);
      if (result.errorCode !== 0) {
        return { filter, deleted: [], error: errorInfoFor(kafkaErrorName(result.errorCode), result.errorMessage, ctx) };
      }
      const failed = result.matchingAcls.find((m) => m.errorCode !== 0);
      return {
        filter,
        deleted: result.matchingAcls.filter((m) => m.errorCode === 0).map(bindingFromWire),
        error: failed ? errorInfoFor(kafkaErrorName(failed.errorCode), failed.errorMessage, ctx) : null,
      };
    });
    const deleted = results.flatMap((r) => r.deleted);
    await settle(async () => {
      for (const binding of deleted) if (await bindingVisible(admin, binding)) return false;
      return true;
    });
    return results;
  });
}

/** Whether the broker's describe already shows exactly this binding. */
async function bindingVisible(admin: Admin, binding: AclBinding): Promise<boolean> {
  const resources = await admin.describeAcls({ filter: bindingToWire(binding) });
  return resources.some((r) => r.acls.length > 0);
}
