/**
 * The broker settings an access decision depends on but that the console usually
 * cannot read from Kafka (`super.users` and `allow.everyone.if.no.acl.found` are static
 * broker config): taken from the settings lib/env.ts reads (or a cluster's entry in the
 * CLUSTERS_FILE, lib/clusters.ts) and shown beside every answer as an assumption.
 *
 *   KAFKA_SUPER_USERS                      `;`-separated principals, as in server.properties.
 *                                          Default: `User:admin` for the local dev broker
 *                                          (KAFKA_BOOTSTRAP_SERVERS unset), else none.
 *   KAFKA_ALLOW_EVERYONE_IF_NO_ACL_FOUND   true | false (default false, Kafka's default).
 *
 * Pure (the environment in, data out) and free of Next, so the launcher can check the
 * settings before anything starts (lib/settings-check.ts).
 */
import type { AuthorizerConfig } from "@/lib/policy";
import type { AccessCheckAssumptions } from "@/lib/schemas/access-check";
import type { Settings as Env } from "@/lib/env";

/** The dev broker's `super.users` (scripts/kafka.sh). */
export const DEV_BROKER_SUPER_USERS = ["User:admin"];

const present = (v: string | undefined): v is string => v !== undefined && v.trim() !== "";

/**
 * Read like Kafka reads them: super.users split at `;`, entries trimmed, empty ones
 * skipped (StandardAuthorizer.getConfiguredSuperUsers); the flag like
 * Boolean.parseBoolean of the trimmed value. Entries Kafka would refuse to start with
 * are left out and reported, not thrown: the page still answers.
 */
export function readAuthorizerConfig(env: Env): AccessCheckAssumptions {
  const warnings: string[] = [];
  let superUsers: string[];
  let source: string;
  if (present(env.KAFKA_SUPER_USERS)) {
    superUsers = [];
    for (const entry of env.KAFKA_SUPER_USERS.split(";")
      .map((s) => s.trim())
      .filter((s) => s.length > 0)) {
      if (entry.includes(":")) superUsers.push(entry);
      else warnings.push(`KAFKA_SUPER_USERS entry "${entry}" is not Type:name (e.g. User:${entry}); it is ignored.`);
    }
    source = "KAFKA_SUPER_USERS";
  } else if (!present(env.KAFKA_BOOTSTRAP_SERVERS)) {
    superUsers = [...DEV_BROKER_SUPER_USERS];
    source = "the local dev broker's super.users (KAFKA_SUPER_USERS unset)";
  } else {
    superUsers = [];
    source = "KAFKA_SUPER_USERS unset: no super users assumed";
  }

  const flag = env.KAFKA_ALLOW_EVERYONE_IF_NO_ACL_FOUND?.trim() ?? "";
  const allowEveryoneIfNoAclFound = flag.toLowerCase() === "true";
  if (flag !== "" && flag.toLowerCase() !== "false" && !allowEveryoneIfNoAclFound) {
    warnings.push(`KAFKA_ALLOW_EVERYONE_IF_NO_ACL_FOUND="${flag}" is not true or false; Kafka reads it as false.`);
  }
  return { superUsers, allowEveryoneIfNoAclFound, source, warnings };
}

/**
 * What stops the console from starting: super users a broker could not start with.
 * StandardAuthorizer.getConfiguredSuperUsers parses each entry as a KafkaPrincipal, which
 * needs a colon, so such a `super.users` stops the broker, and a console assuming it
 * describes no cluster that can exist. (The flag is not refused: Kafka reads anything
 * but "true" as false, and so does the console, with a warning beside every answer.)
 */
export function authorizerConfigProblems(env: Env): string[] {
  if (!present(env.KAFKA_SUPER_USERS)) return [];
  return env.KAFKA_SUPER_USERS.split(";")
    .map((s) => s.trim())
    .filter((entry) => entry.length > 0 && !entry.includes(":"))
    .map(
      (entry) =>
        `KAFKA_SUPER_USERS: "${entry}" is not a principal Type:name (e.g. User:${entry}); Kafka would refuse ` +
        `to start with it`,
    );
}

/** The assumptions as the policy core's AuthorizerConfig. */
export function toAuthorizerConfig(assumptions: AccessCheckAssumptions): AuthorizerConfig {
  return {
    superUsers: new Set(assumptions.superUsers),
    allowEveryoneIfNoAclFound: assumptions.allowEveryoneIfNoAclFound,
  };
}
