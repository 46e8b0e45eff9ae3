/**
 * ACLs as the signed-in user: DescribeAcls needs DESCRIBE on CLUSTER, CreateAcls and
 * DeleteAcls need ALTER on CLUSTER. Create and delete report per binding / per filter,
 * because Kafka accepts some items of a request and refuses others.
 *
 * Writes cost one CreateAcls / DeleteAcls call plus one DescribeAcls per confirmation
 * pass, whatever the number of bindings: the pass describes the narrowest single filter
 * that covers every binding (see coveringFilter) and checks the answer as a set.
 *
 * A write whose answer is lost (connection closed or timed out mid-request) is settled by
 * reading the ACLs back (acl-read-back.ts): each binding is reported applied, not applied
 * or unknown (readBack), never as a plain failure that Kafka may have carried out.
 */
import {
  createAPI,
  createAclsV3,
  deleteAclsV3,
  describeAclsV3,
  ResponseError,
  type Admin,
  type AclFilter,
  type Connection,
} from "@platformatic/kafka";
import { AclStoreBuilder, bindingKey, type AclStore } from "@/lib/policy/acl";
import type { AclBinding, AclBindingFilter, PatternType, ResourceType } from "@/lib/policy/types";
import { anyBrokerConnection, principalOf, withAdmin } from "./client";
import { clusterIdOf } from "@/lib/clusters";
import { reachableBrokerConnections } from "./brokers";
import { aclsHeldOn, deleteFiltersPerRequest, noteAclsHeld, slices } from "./acl-delete-batches";
import {
  errorInfoFor,
  kafkaErrorName,
  partialResponse,
  toKafkaOperationError,
  type ErrorContext,
  type KafkaErrorInfo,
} from "./errors";
import type { CreateAclResult, DeleteAclsResult, KafkaCredential } from "./types";
import { settle } from "./settle";
import { ACL_READ_BACK_MS, exactBinding, isAnswerLost, settleLostWrite } from "./acl-read-back";
import {
  bindingFromWire,
  bindingToWire,
  filterToWire,
  operationFromWire,
  patternTypeFromWire,
  permissionFromWire,
  resourceTypeFromWire,
} from "./wire";

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

/**
 * DescribeAcls v3 with its answer kept as bytes (one contiguous copy of the body): an
 * unchanged answer is recognised by comparing bytes, a changed one is decoded straight
 * into an AclStore — no object per ACL, no slicing per string.
 */
const describeAclsBytes = createAPI<[AclFilter], Buffer>(
  describeAclsV3.api.key,
  describeAclsV3.api.version,
  describeAclsV3.createRequest,
  (_id, apiKey, apiVersion, reader) => {
    const bytes = Buffer.from(reader.buffer.slice(reader.position, reader.length));
    const errorCode = bytes.readInt16BE(4);
    if (errorCode !== 0) {
      const r = new WireReader(bytes, 6);
      const errorMessage = r.nullableString();
      throw new ResponseError(apiKey, apiVersion, { "/": [errorCode, errorMessage] }, { errorCode, errorMessage });
    }
    return bytes;
  },
);

/** The little of Kafka's compact encoding a DescribeAcls v3 answer needs. */
class WireReader {
  constructor(
    private readonly bytes: Buffer,
    public p: number,
  ) {}
  int8(): number {
    return this.bytes.readInt8(this.p++);
  }
  uvarint(): number {
    let value = 0;
    let shift = 0;
    for (;;) {
      const b = this.bytes[this.p++]!;
      value += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return value;
      shift += 7;
    }
  }
  nullableString(): string | null {
    const n = this.uvarint() - 1;
    if (n < 0) return null;
    const s = this.bytes.toString("utf8", this.p, this.p + n);
    this.p += n;
    return s;
  }
  string(): string {
    const s = this.nullableString();
    if (s === null) throw new Error("Kafka answered DescribeAcls with a null string where one is required.");
    return s;
  }
  skipString(): void {
    const n = this.uvarint() - 1;
    this.p += Math.max(0, n);
  }
  skipTaggedFields(): void {
    for (let n = this.uvarint(); n > 0; n--) {
      this.uvarint();
      const size = this.uvarint();
      this.p += size;
    }
  }
}

