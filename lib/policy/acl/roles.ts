/**
 * Client roles: which ACLs a producer, a consumer, a transactional producer or a Kafka
 * Streams application needs, built from the API -> operation -> resource table of the
 * Kafka documentation, checked against what KafkaApis actually authorizes in 4.x:
 *
 * - PRODUCE (0): WRITE on the topic; transactional records also WRITE on the
 *   TRANSACTIONAL_ID. Idempotent produce itself checks nothing more.
 * - METADATA (3): DESCRIBE on the topic; auto-creation: CREATE on the topic (or cluster).
 * - INIT_PRODUCER_ID (22): with a transactional.id, WRITE on it; without one (idempotence),
 *   IDEMPOTENT_WRITE on the CLUSTER *or* WRITE on any topic (KafkaApis uses
 *   authorizeByResourceType) — so a producer that may write a topic needs nothing more.
 * - FIND_COORDINATOR (10): DESCRIBE on the group / transactional id.
 * - FETCH (1): READ on the topic; OFFSET_COMMIT (8) / JOIN_GROUP (11) / SYNC_GROUP (14) /
 *   HEARTBEAT (12) / CONSUMER_GROUP_HEARTBEAT (68): READ on the group (and the topic).
 * - ADD_OFFSETS_TO_TXN (25) / TXN_OFFSET_COMMIT (28): READ on the group of a
 *   consume-transform-produce loop.
 * - Kafka Streams: input topics READ, output topics WRITE, internal topics
 *   (`<application.id>-…-changelog|repartition`, created by the application) CREATE,
 *   READ, WRITE, DELETE (purging repartition records), DESCRIBE, DESCRIBE_CONFIGS; the
 *   group named `<application.id>`; with exactly-once, transactional ids
 *   `<application.id>-…`.
 *
 * The templates are what kafka-acls.sh --producer / --consumer (+ --idempotent,
 * --transactional-id) would create, extended the same way for Streams. missingForRole
 * checks each requirement with the authorizer and proposes ALLOW ACLs for the ones not
 * yet allowed — skipping those an ALLOW already proposed implies (DESCRIBE after READ),
 * and flagging those a DENY blocks (an ALLOW would not help).
 */
import {
  CLUSTER_RESOURCE_NAME,
  WILDCARD_HOST,
  type AclBinding,
  type AclOperation,
  type PatternType,
  type ResourceType,
} from "../types";
import { AclIndex } from "./acl-index";
import { authorizeByResourceType } from "./authorize";
import { authorizePattern } from "./effective";
import type { AuthorizerConfig, MatchingRule } from "./model";
import { allowedOperationsMask, operationBit } from "./operations";

/** A topic, group or transactional id: a LITERAL name, or every name with a PREFIX. */
export interface ResourceSelector {
  name: string;
  patternType?: PatternType;
}

interface RoleBase {
  principal: string;
  /** Client host; `*` when omitted. */
  host?: string;
}

export type ClientRole =
  | (RoleBase & { kind: "producer"; topics: ResourceSelector[]; idempotent?: boolean; createTopics?: boolean })
  | (RoleBase & {
      kind: "transactional";
      topics: ResourceSelector[];
      transactionalId: ResourceSelector;
      /** The consumer group of a consume-transform-produce loop (sendOffsetsToTransaction). */
      group?: ResourceSelector;
      createTopics?: boolean;
    })
  | (RoleBase & { kind: "consumer"; topics: ResourceSelector[]; group: ResourceSelector })
  | (RoleBase & {
      kind: "streams";
      applicationId: string;
      inputTopics: ResourceSelector[];
      outputTopics: ResourceSelector[];
      exactlyOnce?: boolean;
    });

export interface RolePermission {
  resourceType: ResourceType;
  resourceName: string;
  patternType: PatternType;
  operation: AclOperation;
  /** The API(s) that need it, e.g. "PRODUCE (0)". */
  apis: string[];
  /**
   * Whether the template creates it. kafka-acls.sh leaves out what another ACL it
   * creates implies (--consumer gives the group READ, not DESCRIBE); the requirement is
   * still listed so a missing DESCRIBE is explained.
   */
  inTemplate: boolean;
}

export type RequirementStatus =
  /** The authorizer already allows it. */
  | "allowed"
  /** Not allowed yet; an ALLOW ACL in `missing` provides it. */
  | "missing"
  /** Provided by another ACL proposed in `missing` (implication: READ gives DESCRIBE). */
  | "implied"
  /** A DENY ACL blocks it: adding an ALLOW will not help. */
  | "blocked";

export interface RoleRequirement extends Omit<RolePermission, "inTemplate"> {
  status: RequirementStatus;
  /** The authorizer's rule for the current ACLs. */
  rule: MatchingRule;
  /** For prefixed/wildcard requirements: DENYs that take it away from some names. */
  exceptions: AclBinding[];
  note?: string;
}

const TOPIC_PRODUCE: Array<[AclOperation, string[]]> = [
  ["WRITE", ["PRODUCE (0)"]],
  ["DESCRIBE", ["METADATA (3)"]],
];
const TOPIC_CREATE: [AclOperation, string[]] = ["CREATE", ["METADATA (3) auto-create", "CREATE_TOPICS (19)"]];

