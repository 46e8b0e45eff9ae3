/**
 * Shared setup for the adapter's integration tests against the dev broker
 * (`npm run kafka:start`). Every test works on names with a per-run suffix so runs can
 * repeat and other suites can share the broker; users are real SCRAM users.
 */
import { randomBytes } from "node:crypto";
import { deleteAcls } from "@/lib/kafka/acls";
import { deleteScramCredential, upsertScramCredential } from "@/lib/kafka/scram";
import type { KafkaCredential, KafkaMechanism } from "@/lib/kafka/types";

export const ADMIN: KafkaCredential = { username: "admin", password: "admin-secret", mechanism: "SCRAM-SHA-512" };

export function runId(): string {
  return randomBytes(4).toString("hex");
}

/** Creates a SCRAM-SHA-512 user with no ACLs; returns its credential. */
/** A password credential (not OAUTHBEARER): what the sign-in form takes. */
export type PasswordCredential = KafkaCredential & { mechanism: KafkaMechanism };

export async function createScramUser(username: string): Promise<PasswordCredential> {
  const password = `${username}-pw-${runId()}`;
  await upsertScramCredential(ADMIN, username, "SCRAM-SHA-512", password);
  return { username, password, mechanism: "SCRAM-SHA-512" };
}

/** Removes the user's SCRAM credential and every ACL naming it as principal. */
export async function dropScramUser(username: string): Promise<void> {
  await deleteAcls(ADMIN, [
    {
      resourceType: "ANY",
      resourceName: null,
      patternType: "ANY",
      principal: `User:${username}`,
      host: null,
      operation: "ANY",
      permissionType: "ANY",
    },
  ]);
  await deleteScramCredential(ADMIN, username, "SCRAM-SHA-512").catch(() => undefined);
}