/** Decodes a DescribeAcls v3 body (throttle_time_ms onwards) into `builder`. */
export function decodeDescribeAclsInto(bytes: Buffer, builder: AclStoreBuilder): void {
  const r = new WireReader(bytes, 6);
  r.nullableString();
  for (let resources = r.uvarint() - 1; resources > 0; resources--) {
    const type = resourceTypeFromWire(r.int8());
    const name = r.string();
    const pattern = patternTypeFromWire(r.int8());
    for (let acls = r.uvarint() - 1; acls > 0; acls--) {
      const principal = r.string();
      const host = r.string();
      const operation = operationFromWire(r.int8());
      const permission = permissionFromWire(r.int8());
      r.skipTaggedFields();
      builder.add(type, name, pattern, principal, host, operation, permission);
    }
    r.skipTaggedFields();
  }
}

/**
 * Decodes a DescribeAcls v3 body into bindings, each name, principal and host taken from
 * `intern` when it holds the same text (and added to `fresh`): bindings of two reads then share
 * their strings, and comparing them (the history journal's read, read-memory.ts) compares
 * pointers instead of characters.
 */
export function decodeDescribeAclsBindings(
  bytes: Buffer,
  intern: ReadonlyMap<string, string>,
  fresh: Map<string, string> = new Map(),
): AclBinding[] {
  const same = (s: string) => {
    let known = fresh.get(s);
    if (known === undefined) {
      known = intern.get(s) ?? s;
      fresh.set(known, known);
    }
    return known;
  };
  const out: AclBinding[] = [];
  const r = new WireReader(bytes, 6);
  r.nullableString();
  for (let resources = r.uvarint() - 1; resources > 0; resources--) {
    const resourceType = resourceTypeFromWire(r.int8());
    const resourceName = same(r.string());
    const patternType = patternTypeFromWire(r.int8());
    for (let acls = r.uvarint() - 1; acls > 0; acls--) {
      const principal = same(r.string());
      const host = same(r.string());
      const operation = operationFromWire(r.int8());
      const permissionType = permissionFromWire(r.int8());
      r.skipTaggedFields();
      out.push({ resourceType, resourceName, patternType, principal, host, operation, permissionType });
    }
    r.skipTaggedFields();
  }
  return out;
}

/**
 * The bindings `filter` matches, decoded with decodeDescribeAclsBindings: pass the strings of the
 * previous call's answer as `intern`, keep the returned `strings` for the next.
 */
export async function describeAclBindings(
  cred: KafkaCredential,
  filter: AclBindingFilter,
  intern: ReadonlyMap<string, string> = new Map(),
): Promise<{ acls: AclBinding[]; strings: Map<string, string> }> {
  return withAdmin(cred, "DescribeAcls", async (admin) => {
    const answer = await describeAclsBytes.async(await anyBrokerConnection(admin), filterToWire(filter));
    const strings = new Map<string, string>();
    return { acls: decodeDescribeAclsBindings(answer, intern, strings), strings };
  });
}

function isAnyFilter(f: AclBindingFilter): boolean {
  return (
    f.resourceType === "ANY" &&
    f.resourceName === null &&
    f.patternType === "ANY" &&
    f.principal === null &&
    f.host === null &&
    f.operation === "ANY" &&
    f.permissionType === "ANY"
  );
}

/** An answer and the store decoded from it, to recognise the next identical answer. */
export interface DescribedAclStore {
  store: AclStore;
  /** The answer's body from the error code on (throttle_time_ms excluded: it varies). */
  bytes: Buffer;
  /** True when the answer equalled `previous` and its store was reused. */
  reused: boolean;
}

/**
 * Every ACL `filter` matches, as an AclStore (interned, deduplicated, sorted): what the
 * console's ACL snapshot is built from. When Kafka's answer is byte for byte the one
 * `previous` came from (Kafka answers the same ACLs in the same order), its store is
 * returned without decoding anything.
 */
export async function describeAclStore(
  cred: KafkaCredential,
  filter: AclBindingFilter,
  previous: Omit<DescribedAclStore, "reused"> | null = null,
): Promise<DescribedAclStore> {
  return withAdmin(cred, "DescribeAcls", async (admin) => {
    const answer = await describeAclsBytes.async(await anyBrokerConnection(admin), filterToWire(filter));
    const bytes = answer.subarray(4);
    if (previous !== null && previous.bytes.equals(bytes))
      return { store: previous.store, bytes: previous.bytes, reused: true };
    const builder = new AclStoreBuilder();
    decodeDescribeAclsInto(answer, builder);
    const store = builder.build();
    if (isAnyFilter(filter)) noteAclsHeld(store.size, clusterIdOf(cred));
    return { store, bytes, reused: false };
  });
}