function sel(s: ResourceSelector): { resourceName: string; patternType: PatternType } {
  return { resourceName: s.name, patternType: s.patternType ?? "LITERAL" };
}

/** The permissions a role needs, in the order they are checked (primary operations before implied ones). */
export function rolePermissions(role: ClientRole): RolePermission[] {
  const out: RolePermission[] = [];
  const add = (
    resourceType: ResourceType,
    s: { resourceName: string; patternType: PatternType },
    operation: AclOperation,
    apis: string[],
    inTemplate = true,
  ) => out.push({ resourceType, ...s, operation, apis, inTemplate });
  switch (role.kind) {
    case "producer":
    case "transactional": {
      for (const t of role.topics) {
        for (const [op, apis] of TOPIC_PRODUCE) add("TOPIC", sel(t), op, apis);
        if (role.createTopics !== false) add("TOPIC", sel(t), TOPIC_CREATE[0], TOPIC_CREATE[1]);
      }
      if (role.kind === "transactional") {
        const txn = sel(role.transactionalId);
        add("TRANSACTIONAL_ID", txn, "WRITE", [
          "INIT_PRODUCER_ID (22)",
          "ADD_PARTITIONS_TO_TXN (24)",
          "END_TXN (26)",
          "PRODUCE (0)",
        ]);
        add("TRANSACTIONAL_ID", txn, "DESCRIBE", ["FIND_COORDINATOR (10)"]);
        if (role.group !== undefined)
          add("GROUP", sel(role.group), "READ", ["ADD_OFFSETS_TO_TXN (25)", "TXN_OFFSET_COMMIT (28)"]);
      } else if (role.idempotent === true) {
        add("CLUSTER", { resourceName: CLUSTER_RESOURCE_NAME, patternType: "LITERAL" }, "IDEMPOTENT_WRITE", [
          "INIT_PRODUCER_ID (22)",
        ]);
      }
      break;
    }
    case "consumer": {
      for (const t of role.topics) {
        add("TOPIC", sel(t), "READ", ["FETCH (1)", "OFFSET_COMMIT (8)"]);
        add("TOPIC", sel(t), "DESCRIBE", ["METADATA (3)", "LIST_OFFSETS (2)", "OFFSET_FETCH (9)"]);
      }
      add("GROUP", sel(role.group), "READ", [
        "JOIN_GROUP (11)",
        "SYNC_GROUP (14)",
        "HEARTBEAT (12)",
        "OFFSET_COMMIT (8)",
        "CONSUMER_GROUP_HEARTBEAT (68)",
      ]);
      add("GROUP", sel(role.group), "DESCRIBE", ["FIND_COORDINATOR (10)", "OFFSET_FETCH (9)"], false);
      break;
    }
    case "streams": {
      for (const t of role.inputTopics) {
        add("TOPIC", sel(t), "READ", ["FETCH (1)"]);
        add("TOPIC", sel(t), "DESCRIBE", ["METADATA (3)", "STREAMS_GROUP_HEARTBEAT (88)"]);
      }
      for (const t of role.outputTopics) {
        add("TOPIC", sel(t), "WRITE", ["PRODUCE (0)"]);
        add("TOPIC", sel(t), "DESCRIBE", ["METADATA (3)"]);
      }
      const internal = { resourceName: `${role.applicationId}-`, patternType: "PREFIXED" as const };
      add("TOPIC", internal, "CREATE", ["CREATE_TOPICS (19)", "STREAMS_GROUP_HEARTBEAT (88)"]);
      add("TOPIC", internal, "READ", ["FETCH (1)"]);
      add("TOPIC", internal, "WRITE", ["PRODUCE (0)"]);
      add("TOPIC", internal, "DELETE", ["DELETE_RECORDS (21)"]);
      add("TOPIC", internal, "DESCRIBE_CONFIGS", ["DESCRIBE_CONFIGS (32)"]);
      add("TOPIC", internal, "DESCRIBE", ["METADATA (3)"], false);
      const group = { resourceName: role.applicationId, patternType: "LITERAL" as const };
      add("GROUP", group, "READ", ["JOIN_GROUP (11)", "OFFSET_COMMIT (8)", "STREAMS_GROUP_HEARTBEAT (88)"]);
      add("GROUP", group, "DESCRIBE", ["FIND_COORDINATOR (10)"], false);
      if (role.exactlyOnce === true) {
        const txn = { resourceName: `${role.applicationId}-`, patternType: "PREFIXED" as const };
        add("TRANSACTIONAL_ID", txn, "WRITE", [
          "INIT_PRODUCER_ID (22)",
          "ADD_PARTITIONS_TO_TXN (24)",
          "END_TXN (26)",
          "TXN_OFFSET_COMMIT (28)",
        ]);
        add("TRANSACTIONAL_ID", txn, "DESCRIBE", ["FIND_COORDINATOR (10)"]);
      }
      break;
    }
  }
  return out;
}

