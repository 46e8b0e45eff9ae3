/**
 * The dev broker's service principal for the console (lib/services/service-principal.ts):
 * the SCRAM user `console-service` with DESCRIBE, DESCRIBE_CONFIGS and ALTER on the cluster and nothing
 * else (DESCRIBE reads ACLs and SCRAM users; DESCRIBE_CONFIGS reads client quotas, for the history
 * journal, #20; ALTER deletes the ACLs of expired grants, #19), its
 * credentials in `.kafka/console-service.json` (the broker's state dir, outside git, mode
 * 0600), which `npm start` and `npm test` hand to the console as
 * KAFKA_SERVICE_CREDENTIALS_FILE. It is not demo data: its password is random (never
 * known, never printed) and it is ensured at every start, since a reset broker has lost it.
 */
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describeAcls, isKafkaOperationError, verifyCredentials } from "@/lib/kafka";
import { createAcls, upsertScramCredential } from "@/lib/kafka/writes";
import { readServiceCredentials } from "@/lib/clusters";
import type { AclBinding } from "@/lib/policy/types";
import { signInAdmin } from "./seed-demo";

export const DEV_SERVICE_USER = "console-service";

const root = path.resolve(import.meta.dirname, "../..");

/** Where the dev service principal's credentials are kept: beside the dev broker's state. */
export function devServiceCredentialsFile(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(path.resolve(root, env.KAFKA_STATE_DIR || ".kafka"), "console-service.json");
}

/** DESCRIBE on the cluster: what reading ACLs takes. */
const DESCRIBE_CLUSTER: AclBinding = {
  resourceType: "CLUSTER",
  resourceName: "kafka-cluster",
  patternType: "LITERAL",
  principal: `User:${DEV_SERVICE_USER}`,
  host: "*",
  operation: "DESCRIBE",
  permissionType: "ALLOW",
};

/**
 * Makes sure the dev broker has the service principal its credentials file names (writing
 * the file with a new random password the first time), and returns the file.
 */
export async function ensureDevServicePrincipal(log: (line: string) => void = () => undefined): Promise<string> {
  const file = devServiceCredentialsFile();
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    const password = randomBytes(24).toString("base64url");
    writeFileSync(
      file,
      `${JSON.stringify({ username: DEV_SERVICE_USER, password, mechanism: "SCRAM-SHA-512" }, null, 2)}\n`,
      { mode: 0o600, flag: "wx" },
    );
    chmodSync(file, 0o600);
  }
  const service = readServiceCredentials(file, "default");
  if ("problems" in service) throw new Error(`the dev service principal's credentials: ${service.problems.join("; ")}`);
  const { credential } = service;

  const admin = await signInAdmin();
  try {
    await verifyCredentials(credential);
  } catch (error) {
    if (!isKafkaOperationError(error) || error.code !== "SASL_AUTHENTICATION_FAILED") throw error;
    await upsertScramCredential(admin, credential.username, "SCRAM-SHA-512", credential.password);
    log(`service principal: SCRAM user ${credential.username} (password in ${path.relative(root, file)})`);
  }
  for (const operation of ["DESCRIBE", "DESCRIBE_CONFIGS", "ALTER"] as const) {
    const binding = { ...DESCRIBE_CLUSTER, principal: service.principal, operation };
    const granted = await describeAcls(admin, binding);
    if (granted.length > 0) continue;
    const [result] = await createAcls(admin, [binding]);
    if (result?.error)
      throw new Error(`could not grant ${service.principal} ${operation} on the cluster: ${result.error.message}`);
    log(`service principal: ${service.principal} may ${operation} the cluster`);
  }
  return file;
}
