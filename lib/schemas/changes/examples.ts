/**
 * Example values the API reference shows and the e2e test sends: each names something
 * nobody uses on the dev broker, so sending them in order (create, then delete) is harmless.
 */

import type { PathParam } from "@/lib/schemas/api";

/** A binding nobody uses: the e2e test creates it with the `create` example and deletes it with the `delete` one. */
export const EXAMPLE_BINDING = {
  resourceType: "TOPIC",
  resourceName: "ksc-api-example",
  patternType: "LITERAL",
  principal: "User:ksc-api-example",
  host: "*",
  operation: "READ",
  permissionType: "ALLOW",
} as const;

/** The example binding as an exported YAML file: importing it add-only plans to create it (nothing else). */
export const EXAMPLE_IMPORT_YAML = [
  "principals:",
  `  - principal: "${EXAMPLE_BINDING.principal}"`,
  "    acls:",
  `      - resourceType: ${EXAMPLE_BINDING.resourceType}`,
  `        resourceName: "${EXAMPLE_BINDING.resourceName}"`,
  `        patternType: ${EXAMPLE_BINDING.patternType}`,
  `        operation: ${EXAMPLE_BINDING.operation}`,
  `        permissionType: ${EXAMPLE_BINDING.permissionType}`,
  `        host: "${EXAMPLE_BINDING.host}"`,
  "",
].join("\n");

/** A user nobody signs in as: the `set` example gives it a quota, the `remove` example takes it away. */
export const EXAMPLE_QUOTA_ENTITY = { user: "ksc-api-example" };

/** A SCRAM user nobody uses: the e2e test creates it with the `generated` example and deletes it with `user`. */
export const EXAMPLE_SCRAM_USER = "ksc-api-example";

/** Well-formed, but the HMAC of no token: Kafka answers that it knows no such token. */
export const UNKNOWN_HMAC = "a3NjLWFwaS1leGFtcGxlLW5vdC1hLXJlYWwtaG1hYw==";

/** A well-formed id that names nothing (the route answers 404). */
export const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";

/** The `{id}` of a path that names one record by its uuid (the example names nothing: 404). */
export function uuidPathParam(description: string): Record<string, PathParam> {
  return { id: { description, schema: { type: "string", format: "uuid" }, example: UNKNOWN_ID } };
}
