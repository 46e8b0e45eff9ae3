/**
 * The Access check question (page form, GET /api/v1/access-check): may principal P do
 * operation O on resource R from host H? Every field arrives as a query-string value.
 *
 * Fields are parsed as strings and checked with refinements rather than enums, so one
 * bad field never hides the errors of the others (a failed enum would stop the
 * cross-field checks: name required unless CLUSTER, operation valid for the type).
 */
import { z } from "zod";
import { aclBindingResponseSchema } from "./acl-binding";
import {
  CLUSTER_RESOURCE_NAME,
  OPERATIONS,
  RESOURCE_TYPES,
  SUPPORTED_OPERATIONS,
  canonicalIp,
  type AclOperation,
  type ResourceType,
} from "@/lib/policy";

/**
 * The host a check assumes when none is given, as every page words it: a client whose
 * address no ACL names, so only `*`-host ACLs count (the principal, resource and who-can
 * pages decide the same way). The answer lists the hosts the ACLs do name where it differs.
 */
export const UNNAMED_HOST_WORDS = "any host no ACL names";

/** Operations a client request can ask for (ALL exists only in ACLs). */
export const CHECKABLE_OPERATIONS = OPERATIONS.filter((op) => op !== "ALL");

const isResourceType = (v: string): v is ResourceType => (RESOURCE_TYPES as readonly string[]).includes(v);
const isOperation = (v: string): v is AclOperation => (OPERATIONS as readonly string[]).includes(v);

