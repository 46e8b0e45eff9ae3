/**
 * SCRAM credentials (KIP-554) as the signed-in user: describing needs DESCRIBE on
 * CLUSTER, altering ALTER on CLUSTER. The salted password is computed here (PBKDF2 with
 * the mechanism's hash, RFC 5802 Hi()), so the plain password never travels to Kafka.
 */
import { pbkdf2Sync, randomBytes } from "node:crypto";
import { alterUserScramCredentialsV0, describeUserScramCredentialsV0, ScramMechanisms } from "@platformatic/kafka";
import { anyBrokerConnection, principalOf, withAdmin } from "./client";
import { errorInfoFor, kafkaErrorName, KafkaOperationError, partialResponse, type ErrorContext } from "./errors";
import { settle } from "./settle";
import type { KafkaCredential, ScramMechanism, ScramUserDescription } from "./types";

/** Kafka's bounds for SCRAM iterations (ScramMechanism.minIterations / maxIterations is 16384). */
export const SCRAM_MIN_ITERATIONS = 4096;
export const SCRAM_DEFAULT_ITERATIONS = 8192;

const MECHANISM_WIRE: Record<ScramMechanism, number> = {
  "SCRAM-SHA-256": ScramMechanisms.SCRAM_SHA_256,
  "SCRAM-SHA-512": ScramMechanisms.SCRAM_SHA_512,
};
const MECHANISM_HASH: Record<ScramMechanism, { digest: string; length: number }> = {
  "SCRAM-SHA-256": { digest: "sha256", length: 32 },
  "SCRAM-SHA-512": { digest: "sha512", length: 64 },
};

function mechanismFromWire(value: number): ScramMechanism {
  if (value === ScramMechanisms.SCRAM_SHA_256) return "SCRAM-SHA-256";
  if (value === ScramMechanisms.SCRAM_SHA_512) return "SCRAM-SHA-512";
  throw new Error(`Kafka returned an unknown SCRAM mechanism code ${value}.`);
}

type DescribeResponse = Awaited<ReturnType<typeof describeUserScramCredentialsV0.api.async>>;
type AlterResponse = Awaited<ReturnType<typeof alterUserScramCredentialsV0.api.async>>;

/** SCRAM credentials (mechanism and iterations, never secrets) of `users`, or of every user when null. */
export async function describeScramUsers(
  cred: KafkaCredential,
  users: string[] | null,
): Promise<ScramUserDescription[]> {
  const ctx: ErrorContext = { api: "DescribeUserScramCredentials", principal: principalOf(cred) };
  if (users !== null && users.length === 0) return [];
  return withAdmin(cred, ctx.api, async (admin) => {
    const connection = await anyBrokerConnection(admin);
    let response: DescribeResponse;
    try {
      // "All users" is sent as an empty list, not null: Kafka 4.1 answers null from an
      // unauthorized principal with a NullPointerException and never responds.
      response = await describeUserScramCredentialsV0.api.async(
        connection,
        (users ?? []).map((name) => ({ name })),
      );
    } catch (error) {
      const partial = partialResponse<DescribeResponse>(error);
      if (!partial || partial.errorCode !== 0) throw error;
      response = partial;
    }
    return response.results
      .map((r) => ({
        user: r.user,
        credentials: r.credentialInfos.map((c) => ({
          mechanism: mechanismFromWire(c.mechanism),
          iterations: c.iterations,
        })),
        error: r.errorCode === 0 ? null : errorInfoFor(kafkaErrorName(r.errorCode), r.errorMessage, ctx),
      }))
      .sort((a, b) => a.user.localeCompare(b.user));
  });
}

async function alterScram(
  cred: KafkaCredential,
  user: string,
  deletions: { name: string; mechanism: number }[],
  upsertions: { name: string; mechanism: number; iterations: number; salt: Buffer; saltedPassword: Buffer }[],
): Promise<void> {
  const ctx: ErrorContext = { api: "AlterUserScramCredentials", principal: principalOf(cred) };
  await withAdmin(cred, ctx.api, async (admin) => {
    const connection = await anyBrokerConnection(admin);
    let response: AlterResponse;
    try {
      response = await alterUserScramCredentialsV0.api.async(connection, deletions, upsertions);
    } catch (error) {
      const partial = partialResponse<AlterResponse>(error);
      if (!partial) throw error;
      response = partial;
    }
    const failed = response.results.find((r) => r.user === user && r.errorCode !== 0);
    if (failed) throw new KafkaOperationError(errorInfoFor(kafkaErrorName(failed.errorCode), failed.errorMessage, ctx));
    await settle(async () => {
      let described: DescribeResponse;
      try {
        described = await describeUserScramCredentialsV0.api.async(connection, [{ name: user }]);
      } catch (error) {
        const partial = partialResponse<DescribeResponse>(error);
        if (!partial || partial.errorCode !== 0) throw error;
        described = partial;
      }
      const infos = described.results.find((r) => r.user === user)?.credentialInfos ?? [];
      const has = (m: number, iterations?: number) =>
        infos.some((c) => c.mechanism === m && (iterations === undefined || c.iterations === iterations));
      return deletions.every((d) => !has(d.mechanism)) && upsertions.every((u) => has(u.mechanism, u.iterations));
    });
  });
}

/** Creates or replaces `user`'s credential for `mechanism`. */
export async function upsertScramCredential(
  cred: KafkaCredential,
  user: string,
  mechanism: ScramMechanism,
  password: string,
  iterations: number = SCRAM_DEFAULT_ITERATIONS,
): Promise<void> {
  const { digest, length } = MECHANISM_HASH[mechanism];
  const salt = randomBytes(32);
  const saltedPassword = pbkdf2Sync(Buffer.from(password, "utf8"), salt, iterations, length, digest);
  await alterScram(
    cred,
    user,
    [],
    [{ name: user, mechanism: MECHANISM_WIRE[mechanism], iterations, salt, saltedPassword }],
  );
}

/** Removes `user`'s credential for `mechanism` (RESOURCE_NOT_FOUND when there is none). */
export async function deleteScramCredential(
  cred: KafkaCredential,
  user: string,
  mechanism: ScramMechanism,
): Promise<void> {
  await alterScram(cred, user, [{ name: user, mechanism: MECHANISM_WIRE[mechanism] }], []);
}
