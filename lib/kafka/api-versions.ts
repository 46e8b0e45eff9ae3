/**
 * The cheapest proof that a broker is there: one ApiVersions exchange on a socket of its
 * own (TLS when asked). Kafka answers ApiVersions before any SASL authentication, so it
 * needs no credential: the readiness probe (lib/observability/readiness.ts) and the
 * cluster page's per-broker check (lib/services/cluster.ts) use it.
 */
import net from "node:net";
import tls, { type ConnectionOptions } from "node:tls";
import { plaintextToTlsMessage, transportFailureMessage } from "./errors";

/** How long an exchange may take by default. */
export const API_VERSIONS_TIMEOUT_MS = 2_000;

const API_VERSIONS = 18;

export interface ApiVersionsOptions {
  tls?: ConnectionOptions;
  timeoutMs?: number;
  clientId?: string;
}

/** Resolves once `host:port` answered an ApiVersions v0 request without an error code. */
export function kafkaApiVersions(server: string, options: ApiVersionsOptions = {}): Promise<void> {
  const separator = server.lastIndexOf(":");
  const host = server.slice(0, separator).replace(/^\[(.*)\]$/, "$1");
  const port = Number(server.slice(separator + 1));
  const correlationId = Math.floor(Math.random() * 0x7fffffff);
  const clientId = Buffer.from(options.clientId ?? "kafka-security-console-readiness");
  const request = Buffer.alloc(4 + 2 + 2 + 4 + 2 + clientId.length);
  request.writeInt32BE(request.length - 4, 0);
  request.writeInt16BE(API_VERSIONS, 4);
  request.writeInt16BE(0, 6);
  request.writeInt32BE(correlationId, 8);
  request.writeInt16BE(clientId.length, 12);
  clientId.copy(request, 14);

  return new Promise<void>((resolve, reject) => {
    const socket = options.tls
      ? tls.connect({ ...options.tls, host, port, servername: net.isIP(host) ? undefined : host })
      : net.connect({ host, port });
    let received = Buffer.alloc(0);
    const finish = (error?: Error) => {
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve();
    };
    const timer = setTimeout(() => finish(new Error("timed out")), options.timeoutMs ?? API_VERSIONS_TIMEOUT_MS);
    socket.once(options.tls ? "secureConnect" : "connect", () => socket.write(request));
    socket.on("data", (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      // Size, correlation id and error code are all this needs of the answer.
      if (received.length < 10) return;
      if (received.readInt32BE(4) !== correlationId) return finish(new Error("not a Kafka answer"));
      const errorCode = received.readInt16BE(8);
      finish(errorCode === 0 ? undefined : new Error(`ApiVersions error ${errorCode}`));
    });
    socket.on("error", (error: Error) => {
      const message = transportFailureMessage(error, { tls: Boolean(options.tls), server }) ?? error.message;
      finish(new Error(message, { cause: error }));
    });
    // A plaintext listener answers ApiVersions; one that hangs up on it probably speaks TLS.
    socket.on("close", () => {
      finish(new Error(options.tls ? "closed before answering" : plaintextToTlsMessage(server)));
    });
  });
}

/** Resolves when any of `servers` answers (they are asked at the same time). */
export function anyKafkaBrokerAnswers(
  servers: readonly string[],
  options: Omit<ApiVersionsOptions, "clientId"> = {},
): Promise<void> {
  return Promise.any(servers.map((server) => kafkaApiVersions(server, options))).then(() => undefined);
}
