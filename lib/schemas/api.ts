/**
 * The vocabulary of the /api/v1 description, shared by the change definitions
 * (lib/services/changes) and the operation table (lib/api/operations.ts): areas (OpenAPI
 * tags), examples, path parameters, links. Pure data types, so any layer may name them.
 */
import type { AuditActionName } from "./audit";

export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";
export type JsonSchema = Record<string, unknown>;

/** The areas of the console, in the order the reference shows them (OpenAPI tags). */
export const API_AREAS = [
  {
    name: "Session",
    description: "Sign in with Kafka credentials and sign out. Everything else acts as the signed-in Kafka principal.",
  },
  { name: "Cluster", description: "The cluster the console is connected to, as the caller sees it." },
  { name: "Resources", description: "One Kafka resource: the ACLs that apply to it and who may do what." },
  {
    name: "ACLs",
    description:
      "Browse, preview, create and delete ACL bindings (Kafka's StandardAuthorizer decides what the caller may do).",
  },
  {
    name: "Access check",
    description: "Explain whether a principal may do an operation on a resource, and which rule decides.",
  },
  {
    name: "Identities",
    description:
      "Who a client is to Kafka: certificate DNs and Kerberos principals through the brokers' principal mapping rules.",
  },
  {
    name: "SCRAM users",
    description:
      "SCRAM credentials (KIP-554): list, create, rotate and delete, as the caller (Kafka decides: DESCRIBE / " +
      "ALTER on CLUSTER).",
  },
  {
    name: "Quotas",
    description:
      "Client quotas: what is configured, which quota Kafka applies, and changes checked against the KIP-55 budget.",
  },
  { name: "Tokens", description: "Delegation tokens (KIP-48, KIP-373): create, list, renew and expire." },
  {
    name: "Token requests",
    description: "Self-service token requests: ask, approve or deny, and the requester's one-time retrieval.",
  },
  {
    name: "Plans",
    description:
      "Sealed change plans (ACLs, ACL imports, quotas): preview a change, keep it, apply exactly what was previewed.",
  },
  {
    name: "Requests",
    description:
      "Requests for changes: file a change instead of applying it, review its plan, approve (applied as the " +
      "approver), deny, cancel; grants whose ACLs are removed by themselves at their expiry.",
  },
  { name: "Audit", description: "Every change made through the console, who made it and what Kafka answered." },
  { name: "API", description: "This description of the API." },
] as const;
export type ApiArea = (typeof API_AREAS)[number]["name"];

/** Statuses an operation may answer with besides the ones every operation shares (see openapi.ts). */
export type RouteStatus = 403 | 404 | 409 | 422;

export interface NamedExample<T> {
  summary: string;
  value: T;
}

export interface PathParam {
  description: string;
  schema: JsonSchema;
  /** A well-formed value that names nothing (the route answers 404). */
  example: string;
}

/**
 * An OpenAPI link: how an answer of this operation feeds another one. Strings of the form
 * `{$response.body#/json/pointer}` are replaced by that part of the answer.
 */
export interface ApiLink {
  operationId: string;
  description: string;
  parameters?: Record<string, string>;
  requestBody?: unknown;
}

export type { AuditActionName };
