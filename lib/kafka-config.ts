/**
 * Where the console's Kafka is and how to reach it, from the settings lib/env.ts reads
 * (kafkaConnectionSchema) when no CLUSTERS_FILE names the clusters. Credentials are not
 * here: every connection authenticates as the signed-in user.
 * (What each variable means: lib/env.ts, docs/configuration.md.)
 */
import { readFileSync } from "node:fs";
import type { ConnectionOptions as TlsConnectionOptions } from "node:tls";
import { clusterSettings, kafkaConnectionSchema, pickSettings, type Settings } from "./env";

const hostPort = /^(\[[0-9a-fA-F:.]+\]|[^\s:,]+):(\d{1,5})$/;

export type SecurityProtocol = "SASL_PLAINTEXT" | "SASL_SSL";

export interface KafkaConfig {
  /** `host:port` strings, in the order given. */
  bootstrapServers: string[];
  securityProtocol: SecurityProtocol;
  /** Node TLS options for SASL_SSL; undefined for SASL_PLAINTEXT. */
  tls: TlsConnectionOptions | undefined;
  clientId: string;
}

export class KafkaConfigError extends Error {
  override name = "KafkaConfigError";
}

/** Parses and checks the Kafka settings; throws KafkaConfigError naming every bad variable. */
export function loadKafkaConfig(env: Settings): KafkaConfig {
  const parsed = kafkaConnectionSchema.safeParse(pickSettings(env, Object.keys(kafkaConnectionSchema.shape)));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new KafkaConfigError(`Invalid Kafka settings in the environment: ${problems}`);
  }
  const e = parsed.data;
  const servers = (e.KAFKA_BOOTSTRAP_SERVERS ?? `127.0.0.1:${e.KAFKA_PORT ?? "9092"}`)
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  const bad = servers.filter((s) => !hostPort.test(s) || Number(s.slice(s.lastIndexOf(":") + 1)) > 65535);
  if (servers.length === 0 || bad.length > 0) {
    throw new KafkaConfigError(
      `KAFKA_BOOTSTRAP_SERVERS must be a comma-separated list of host:port, ` +
        `got ${JSON.stringify(e.KAFKA_BOOTSTRAP_SERVERS)}`,
    );
  }

  let tls: TlsConnectionOptions | undefined;
  if (e.KAFKA_SECURITY_PROTOCOL === "SASL_SSL") {
    if (Boolean(e.KAFKA_TLS_CERT_FILE) !== Boolean(e.KAFKA_TLS_KEY_FILE)) {
      throw new KafkaConfigError("KAFKA_TLS_CERT_FILE and KAFKA_TLS_KEY_FILE must be set together.");
    }
    tls = { rejectUnauthorized: e.KAFKA_TLS_REJECT_UNAUTHORIZED };
    if (e.KAFKA_TLS_CA_FILE) tls.ca = readPem("KAFKA_TLS_CA_FILE", e.KAFKA_TLS_CA_FILE);
    if (e.KAFKA_TLS_CERT_FILE) tls.cert = readPem("KAFKA_TLS_CERT_FILE", e.KAFKA_TLS_CERT_FILE);
    if (e.KAFKA_TLS_KEY_FILE) tls.key = readPem("KAFKA_TLS_KEY_FILE", e.KAFKA_TLS_KEY_FILE);
  } else if (e.KAFKA_TLS_CA_FILE || e.KAFKA_TLS_CERT_FILE || e.KAFKA_TLS_KEY_FILE) {
    throw new KafkaConfigError(
      "KAFKA_TLS_* files are set but KAFKA_SECURITY_PROTOCOL is SASL_PLAINTEXT; set it to SASL_SSL.",
    );
  }

  return { bootstrapServers: servers, securityProtocol: e.KAFKA_SECURITY_PROTOCOL, tls, clientId: e.KAFKA_CLIENT_ID };
}

function readPem(variable: string, file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new KafkaConfigError(`${variable}=${file} cannot be read: ${reason}`);
  }
}

let cached: KafkaConfig | undefined;

/** The process-wide settings of the single cluster (scripts and tests), read once. */
export function kafkaConfig(): KafkaConfig {
  cached ??= loadKafkaConfig(clusterSettings());
  return cached;
}
