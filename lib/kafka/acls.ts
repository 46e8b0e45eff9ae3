/**
 * ACLs as the signed-in user: DescribeAcls needs DESCRIBE on CLUSTER, CreateAcls and
 * DeleteAcls need ALTER on CLUSTER. Create and delete report per binding / per filter,
 * because Kafka accepts some items of a request and refuses others.
 *
 * Writes cost one CreateAcls / DeleteAcls call plus one DescribeAcls per confirmation
 * pass, whatever the number of bindings: the pass describes the narrowest single filter
 * that covers every binding (see coveringFilter) and checks the answer as a set.
 */
import { createAclsV3, deleteAclsV3, type Admin, type Connection } from "@platformatic/kafka";
import { AclStoreBuilder, bindingKey, type AclStore } from "@/lib/policy/acl";
import {
  OPERATIONS,
  PATTERN_TYPES,
  PERMISSION_TYPES,
  RESOURCE_TYPES,
  type AclBinding,
  type AclBindingFilter,
  type AclOperation,
  type AclPermissionType,
  type PatternType,
  type ResourceType,
} from "@/lib/policy/types";
import { anyBrokerConnection, principalOf, withAdmin } from "./client";
import { errorInfoFor, kafkaErrorName, partialResponse } from "./errors";
import type { CreateAclResult, DeleteAclsResult, KafkaCredential } from "./types";
import { settle } from "./settle";
import { bindingFromWire, bindingToWire, filterToWire, operationToWire, patternTypeToWire, permissionToWire, resourceTypeToWire } from "./wire";

type DescribedResources = Awaited<ReturnType<Admin["describeAcls"]>>;

async function describeRaw(admin: Admin, filter: AclBindingFilter): Promise<DescribedResources> {
  return admin.describeAcls({ filter: filterToWire(filter) });
}