/** What a write changed on the cluster `clusterId`, as Kafka confirmed it; `unknown` when the answer was lost. */
export type AclChange = ({ created: AclBinding[]; deleted: AclBinding[] } | { unknown: true }) & { clusterId: string };
type AclChangeListener = (change: AclChange) => void;

const globalListeners = globalThis as typeof globalThis & {
  __kafkaSecurityConsoleAclListeners?: Set<AclChangeListener>;
};
const listeners: Set<AclChangeListener> = (globalListeners.__kafkaSecurityConsoleAclListeners ??= new Set());

/**
 * Be told of every ACL change this process makes through createAcls / deleteAcls (the
 * console's ACL snapshot stays current this way). Returns the unsubscribe function.
 */
export function onAclChange(listener: AclChangeListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function notify(
  cred: KafkaCredential,
  what: { created: AclBinding[]; deleted: AclBinding[] } | { unknown: true },
): void {
  const change: AclChange = { ...what, clusterId: clusterIdOf(cred) };
  if ("created" in change && change.created.length === 0 && change.deleted.length === 0) return;
  for (const listener of listeners) {
    try {
      listener(change);
    } catch (error) {
      console.error(
        "[console] an ACL change listener failed:",
        error instanceof Error ? (error.stack ?? error.message) : String(error),
      );
    }
  }
}

/** Runs a write; when it fails without an answer from Kafka, its effect is unknown. */
async function reporting<T>(cred: KafkaCredential, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    notify(cred, { unknown: true });
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
  const same = <K extends keyof AclBinding>(k: K): AclBinding[K] | null =>
    bindings.every((b) => b[k] === first[k]) ? first[k] : null;
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
 * One confirmation pass: a DescribeAcls with the covering filter to every broker that
 * answers, each answer checked as a set — every binding present (after a create) or none
 * of them (after a delete). In a multi-broker cluster each broker applies the controller's
 * change on its own, a moment apart, and the next read may be served by any of them: the
 * change is visible when every reachable broker shows it. The answers are skimmed as
 * bytes: only the resources some binding names are decoded, so even a cluster-wide answer
 * (bindings with nothing in common) costs little here.
 */
export async function bindingsVisible(
  admin: Admin,
  bindings: readonly AclBinding[],
  present: boolean,
): Promise<boolean> {
  if (bindings.length === 0) return true;
  const { connections } = await reachableBrokerConnections(admin);
  const filter = filterToWire(coveringFilter(bindings));
  const answers = await Promise.all(
    [...connections.values()].map((connection) => describeAclsBytes.async(connection, filter)),
  );
  return answers.every((bytes) => answerShows(bytes, bindings, present));
}

/** Whether one DescribeAcls answer holds every binding (`present`) or none of them. */
function answerShows(bytes: Buffer, bindings: readonly AclBinding[], present: boolean): boolean {
  const held = heldKeys(bytes, bindings);
  return present ? held.size >= new Set(bindings.map(bindingKey)).size : held.size === 0;
}

/** The keys of the bindings one DescribeAcls answer holds. */
function heldKeys(bytes: Buffer, bindings: readonly AclBinding[]): Set<string> {
  const wanted = new Set(bindings.map(bindingKey));
  const held = new Set<string>();
  const resourceKey = (type: ResourceType, name: string, pattern: PatternType) =>
    `${type}\u0000${pattern}\u0000${name}`;
  const wantedResources = new Set(bindings.map((b) => resourceKey(b.resourceType, b.resourceName, b.patternType)));
  const r = new WireReader(bytes, 6);
  r.nullableString();
  for (let resources = r.uvarint() - 1; resources > 0; resources--) {
    const type = resourceTypeFromWire(r.int8());
    const name = r.string();
    const pattern = patternTypeFromWire(r.int8());
    const relevant = wantedResources.has(resourceKey(type, name, pattern));
    for (let acls = r.uvarint() - 1; acls > 0; acls--) {
      if (!relevant) {
        r.skipString();
        r.skipString();
        r.p += 2;
        r.skipTaggedFields();
        continue;
      }
      const principal = r.string();
      const host = r.string();
      const operation = operationFromWire(r.int8());
      const permissionType = permissionFromWire(r.int8());
      r.skipTaggedFields();
      const key = bindingKey({
        resourceType: type,
        resourceName: name,
        patternType: pattern,
        principal,
        host,
        operation,
        permissionType,
      });
      if (wanted.has(key)) held.add(key);
    }
    r.skipTaggedFields();
  }
  return held;
}

/**
 * After a write whose answer was lost: reads the ACLs back through any broker that answers
 * until every binding shows the write (present after a create, absent after a delete) or
 * ACL_READ_BACK_MS pass. Returns the keys some read showed written and whether any read
 * was answered.
 */
async function readBack(
  admin: Admin,
  bindings: readonly AclBinding[],
  present: boolean,
): Promise<{ shown: Set<string>; readable: boolean }> {
  const shown = new Set<string>();
  const wanted = new Set(bindings.map(bindingKey));
  let readable = false;
  const filter = filterToWire(coveringFilter(bindings));
  await settle(async () => {
    try {
      const held = heldKeys(await describeAclsBytes.async(await anyBrokerConnection(admin), filter), bindings);
      readable = true;
      for (const key of wanted) if (held.has(key) === present) shown.add(key);
    } catch {
      // Kafka does not answer (yet): read again until the deadline.
    }
    return shown.size === wanted.size;
  }, ACL_READ_BACK_MS);
  return { shown, readable };
}

/** The error of a write that failed without an answer from Kafka, or null when Kafka answered (a refusal). */
function lostAnswer(error: unknown, ctx: ErrorContext): KafkaErrorInfo | null {
  const converted = toKafkaOperationError(error, ctx);
  return isAnswerLost(converted.code) ? converted.toJSON() : null;
}

/**
 * Writes confirmed together (an ACL plan's batches). Each createAcls / deleteAcls given one
 * adds what Kafka answered it changed here instead of sending its own confirming
 * DescribeAcls and telling the listeners; confirm() then does both once for all of them.
 * Kafka answers every DescribeAcls by walking all its ACLs, whatever the filter, so one
 * confirmation per batch of 200 made an import O(n²) on the broker (about 0.9 s per batch
 * at 100,000 ACLs).
 */
export class AclWriteConfirmation {
  private created: AclBinding[] = [];
  private deleted: AclBinding[] = [];

  /** How many bindings wait for confirm(). */
  get pending(): number {
    return this.created.length + this.deleted.length;
  }

  add(change: { created: readonly AclBinding[]; deleted: readonly AclBinding[] }): void {
    this.created.push(...change.created);
    this.deleted.push(...change.deleted);
  }

  /**
   * Waits (as a lone write does) until DescribeAcls shows every created binding and none
   * of the deleted, then tells the listeners (the shared snapshot) of them, also when the
   * wait failed or timed out: Kafka had answered that it made these changes.
   */
  async confirm(cred: KafkaCredential): Promise<void> {
    const change = { created: distinct(this.created), deleted: distinct(this.deleted) };
    this.created = [];
    this.deleted = [];
    if (change.created.length + change.deleted.length === 0) return;
    try {
      await withAdmin(cred, "DescribeAcls", async (admin) => {
        await settle(() => bindingsVisible(admin, change.created, true));
        await settle(() => bindingsVisible(admin, change.deleted, false));
      });
    } catch {
      // As settle: a describe that cannot be made leaves nothing to wait for.
    } finally {
      notify(cred, change);
    }
  }
}

/** Options of createAcls / deleteAcls: a confirmation shared with other writes (see AclWriteConfirmation). */
export interface AclWriteOptions {
  confirmation?: AclWriteConfirmation;
  /** deleteAcls: filters per DeleteAcls request (default: deleteFiltersPerRequest, from the ACLs Kafka holds). */
  filtersPerRequest?: number;
}

/** Creates the bindings; each result says whether Kafka created it (creating an existing one succeeds). */
export async function createAcls(
  cred: KafkaCredential,
  bindings: AclBinding[],
  options: AclWriteOptions = {},
): Promise<CreateAclResult[]> {
  if (bindings.length === 0) return [];
  const ctx = { api: "CreateAcls", principal: principalOf(cred) };
  return withAdmin(cred, ctx.api, async (admin) => {
    const connection: Connection = await anyBrokerConnection(admin);
    let response: CreateAclsResponse;
    try {
      response = await reporting(cred, () =>
        sendOrPartial<CreateAclsResponse>(() => createAclsV3.api.async(connection, bindings.map(bindingToWire))),
      );
    } catch (error) {
      const lost = lostAnswer(error, ctx);
      if (lost === null) throw error;
      const { shown, readable } = await readBack(admin, bindings, true);
      // Told again now that reading back is over: a snapshot read meanwhile may predate the change.
      notify(cred, { unknown: true });
      return settleLostWrite("create", bindings, lost, shown, readable);
    }
    const results = bindings.map((binding, i) => {
      const result = response.results[i];
      if (!result)
        throw new Error(
          `Kafka answered CreateAcls with ${response.results.length} results for ${bindings.length} bindings.`,
        );
      return {
        binding,
        error: result.errorCode === 0 ? null : errorInfoFor(kafkaErrorName(result.errorCode), result.errorMessage, ctx),
      };
    });
    const created = distinct(results.filter((r) => r.error === null).map((r) => r.binding));
    if (options.confirmation) options.confirmation.add({ created, deleted: [] });
    else {
      const shown = await settle(() => bindingsVisible(admin, created, true));
      notify(cred, { created, deleted: [] });
      if (!shown) return results.map((r) => (r.error === null ? { ...r, propagating: true as const } : r));
    }
    return results;
  });
}

/** Deletes every binding each filter matches; each result lists what that filter deleted. */
export async function deleteAcls(
  cred: KafkaCredential,
  filters: AclBindingFilter[],
  options: AclWriteOptions = {},
): Promise<DeleteAclsResult[]> {
  if (filters.length === 0) return [];
  const ctx = { api: "DeleteAcls", principal: principalOf(cred) };
  return withAdmin(cred, ctx.api, async (admin) => {
    const connection = await anyBrokerConnection(admin);
    const results: DeleteAclsResult[] = [];
    let answerLost = false;
    // Requests the controller finishes quickly, one after the other (see acl-delete-batches.ts).
    for (const chunk of slices(
      filters,
      options.filtersPerRequest ?? deleteFiltersPerRequest(aclsHeldOn(clusterIdOf(cred))),
    )) {
      if (answerLost) {
        results.push(...chunk.map((filter) => ({ filter, deleted: [], error: notSent(ctx) })));
        continue;
      }
      let response: DeleteAclsResponse;
      try {
        response = await reporting(cred, () =>
          sendOrPartial<DeleteAclsResponse>(() => deleteAclsV3.api.async(connection, chunk.map(filterToWire))),
        );
      } catch (error) {
        // Settled by reading back when every filter names one binding; a broader filter's effect cannot be read back.
        const exact = chunk.map(exactBinding);
        const lost = lostAnswer(error, ctx);
        if (lost === null || exact.some((b) => b === null)) throw error;
        const bindings = exact as AclBinding[];
        const { shown, readable } = await readBack(admin, bindings, false);
        notify(cred, { unknown: true });
        for (const [i, r] of settleLostWrite("delete", bindings, lost, shown, readable).entries()) {
          results.push({
            filter: chunk[i]!,
            deleted: r.readBack === "applied" ? [r.binding] : [],
            error: r.error,
            readBack: r.readBack,
          });
        }
        answerLost = true;
        continue;
      }
      chunk.forEach((filter, i) => {
        const result = response.filterResults[i];
        if (!result)
          throw new Error(
            `Kafka answered DeleteAcls with ${response.filterResults.length} results for ${chunk.length} filters.`,
          );
        if (result.errorCode !== 0) {
          results.push({
            filter,
            deleted: [],
            error: errorInfoFor(kafkaErrorName(result.errorCode), result.errorMessage, ctx),
          });
          return;
        }
        const failed = result.matchingAcls.find((m) => m.errorCode !== 0);
        results.push({
          filter,
          deleted: result.matchingAcls.filter((m) => m.errorCode === 0).map(bindingFromWire),
          error: failed ? errorInfoFor(kafkaErrorName(failed.errorCode), failed.errorMessage, ctx) : null,
        });
      });
    }
    if (answerLost) return results;
    const deleted = distinct(results.flatMap((r) => r.deleted));
    if (options.confirmation) options.confirmation.add({ created: [], deleted });
    else {
      const gone = await settle(() => bindingsVisible(admin, deleted, false));
      notify(cred, { created: [], deleted });
      if (!gone) return results.map((r) => (r.deleted.length > 0 ? { ...r, propagating: true as const } : r));
    }
    return results;
  });
}

/** The filters after a request whose answer was lost are not sent. */
function notSent(ctx: ErrorContext): KafkaErrorInfo {
  return {
    code: "NOT_SENT",
    api: ctx.api,
    message: "Not sent: Kafka's answer to an earlier request of this change was lost.",
    kafkaMessage: null,
    missing: [],
  };
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
