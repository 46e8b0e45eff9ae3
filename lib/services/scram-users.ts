/**
 * SCRAM users: list (DescribeUserScramCredentials), create a user or add a mechanism,
 * rotate a password, delete a credential or a whole user (AlterUserScramCredentials),
 * always as the signed-in principal, so Kafka decides (DESCRIBE / ALTER on CLUSTER).
 *
 * Every change goes through auditedMutation (category "scram": seen by cluster admins,
 * the actor and the user whose credential it is). The password never leaves this module
 * except towards lib/kafka/scram.ts, which salts and hashes it (PBKDF2, as Kafka's
 * ScramFormatter) before anything is sent: the audit request carries the user, mechanism,
 * iterations and whether the password was typed or generated, never the password. A
 * generated password is answered once, to the caller, and kept nowhere.
 *
 * A change reads the user's credentials, alters them and reads them again while holding a
 * lock on (cluster, user) that every console instance sharing the database honours
 * (lib/db/locks.ts): two people creating the same user at once get one "created" and,
 * for the other, "rotated" — or, when they asked for a new credential only
 * (ifExists: "refuse", the page's Create form), a refusal that changes nothing. Without
 * the lock both read "no credential", both answered "created", and the second password
 * silently replaced the first.
 */
import "server-only";
import { randomBytes } from "node:crypto";
import type { Viewer } from "@/lib/auth/sign-in";
import type { ActionResult } from "@/lib/schemas/result";
import { toErrorResult } from "@/lib/kafka/error-result";
import { describeScramUsers, isKafkaOperationError, kafkaConfigOf } from "@/lib/kafka";
import type {
  ScramChangeResult,
  ScramCredentialDelete,
  ScramCredentialUpsert,
  ScramUserList,
} from "@/lib/schemas/scram-users";
import { DEFAULT_LOCK_WAIT_MS, LockBusyError, LockUnavailableError, withConsoleLocks } from "@/lib/db/locks";
import { auditedMutation, type KafkaWriter } from "./audited-mutation";
import { COMMAND_CONFIG_PLACEHOLDER, shellQuote } from "./cli-equivalent";
import { clusterIdFor } from "./kafka-cluster-id";

export const PASSWORD_PLACEHOLDER = "<password>";

type Credentials = ScramUserList["users"][number]["credentials"];

const SCRAM_ACTION: Record<ScramChangeResult["change"], string> = {
  created: "scram.create",
  rotated: "scram.rotate",
  added: "scram.add",
  set: "scram.set",
  deleted: "scram.delete",
};

/** A password of 24 random bytes (32 URL-safe characters). */
export function generatePassword(): string {
  return randomBytes(24).toString("base64url");
}

/** The bootstrap servers of the viewer's cluster, as the CLI equivalent names them. */
function bootstrapOf(viewer: Viewer): string {
  return kafkaConfigOf(viewer.credential).bootstrapServers.join(",");
}

/** kafka-configs.sh for the change, the password replaced by a placeholder. */
export function scramCommand(
  user: string,
  change: { add: { mechanism: string; iterations: number } } | { delete: string[] },
  servers: string,
): string {
  const args = [
    "kafka-configs.sh",
    "--bootstrap-server",
    shellQuote(servers),
    "--command-config",
    COMMAND_CONFIG_PLACEHOLDER,
    "--alter",
    "--entity-type",
    "users",
    "--entity-name",
    shellQuote(user),
  ];
  if ("add" in change)
    args.push(
      "--add-config",
      `'${change.add.mechanism}=[iterations=${change.add.iterations},password=${PASSWORD_PLACEHOLDER}]'`,
    );
  else args.push("--delete-config", shellQuote(change.delete.join(",")));
  return args.join(" ");
}

/** Every SCRAM user Kafka lets the viewer describe (DESCRIBE on CLUSTER). */
export async function listScramUsers(viewer: Viewer): Promise<ActionResult<ScramUserList>> {
  try {
    const users = await describeScramUsers(viewer.credential, null);
    return {
      ok: true,
      data: {
        users: users
          .filter((u) => u.error === null)
          .map((u) => ({ user: u.user, principal: `User:${u.user}`, credentials: u.credentials })),
      },
    };
  } catch (error) {
    return toErrorResult(error, "list SCRAM users");
  }
}

/** The user's credentials now, or [] when Kafka has none (RESOURCE_NOT_FOUND). Throws Kafka's refusals. */
async function credentialsOf(viewer: Viewer, user: string): Promise<Credentials> {
  const [described] = await describeScramUsers(viewer.credential, [user]);
  if (!described || described.error !== null) return [];
  return described.credentials;
}

