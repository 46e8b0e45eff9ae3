/**
 * The console's single sign-on settings for the development provider (scripts/oidc/serve.ts) and
 * the dev broker's OAUTH listener (scripts/kafka.sh), as KAFKA_OIDC_* variables: what `npm start`
 * and the end-to-end tests hand the console when the provider runs (its pid file names a live
 * process). Null when it does not run, or the environment already names a provider.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

export const DEV_OIDC_CLIENT_ID = "kafka-security-console";

function running(pidFile: string): boolean {
  try {
    const pid = Number(readFileSync(pidFile, "utf8").trim());
    if (!Number.isInteger(pid) || pid <= 0) return false;
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export type DevOidcEnv = Record<
  | "KAFKA_OIDC_ISSUER"
  | "KAFKA_OIDC_NAME"
  | "KAFKA_OIDC_CLIENT_ID"
  | "KAFKA_OIDC_CLIENT_SECRET_FILE"
  | "KAFKA_OIDC_SCOPES"
  | "KAFKA_OIDC_PRINCIPAL_CLAIM"
  | "KAFKA_OIDC_AUDIENCE"
  | "KAFKA_OIDC_RESOURCE"
  | "KAFKA_OIDC_BOOTSTRAP_SERVERS",
  string
>;

export function devOidcEnv(
  root: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): DevOidcEnv | null {
  if (env.KAFKA_OIDC_ISSUER || env.CLUSTERS_FILE) return null;
  const dir = path.join(root, ".oidc");
  const secretFile = path.join(dir, "client-secret");
  if (!existsSync(secretFile) || !running(path.join(dir, "oidc.pid"))) return null;
  const kafkaPort = Number(env.KAFKA_PORT ?? 9092);
  return {
    KAFKA_OIDC_ISSUER: `http://127.0.0.1:${env.OIDC_DEV_PORT ?? 9400}`,
    KAFKA_OIDC_NAME: "the local provider",
    KAFKA_OIDC_CLIENT_ID: DEV_OIDC_CLIENT_ID,
    KAFKA_OIDC_CLIENT_SECRET_FILE: secretFile,
    KAFKA_OIDC_SCOPES: "openid profile offline_access kafka",
    KAFKA_OIDC_PRINCIPAL_CLAIM: "preferred_username",
    KAFKA_OIDC_AUDIENCE: "kafka",
    KAFKA_OIDC_RESOURCE: "urn:kafka",
    KAFKA_OIDC_BOOTSTRAP_SERVERS: `127.0.0.1:${env.KAFKA_OAUTH_PORT ?? kafkaPort + 4}`,
  };
}