function toBinding(role: ClientRole, p: RolePermission): AclBinding {
  return {
    resourceType: p.resourceType,
    resourceName: p.resourceName,
    patternType: p.patternType,
    principal: role.principal,
    host: role.host ?? WILDCARD_HOST,
    operation: p.operation,
    permissionType: "ALLOW",
  };
}

function templateOf(role: ClientRole): AclBinding[] {
  return rolePermissions(role)
    .filter((p) => p.inTemplate)
    .map((p) => toBinding(role, p));
}

/**
 * kafka-acls.sh --producer [--idempotent]: WRITE, DESCRIBE, CREATE on the topics (+ IDEMPOTENT_WRITE on the cluster).
 */
export function producerTemplate(
  principal: string,
  topics: ResourceSelector[],
  options: { host?: string; idempotent?: boolean; createTopics?: boolean } = {},
): AclBinding[] {
  return templateOf({ kind: "producer", principal, topics, ...options });
}

/**
 * kafka-acls.sh --producer --transactional-id: the producer ACLs plus WRITE, DESCRIBE on the transactional id (+ READ
 * on the group).
 */
export function transactionalTemplate(
  principal: string,
  topics: ResourceSelector[],
  transactionalId: ResourceSelector,
  options: { host?: string; group?: ResourceSelector; createTopics?: boolean } = {},
): AclBinding[] {
  return templateOf({ kind: "transactional", principal, topics, transactionalId, ...options });
}

/**
 * kafka-acls.sh --consumer: READ, DESCRIBE on the topics; READ on the group (which implies the DESCRIBE it also needs).
 */
export function consumerTemplate(
  principal: string,
  topics: ResourceSelector[],
  group: ResourceSelector,
  options: { host?: string } = {},
): AclBinding[] {
  return templateOf({ kind: "consumer", principal, topics, group, ...options });
}

/** A Kafka Streams application: input, output, internal topics, its group (and transactional ids with exactly-once). */
export function streamsTemplate(
  principal: string,
  applicationId: string,
  inputTopics: ResourceSelector[],
  outputTopics: ResourceSelector[],
  options: { host?: string; exactlyOnce?: boolean } = {},
): AclBinding[] {
  return templateOf({ kind: "streams", principal, applicationId, inputTopics, outputTopics, ...options });
}

function covers(added: AclBinding, p: RolePermission): boolean {
  if (added.resourceType !== p.resourceType) return false;
  if ((allowedOperationsMask(added.operation) & operationBit(p.operation)) === 0) return false;
  if (added.patternType === "LITERAL") return p.patternType === "LITERAL" && added.resourceName === p.resourceName;
  return p.resourceName.startsWith(added.resourceName);
}

/**
 * What a role still needs: every requirement with its status, and the ALLOW ACLs to
 * create (deduplicated, implied ones left out).
 */
export function missingForRole(
  source: AclIndex | readonly AclBinding[],
  role: ClientRole,
  config?: AuthorizerConfig,
): { required: RoleRequirement[]; missing: AclBinding[] } {
  const index = source instanceof AclIndex ? source : AclIndex.build(source);
  const host = role.host ?? WILDCARD_HOST;
  const missing: AclBinding[] = [];
  const required: RoleRequirement[] = [];
  for (const p of rolePermissions(role)) {
    const r = authorizePattern(
      index,
      {
        principal: role.principal,
        host,
        operation: p.operation,
        resourceType: p.resourceType,
        resourceName: p.resourceName,
        patternType: p.patternType,
      },
      config,
    );
    let status: RequirementStatus;
    let note: string | undefined;
    if (r.decision === "ALLOWED") {
      status = "allowed";
      if (r.exceptions.length > 0) note = "allowed, except where the listed DENY ACLs apply";
    } else if (p.operation === "IDEMPOTENT_WRITE") {
      // KafkaApis.handleInitProducerIdRequest: IDEMPOTENT_WRITE on the cluster OR WRITE on any topic.
      const topicWrite = required.some(
        (q) => q.resourceType === "TOPIC" && q.operation === "WRITE" && q.status !== "blocked",
      );
      const anyTopic =
        authorizeByResourceType(
          index,
          { principal: role.principal, host, operation: "WRITE", resourceType: "TOPIC" },
          config,
        ).decision === "ALLOWED";
      status = topicWrite || anyTopic ? "implied" : r.rule.kind === "acl" ? "blocked" : "missing";
      note = "INIT_PRODUCER_ID accepts WRITE on any topic instead of IDEMPOTENT_WRITE on the cluster";
    } else if (r.rule.kind === "acl") {
      status = "blocked";
      note = "a DENY ACL blocks it; an ALLOW would not help";
    } else if (missing.some((m) => covers(m, p))) {
      status = "implied";
    } else {
      status = "missing";
    }
    if (status === "missing") missing.push(toBinding(role, p));
    const { inTemplate: _inTemplate, ...permission } = p;
    required.push({
      ...permission,
      status,
      rule: r.rule,
      exceptions: r.exceptions,
      ...(note === undefined ? {} : { note }),
    });
  }
  return { required, missing };
}
