/**
 * A change, declared once. Every way the console changes Kafka or its own state (ACLs,
 * quotas, tokens, token requests, SCRAM credentials, plans, sessions) is one
 * `ChangeDefinition`: its id, the zod schema of its input, the schema of its answer,
 * what the audit trail records, whether it goes through a sealed plan, the function that
 * runs it, and how the HTTP API names it. From that one value come
 *
 *   - the /api/v1 route handler      lib/api/change-route.ts   `export const POST = changeRoute("token.create")`
 *   - its OpenAPI entry              lib/api/operations.ts     `changeOperation("token.create")`
 *   - the server action's core       lib/actions/form.ts       `runChange("token.create", …)` from a form's fields
 *
 * so the three cannot disagree on what is accepted, what runs, and what is answered.
 *
 * A definition has two halves, by Next's rules (a "use server" module exports only async
 * functions, and client forms import the schemas): this half, pure data and zod schemas
 * any layer may import (lib/schemas/changes), and the function that runs it, keyed by the
 * same id in lib/services/changes.ts, whose type requires one for every id.
 */
import { z } from "zod";
import type {
  ApiArea,
  ApiLink,
  AuditActionName,
  HttpMethod,
  NamedExample,
  PathParam,
  RouteStatus,
} from "@/lib/schemas/api";

/**
 * How a change relates to sealed plans (lib/services/plans.ts):
 *   sealed    it makes a plan and applies it in one call (the API's one-call form): the
 *             answer and the audit rows name the plan id, and a basis that changed between
 *             the two steps is a 409 that changes nothing. With `dryRun` it only makes the plan.
 *   previews  it makes a plan and applies nothing (POST /api/v1/plans).
 *   applies   it applies a plan by its id (POST /api/v1/plans/{id}/apply).
 *   none      not an ACL or quota change: no plan (tokens, requests, SCRAM, sessions).
 */
export type PlanUse = "sealed" | "previews" | "applies" | "none";

export interface ChangeDefinition<In extends z.ZodType = z.ZodType, Out extends z.ZodType = z.ZodType> {
  /** Stable id, e.g. "acl.create"; routes, actions and tests name the change by it. */
  id: string;
  summary: string;
  description: string;
  /** The JSON input (the API's body); forms parse their fields into the same shape. */
  input: In;
  /** The answer on success. */
  output: Out;
  /** The audit trail's record of it: the actions its rows carry and what their target is. */
  audit: { actions: readonly AuditActionName[]; target: string };
  plan: PlanUse;
  /** Served without a session (only the sign-in): its `run` is given no viewer and must not read one. */
  public?: boolean;
  http: {
    method: Exclude<HttpMethod, "get">;
    /** The OpenAPI path template (`{id}` for app/api's `[id]` folders). */
    path: string;
    operationId: string;
    area: ApiArea;
    pathParams?: Record<string, PathParam>;
    query?: z.ZodType;
    queryExamples?: Record<string, NamedExample<Record<string, string | number>>>;
    /** Named bodies, each valid and harmless on the dev broker, sent in this order by the e2e test. */
    bodyExamples?: Record<string, NamedExample<unknown>>;
    statuses?: Partial<Record<RouteStatus, string>>;
    links?: Record<string, ApiLink>;
    /** Calls Kafka as the caller: Kafka may refuse (403) or fail (502). */
    kafka?: boolean;
  };
}

/** Declares a change (the identity function, for type inference). */
export function defineChange<In extends z.ZodType, Out extends z.ZodType>(
  definition: ChangeDefinition<In, Out>,
): ChangeDefinition<In, Out> {
  return definition;
}

/** The input of a change that takes nothing but its path (approve, retrieve, apply, sign-out): no request body. */
export const NO_INPUT = z.undefined();