/** `Type:name`, split at the first colon, both parts non-empty (KafkaPrincipal). */
export function isPrincipal(v: string): boolean {
  const colon = v.indexOf(":");
  return colon > 0 && colon < v.length - 1;
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const IPV6 = /^[0-9a-fA-F:.]*:[0-9a-fA-F:.]*(%[\w.-]+)?$/;

/** An IP address as a client's source address could be printed (IPv4 or IPv6, optional zone). */
export function isIpAddress(v: string): boolean {
  if (IPV4.test(v)) return true;
  const groups = v.split(":").length;
  return IPV6.test(v) && groups >= 3 && groups <= 9;
}

const trimmed = (max: number) => z.string().trim().max(max, `At most ${max} characters`);
/** Required in the API description, but parsed as "" when absent so the checks below name it. */
const required = (max: number) => z.preprocess((v) => v ?? "", trimmed(max));

/** The query parameters as given (for the OpenAPI document); parse with accessCheckQuerySchema. */
export const accessCheckQueryFieldsSchema = z.object({
  principal: trimmed(1000).default("").meta({
    description: "The principal asking, Type:name (User:alice). Or give certificateDn or kerberosPrincipal instead",
  }),
  certificateDn: z
    .string()
    .max(4000, "At most 4000 characters")
    .default("")
    .meta({
      description:
        "Instead of principal: a client presenting a certificate with this subject DN (RFC 2253), mapped with " +
        "the configured ssl.principal.mapping.rules",
    }),
  kerberosPrincipal: trimmed(1000)
    .default("")
    .meta({
      description:
        "Instead of principal: a Kerberos client (alice@EXAMPLE.COM), mapped with the configured " +
        "sasl.kerberos.principal.to.local.rules",
    }),
  operation: required(40).meta({ description: "The operation the request needs", enum: [...CHECKABLE_OPERATIONS] }),
  resourceType: required(40).meta({ description: "The resource type", enum: [...RESOURCE_TYPES] }),
  resourceName: trimmed(1000)
    .default("")
    .meta({ description: `The resource name; for CLUSTER it is always ${CLUSTER_RESOURCE_NAME} (the default)` }),
  host: trimmed(100)
    .default("")
    .meta({
      description:
        `The client's IP address exactly as Kafka prints it. Omitted or empty: ${UNNAMED_HOST_WORDS} (only ` +
        `*-host ACLs count); ` +
        "the answer's hosts.assumed says so and hosts.differing lists the hosts the ACLs name where the answer differs",
    }),
  at: trimmed(40)
    .default("")
    .meta({
      description:
        "As of this instant (ISO 8601, e.g. 2026-11-03T14:00:00Z; a time without a zone is UTC): the decision from " +
        "the ACLs, super users and settings the history journal holds for then (docs/history.md), with `asOf` " +
        "saying whether the journal can vouch for it. Omitted or empty: now, from Kafka",
    }),
});

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
/** An ISO 8601 date or date-time as milliseconds; a time without a zone (and a bare date) is UTC. NaN when not one. */
export function parseInstant(text: string): number {
  if (!ISO_INSTANT.test(text)) return Number.NaN;
  const zoned = /T.*(Z|[+-]\d{2}:?\d{2})$/.test(text);
  return Date.parse(text.includes("T") ? (zoned ? text : `${text}Z`) : `${text}T00:00:00Z`);
}
/** How far ahead of the server's clock an "as of" may be (clocks differ a little). */
const AS_OF_SKEW_MS = 60_000;

/** What is wrong with an "as of" text (empty: now), or null: not an instant, or one still to come. */
export function asOfProblem(text: string): string | null {
  if (text === "") return null;
  const at = parseInstant(text);
  if (Number.isNaN(at)) return "Enter an instant as ISO 8601, e.g. 2026-11-03T14:00:00Z";
  if (at > Date.now() + AS_OF_SKEW_MS) return "That is still to come: the history knows only the past";
  return null;
}

/** The question, checked: every field error at once; CLUSTER's name and the host filled in. */
export const accessCheckQuerySchema = accessCheckQueryFieldsSchema
  .superRefine((v, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    const given = [v.principal, v.certificateDn.trim(), v.kerberosPrincipal].filter((s) => s !== "").length;
    if (given === 0) issue("principal", "Enter a principal, e.g. User:alice");
    else if (given > 1) issue("principal", "Give one of principal, certificateDn and kerberosPrincipal");
    else if (v.principal !== "" && !isPrincipal(v.principal))
      issue("principal", "Write the principal as Type:name, e.g. User:alice");

    const type = isResourceType(v.resourceType) ? v.resourceType : null;
    if (type === null) issue("resourceType", `Choose a resource type: ${RESOURCE_TYPES.join(", ")}`);

    if (v.operation === "") issue("operation", "Choose an operation");
    else if (v.operation === "ALL")
      issue(
        "operation",
        "ALL exists only in ACLs: a client request never asks for ALL. Choose the operation the request needs.",
      );
    else if (!isOperation(v.operation))
      issue("operation", `Unknown operation; one of ${CHECKABLE_OPERATIONS.join(", ")}`);
    else if (type !== null && !SUPPORTED_OPERATIONS[type].includes(v.operation)) {
      issue(
        "operation",
        `${v.operation} does not apply to ${type} resources; ${type} has ${SUPPORTED_OPERATIONS[type].join(", ")}`,
      );
    }

    if (type === "CLUSTER") {
      if (v.resourceName !== "" && v.resourceName !== CLUSTER_RESOURCE_NAME) {
        issue("resourceName", `The CLUSTER resource is always named ${CLUSTER_RESOURCE_NAME}`);
      }
    } else if (v.resourceName === "") {
      issue("resourceName", type === null ? "Enter the resource name" : `Enter the ${type} name`);
    }

    if (v.host === "*")
      issue("host", "A client connects from one address; * exists only in ACLs (where it matches any host)");
    else if (v.host !== "" && !isIpAddress(v.host))
      issue("host", "Enter an IP address, e.g. 127.0.0.1: Kafka matches hosts as exact IP strings, not names");

    const atProblem = asOfProblem(v.at);
    if (atProblem !== null) issue("at", atProblem);
  })
  .transform((v) => {
    const resourceType = v.resourceType as ResourceType;
    const client: AccessCheckClient | null =
      v.certificateDn.trim() !== ""
        ? { kind: "certificate", value: v.certificateDn }
        : v.kerberosPrincipal !== ""
          ? { kind: "kerberos", value: v.kerberosPrincipal }
          : null;
    return {
      principal: v.principal,
      /**
       * Set when the client is given by certificate DN or Kerberos principal: the service maps it to `principal` first.
       */
      client,
      operation: v.operation as AclOperation,
      resourceType,
      resourceName: resourceType === "CLUSTER" ? CLUSTER_RESOURCE_NAME : v.resourceName,
      // Kafka compares ACL hosts with the address as Java writes it (::1 -> 0:0:0:0:0:0:0:1).
      /** null: none given, a host no ACL names (UNNAMED_HOST_WORDS). */
      host: v.host === "" ? null : (canonicalIp(v.host) ?? v.host),
      /** null: now, from Kafka; else the instant (ms) the history journal answers for. */
      at: v.at === "" ? null : parseInstant(v.at),
    };
  });
export type AccessCheckInput = z.output<typeof accessCheckQuerySchema>;
export type AccessCheckClient = { kind: "certificate" | "kerberos"; value: string };

const aclBindingSchema = aclBindingResponseSchema;

const ruleSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("superUser") }),
  z.object({ kind: z.literal("acl"), acl: aclBindingSchema }),
  z.object({ kind: z.literal("noAclMatched") }),
  z.object({ kind: z.literal("default") }),
]);