/** The bindings matching `filter` (Kafka's own filter semantics, incl. ANY and MATCH). */
export async function describeAcls(cred: KafkaCredential, filter: AclBindingFilter): Promise<AclBinding[]> {
  return withAdmin(cred, "DescribeAcls", async (admin) => {
    const resources = await describeRaw(admin, filter);
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

function fromCode<T extends string>(names: readonly T[], toWire: (name: T) => number, what: string): (code: number) => T {
  const table = new Map<number, T>(names.map((n) => [toWire(n), n]));
  return (code) => {
    const name = table.get(code);
    if (name === undefined) throw new Error(`Kafka returned an unexpected ${what} code ${code}.`);
    return name;
  };
}
const resourceTypeOf = fromCode<ResourceType>(RESOURCE_TYPES, resourceTypeToWire, "resource type");
const patternTypeOf = fromCode<PatternType>(PATTERN_TYPES, patternTypeToWire, "pattern type");
const operationOf = fromCode<AclOperation>(OPERATIONS, operationToWire, "ACL operation");
const permissionOf = fromCode<AclPermissionType>(PERMISSION_TYPES, permissionToWire, "permission type");

/**
 * Every ACL `filter` matches, straight into an AclStore (interned, deduplicated, sorted)
 * without an intermediate binding object per ACL: what the console's ACL snapshot is
 * built from.
 */
export async function describeAclStore(cred: KafkaCredential, filter: AclBindingFilter): Promise<AclStore> {
  return withAdmin(cred, "DescribeAcls", async (admin) => {
    const resources = await describeRaw(admin, filter);
    const builder = new AclStoreBuilder();
    for (const r of resources) {
      const type = resourceTypeOf(r.resourceType);
      const pattern = patternTypeOf(r.resourcePatternType);
      for (const acl of r.acls) builder.add(type, r.resourceName, pattern, acl.principal, acl.host, operationOf(acl.operation), permissionOf(acl.permissionType));
    }
    return builder.build();
  });
}

/** What a write changed, as Kafka confirmed it; `unknown` when the answer was lost. */
export type AclChange = { created: AclBinding[]; deleted: AclBinding[] } | { unknown: true };
type AclChangeListener = (change: AclChange) => void;

const globalListeners = globalThis as typeof globalThis & { __kafkaSecurityConsoleAclListeners?: Set<AclChangeListener> };
const listeners: Set<AclChangeListener> = (globalListeners.__kafkaSecurityConsoleAclListeners ??= new Set());

/**
 * Be told of every ACL change this process makes through createAcls / deleteAcls (the
 * console's ACL snapshot stays current this way). Returns the unsubscribe function.
 */
export function onAclChange(listener: AclChangeListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function notify(change: AclChange): void {
  if ("created" in change && change.created.length === 0 && change.deleted.length === 0) return;
  for (const listener of listeners) {
    try {
      listener(change);
    } catch (error) {
      console.error("[console] an ACL change listener failed:", error instanceof Error ? (error.stack ?? error.message) : String(error));
    }
  }
}

/** Runs a write; when it fails without an answer from Kafka, its effect is unknown. */
async function reporting<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    notify({ unknown: true });
    throw error;
  }
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

/**
 * The narrowest single AclBindingFilter that matches every binding: each field the
 * bindings agree on, ANY (or null) where they differ. Pattern ANY with a name is "this
 * exact name, any pattern type", which still covers bindings of one name and both types.
 */
export function coveringFilter(bindings: readonly AclBinding[]): AclBindingFilter {
  const first = bindings[0];
  if (first === undefined) throw new Error("coveringFilter needs at least one binding.");
  const same = <K extends keyof AclBinding>(k: K): AclBinding[K] | null => (bindings.every((b) => b[k] === first[k]) ? first[k] : null);
  return {
    resourceType: same("resourceType") ?? "ANY",
    resourceName: same("resourceName"),
    patternType: same("patternType") ?? "ANY",
    principal: same("principal"),
    host: same("host"),
    operation: same("operation") ?? "ANY",
    permissionType: same("permissionType") ?? "ANY",
  };
}

/**
 * One confirmation pass: a single DescribeAcls with the covering filter, checked as a
 * set — every binding present (after a create) or none of them (after a delete). Only
 * the resources some binding names are looked at, so a wide answer costs little.
 */
export async function bindingsVisible(admin: Admin, bindings: readonly AclBinding[], present: boolean): Promise<boolean> {
  if (bindings.length === 0) return true;
  const wanted = new Set(bindings.map(bindingKey));
  const resourceKey = (type: ResourceType, name: string, pattern: PatternType) => `${type}\u0000${pattern}\u0000${name}`;
  const wantedResources = new Set(bindings.map((b) => resourceKey(b.resourceType, b.resourceName, b.patternType)));
  let found = 0;
  for (const r of await describeRaw(admin, coveringFilter(bindings))) {
    const type = resourceTypeOf(r.resourceType);
    const pattern = patternTypeOf(r.resourcePatternType);
    if (!wantedResources.has(resourceKey(type, r.resourceName, pattern))) continue;
    for (const acl of r.acls) {
      const key = bindingKey({
        resourceType: type,
        resourceName: r.resourceName,
        patternType: pattern,
        principal: acl.principal,
        host: acl.host,
        operation: operationOf(acl.operation),
        permissionType: permissionOf(acl.permissionType),
      });
      if (!wanted.has(key)) continue;
      if (!present) return false;
      found++;
    }
  }
  return present ? found >= wanted.size : true;
}

/** Creates the bindings; each result says whether Kafka created it (creating an existing one succeeds). */
export async function createAcls(cred: KafkaCredential, bindings: AclBinding[]): Promise<CreateAclResult[]> {
  if (bindings.length === 0) return [];
  const ctx = { api: "CreateAcls", principal: principalOf(cred) };
  return withAdmin(cred, ctx.api, async (admin) => {
    const connection: Connection = await anyBrokerConnection(admin);
    const response = await reporting(() => sendOrPartial<CreateAclsResponse>(() => createAclsV3.api.async(connection, bindings.map(bindingToWire))));
    const results = bindings.map((binding, i) => {
      const result = response.results[i];
      if (!result) throw new Error(`Kafka answered CreateAcls with ${response.results.length} results for ${bindings.length} bindings.`);
      return {
        binding,
        error: result.errorCode === 0 ? null : errorInfoFor(kafkaErrorName(result.errorCode), result.errorMessage, ctx),
      };
    });
    const created = distinct(results.filter((r) => r.error === null).map((r) => r.binding));
    await settle(() => bindingsVisible(admin, created, true));
    notify({ created, deleted: [] });
    return results;
  });
}

/** Deletes every binding each filter matches; each result lists what that filter deleted. */
export async function deleteAcls(cred: KafkaCredential, filters: AclBindingFilter[]): Promise<DeleteAclsResult[]> {
  if (filters.length === 0) return [];
  const ctx = { api: "DeleteAcls", principal: principalOf(cred) };
  return withAdmin(cred, ctx.api, async (admin) => {
    const connection = await anyBrokerConnection(admin);
    const response = await reporting(() => sendOrPartial<DeleteAclsResponse>(() => deleteAclsV3.api.async(connection, filters.map(filterToWire))));
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
    const deleted = distinct(results.flatMap((r) => r.deleted));
    await settle(() => bindingsVisible(admin, deleted, false));
    notify({ created: [], deleted });
    return results;
  });
}

function distinct(bindings: readonly AclBinding[]): AclBinding[] {
  const seen = new Set<string>();
  return bindings.filter((b) => {
    const k = bindingKey(b);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