/**
 * The user's credentials before a change; null when Kafka does not let the viewer describe
 * them (the change is still attempted, and audited: Kafka decides on ALTER by itself).
 */
async function before(viewer: Viewer, user: string, doing: string): Promise<ActionResult<Credentials | null>> {
  try {
    return { ok: true, data: await credentialsOf(viewer, user) };
  } catch (error) {
    if (isKafkaOperationError(error) && error.isAuthorizationFailure) return { ok: true, data: null };
    return toErrorResult(error, doing);
  }
}

/**
 * Runs `change` holding the (cluster, user) credential lock, with the user's credentials as
 * they are once it is held (`before`); CONFLICT when another change of the user's
 * credentials holds it for longer than DEFAULT_LOCK_WAIT_MS. Nothing is sent to Kafka
 * unless the lock is held.
 */
async function withCredentialLock<T>(
  viewer: Viewer,
  user: string,
  doing: string,
  change: (current: Credentials | null) => Promise<ActionResult<T>>,
): Promise<ActionResult<T>> {
  let clusterId: string;
  try {
    clusterId = await clusterIdFor(viewer);
  } catch (error) {
    return toErrorResult(error, doing);
  }
  const key = JSON.stringify(["scram-credential", clusterId, user]);
  try {
    return await withConsoleLocks(key, [{ key, mode: "exclusive" }], async (guard) => {
      await guard.assertHeld();
      const current = await before(viewer, user, doing);
      return current.ok ? change(current.data) : current;
    });
  } catch (error) {
    if (error instanceof LockBusyError) {
      return {
        ok: false,
        code: "CONFLICT",
        message:
          `Nothing was changed: another change to the credentials of ${user} was still in progress ` +
          `after ${DEFAULT_LOCK_WAIT_MS / 1000} s. Try again.`,
      };
    }
    if (error instanceof LockUnavailableError) {
      console.error(`[console] SCRAM credential lock for ${user}: ${error.message}`);
      return {
        ok: false,
        code: "INTERNAL",
        message:
          "Nothing was changed: the console could not take its lock in its database (database unavailable). " +
          "Try again when the database is back.",
      };
    }
    throw error;
  }
}

/** Creates the user, adds a mechanism, or rotates the mechanism's password. */
export async function upsertScramUser(
  viewer: Viewer,
  input: ScramCredentialUpsert,
  options: ScramChangeOptions = {},
): Promise<ActionResult<ScramChangeResult>> {
  const doing = `set the ${input.mechanism} credential of ${input.user}`;
  return withCredentialLock(viewer, input.user, doing, (current) =>
    options.expected !== undefined && !sameCredentials(current, options.expected)
      ? Promise.resolve(staleCredentials(input.user))
      : upsertLocked(viewer, input, doing, current, options.planId ?? null),
  );
}

/**
 * How a plan applies a SCRAM change: audited with its id, and only if the user's credentials are
 * still those it was previewed with (checked under the credential lock, right before sending).
 */
export interface ScramChangeOptions {
  planId?: string | null;
  expected?: Credentials | null;
}

/** Whether two reads of a user's credentials agree (mechanism and iterations, in any order). */
export function sameCredentials(a: Credentials | null, b: Credentials | null): boolean {
  return credentialsBasis(a) === credentialsBasis(b);
}

/** A fingerprint of a user's credentials: what a scram.change plan was computed from. */
export function credentialsBasis(c: Credentials | null): string {
  if (c === null) return "not described";
  return JSON.stringify(
    [...c].sort((x, y) => x.mechanism.localeCompare(y.mechanism)).map((x) => [x.mechanism, x.iterations]),
  );
}

const scramStaleMessage = (user: string) =>
  `The SCRAM credentials of ${user} changed since this preview; nothing was sent. Preview (review) again.`;

function staleCredentials(user: string): ActionResult<never> {
  return { ok: false, code: "CONFLICT", message: scramStaleMessage(user) };
}

/** The user's SCRAM credentials as the viewer may describe them; null when Kafka does not let them. */
export async function describeCredentials(viewer: Viewer, user: string): Promise<ActionResult<Credentials | null>> {
  return before(viewer, user, `describe the SCRAM credentials of ${user}`);
}