/** How one applicable ACL relates to the request. */
export const ACL_MATCHES = ["decides", "matches", "otherPrincipal", "otherHost", "otherOperation", "skipped"] as const;

export const accessCheckResultSchema = z.object({
  request: z.object({
    principal: z.string(),
    operation: z.enum(OPERATIONS),
    resourceType: z.enum(RESOURCE_TYPES),
    resourceName: z.string(),
    host: z.string(),
  }),
  decision: z.enum(["ALLOWED", "DENIED"]),
  rule: ruleSchema,
  /** The deciding rule in plain words. */
  reason: z.string(),
  /** When the client was given by certificate DN or Kerberos principal: how it became request.principal. */
  mapping: z
    .object({
      kind: z.enum(["certificate", "kerberos"]),
      input: z.string(),
      principal: z.string(),
      rule: z.string().nullable().meta({ description: "The rule that produced the name, as Kafka prints it" }),
      rules: z.string().meta({ description: "The configured rules the mapping used" }),
      sentence: z.string(),
    })
    .optional(),
  /**
   * The ACLs that apply to the resource (Kafka's MATCH filter): the exact name, then prefixes (longest first), then
   * `*`.
   */
  acls: z.array(aclBindingSchema.extend({ match: z.enum(ACL_MATCHES), detail: z.string() })),
  /** The host the answer is for, and (for a host no ACL names) the named hosts where it differs. */
  hosts: z.object({
    assumed: z.enum(["given", "unnamed"]).meta({
      description:
        "given: the host asked about; unnamed: none given, so a host no ACL names (request.host is one such address)",
    }),
    /** "host: 10.0.0.7" or "host: any host no ACL names". */
    statement: z.string(),
    /**
     * For an unnamed host: each host an applicable ACL of the principal (or User:*) names where the answer is
     * different.
     */
    differing: z.array(
      z.object({
        host: z.string(),
        decision: z.enum(["ALLOWED", "DENIED"]),
        rule: ruleSchema,
        via: z.array(z.string()),
        reason: z.string(),
      }),
    ),
  }),
  /** What else follows from the answer (implications, hosts, how to change it). */
  notes: z.array(z.string()),
  /** The broker settings the answer assumes (from the console's environment). */
  assumptions: z.object({
    superUsers: z.array(z.string()),
    allowEveryoneIfNoAclFound: z.boolean(),
    source: z.string(),
    warnings: z.array(z.string()),
  }),
  /** Only for a question with `at`: the instant, and what the history journal can vouch for then. */
  asOf: z
    .object({
      at: z.string().meta({ description: "The instant answered for (ISO 8601, UTC)" }),
      vouch: z.enum(["covered", "gap", "after-last-read"]).meta({
        description:
          "covered: the console read the cluster around then; gap: it could not read it then (the answer is the " +
          "state before the gap); after-last-read: later than its last read (a change since is not known yet)",
      }),
      statement: z.string().meta({ description: "What the answer rests on, in words" }),
      uncertain: z.array(aclBindingSchema).meta({
        description:
          "ACLs on this resource that changed outside the console in a window containing the instant: whether they " +
          "held then is not known, and the answer counts them as they were before the window",
      }),
    })
    .optional(),
});
export type AccessCheckResult = z.infer<typeof accessCheckResultSchema>;
export type AccessCheckAcl = AccessCheckResult["acls"][number];
export type AccessCheckAssumptions = AccessCheckResult["assumptions"];
