/**
 * SCRAM credentials (KIP-554): create a user, add a mechanism or rotate a password; delete one mechanism or the user.
 */
import {
  scramChangeResultSchema,
  scramCredentialDeleteSchema,
  scramCredentialUpsertSchema,
} from "@/lib/schemas/scram-users";
import { defineChange } from "./definition";
import { EXAMPLE_SCRAM_USER } from "./examples";

export const scramUpsert = defineChange({
  id: "scram.upsert",
  summary: "Create a SCRAM user, add a mechanism or rotate a password",
  description:
    "Sets one mechanism's credential of a user (AlterUserScramCredentials as the caller: needs ALTER on " +
    "CLUSTER). The console salts and hashes " +
    "the password (PBKDF2, as Kafka's ScramFormatter) and sends Kafka only the salted password. Without " +
    "`password` it generates one and answers " +
    "it once (`generatedPassword`); the password is never stored, logged or audited. Answers the " +
    "kafka-configs.sh equivalent with the password masked.",
  input: scramCredentialUpsertSchema,
  output: scramChangeResultSchema,
  audit: {
    actions: ["scram.create", "scram.add", "scram.rotate", "scram.set"],
    target: "the user and mechanism (never the password)",
  },
  plan: "none",
  http: {
    method: "post",
    path: "/api/v1/scram-users",
    operationId: "upsertScramCredential",
    area: "SCRAM users",
    bodyExamples: {
      generated: {
        summary: "A new user with a generated password",
        value: { user: EXAMPLE_SCRAM_USER, mechanism: "SCRAM-SHA-512", iterations: 8192 },
      },
    },
    kafka: true,
  },
});

export const scramDelete = defineChange({
  id: "scram.delete",
  summary: "Delete one mechanism's credential, or the whole user",
  description:
    "Deletes the credential of one mechanism, or (without `mechanism`) every credential of the user, so the " +
    "user can no longer sign in with " +
    "SCRAM (AlterUserScramCredentials as the caller: needs ALTER on CLUSTER). Sessions of that user end at " +
    "their next credential check. 404 " +
    "when there is no such credential.",
  input: scramCredentialDeleteSchema,
  output: scramChangeResultSchema,
  audit: { actions: ["scram.delete"], target: "the user (and mechanism)" },
  plan: "none",
  http: {
    method: "delete",
    path: "/api/v1/scram-users",
    operationId: "deleteScramCredential",
    area: "SCRAM users",
    bodyExamples: { user: { summary: "Delete the example user", value: { user: EXAMPLE_SCRAM_USER } } },
    statuses: { 404: "The user has no such SCRAM credential" },
    kafka: true,
  },
});