async function upsertLocked(
  viewer: Viewer,
  input: ScramCredentialUpsert,
  doing: string,
  existing: Credentials | null,
  planId: string | null,
): Promise<ActionResult<ScramChangeResult>> {
  if (input.ifExists === "refuse" && existing?.some((c) => c.mechanism === input.mechanism)) {
    return {
      ok: false,
      code: "CONFLICT",
      message:
        `Nothing was changed: ${input.user} already has a ${input.mechanism} credential. To give it a new ` +
        `password, use Set password on its row.`,
    };
  }
  const generated = input.password == null;
  const password = input.password ?? generatePassword();
  const change: ScramChangeResult["change"] =
    existing === null
      ? "set"
      : existing.length === 0
        ? "created"
        : existing.some((c) => c.mechanism === input.mechanism)
          ? "rotated"
          : "added";
  return auditedScramChange(
    viewer,
    input.user,
    {
      action: SCRAM_ACTION[change],
      target: `user ${input.user} ${input.mechanism}`,
      request: { user: input.user, mechanism: input.mechanism, iterations: input.iterations, generated },
      before: existing,
      planId,
    },
    (kafka) => kafka.upsertScramCredential(viewer.credential, input.user, input.mechanism, password, input.iterations),
    () => ({
      change,
      ...(generated ? { generatedPassword: password } : {}),
      cli: [
        scramCommand(
          input.user,
          { add: { mechanism: input.mechanism, iterations: input.iterations } },
          bootstrapOf(viewer),
        ),
      ],
    }),
  );
}

/** Deletes one mechanism's credential, or every credential of the user (the user is gone). */
export async function deleteScramUser(
  viewer: Viewer,
  input: ScramCredentialDelete,
  options: ScramChangeOptions = {},
): Promise<ActionResult<ScramChangeResult>> {
  const doing = input.mechanism
    ? `delete the ${input.mechanism} credential of ${input.user}`
    : `delete the SCRAM user ${input.user}`;
  return withCredentialLock(viewer, input.user, doing, (current) =>
    options.expected !== undefined && !sameCredentials(current, options.expected)
      ? Promise.resolve(staleCredentials(input.user))
      : deleteLocked(viewer, input, current, options.planId ?? null),
  );
}

async function deleteLocked(
  viewer: Viewer,
  input: ScramCredentialDelete,
  existing: Credentials | null,
  planId: string | null,
): Promise<ActionResult<ScramChangeResult>> {
  const mechanisms = input.mechanism
    ? [input.mechanism]
    : (existing ?? [{ mechanism: "SCRAM-SHA-512" as const }, { mechanism: "SCRAM-SHA-256" as const }]).map(
        (c) => c.mechanism,
      );
  if (
    existing !== null &&
    (mechanisms.length === 0 || (input.mechanism && !existing.some((c) => c.mechanism === input.mechanism)))
  ) {
    return { ok: false, code: "NOT_FOUND", message: `${input.user} has no ${input.mechanism ?? "SCRAM"} credential.` };
  }
  return auditedScramChange(
    viewer,
    input.user,
    {
      action: "scram.delete",
      target: `user ${input.user} ${mechanisms.join(", ")}`,
      request: { user: input.user, mechanisms },
      before: existing,
      planId,
    },
    async (kafka) => {
      for (const mechanism of mechanisms) await kafka.deleteScramCredential(viewer.credential, input.user, mechanism);
    },
    () => ({ change: "deleted", cli: [scramCommand(input.user, { delete: mechanisms }, bootstrapOf(viewer))] }),
  );
}

/**
 * A SCRAM change of `user`'s credentials, audited (category "scram", the user a subject): `send` makes it, then the
 * user's credentials are read again for the answer and the audit's `after` (none when that read fails). `answer` gives
 * the rest of the answer: what changed, the generated password if any, the CLI equivalent.
 */
function auditedScramChange(
  viewer: Viewer,
  user: string,
  audit: {
    action: string;
    target: string;
    request: Record<string, unknown>;
    before: Credentials | null;
    planId: string | null;
  },
  send: (kafka: KafkaWriter) => Promise<void>,
  answer: () => Pick<ScramChangeResult, "change" | "generatedPassword" | "cli">,
): Promise<ActionResult<ScramChangeResult>> {
  const principal = `User:${user}`;
  return auditedMutation(
    {
      viewer,
      action: audit.action,
      category: "scram",
      target: audit.target,
      request: audit.request,
      before: { credentials: audit.before },
      subjects: [principal],
      planId: audit.planId,
    },
    async (kafka) => {
      await send(kafka);
      const credentials = await credentialsOf(viewer, user).catch(() => null);
      const { change, cli, ...generated } = answer();
      return {
        result: { ok: true, data: { user, principal, change, credentials: credentials ?? [], ...generated, cli } },
        audit: { outcome: "success", after: credentials === null ? undefined : { credentials } },
      };
    },
  );
}
