/**
 * Kafka's refusals as typed errors a person can read. `code` is Kafka's own error name
 * (TOPIC_AUTHORIZATION_FAILED, INVALID_REQUEST, DELEGATION_TOKEN_OWNER_MISMATCH, ...)
 * or one of two console codes for failures before any API answers:
 * SASL_AUTHENTICATION_FAILED (the broker rejected the credential) and
 * BROKER_UNAVAILABLE (no broker could be reached). Authorization failures say which
 * permission was missing, from the API -> operation -> resource table. A connection that
 * fails in TLS (a certificate the CA file does not vouch for, a name the certificate does
 * not list, a client certificate missing, TLS spoken to a plaintext listener or the other
 * way round, SASL to a listener that takes none) is BROKER_UNAVAILABLE too, with a message
 * naming the problem (transportFailureMessage).
 */
import {
  GenericError,
  instancesChannel,
  protocolErrors,
  protocolErrorsCodesById,
  type Connection,
} from "@platformatic/kafka";
import type { ResourceType } from "@/lib/policy/types";
import {
  describePermissions,
  isAuthorizationErrorCode,
  missingPermissions,
  type MissingPermission,
} from "./required-permissions";

/** What the UI and the audit log keep of an error: plain data, safe to serialize. */
export interface KafkaErrorInfo {
  code: string;
  /** Kafka API name (CreateAcls, DescribeClientQuotas...) or "Connect" for connection failures. */
  api: string;
  message: string;
  /** The broker's own error message, when it sent one. */
  kafkaMessage: string | null;
  /** For authorization failures: the permissions that would have allowed the call. */
  missing: MissingPermission[];
}

export class KafkaOperationError extends Error {
  override name = "KafkaOperationError";
  readonly code: string;
  readonly api: string;
  readonly kafkaMessage: string | null;
  readonly missing: MissingPermission[];

  constructor(info: KafkaErrorInfo, options?: { cause?: unknown }) {
    super(info.message, options);
    this.code = info.code;
    this.api = info.api;
    this.kafkaMessage = info.kafkaMessage;
    this.missing = info.missing;
  }

  get isAuthorizationFailure(): boolean {
    return isAuthorizationErrorCode(this.code);
  }

  toJSON(): KafkaErrorInfo {
    return {
      code: this.code,
      api: this.api,
      message: this.message,
      kafkaMessage: this.kafkaMessage,
      missing: this.missing,
    };
  }
}

export function isKafkaOperationError(error: unknown): error is KafkaOperationError {
  return error instanceof KafkaOperationError;
}

/** What the request was about, to name it in messages. */
export interface ErrorContext {
  api: string;
  /** The caller, `User:alice`. */
  principal: string;
  /** Names of the resources involved, by type (e.g. USER -> owner principal). */
  resources?: Partial<Record<ResourceType, string>>;
  /** Whether the connection was made over TLS (SASL_SSL); lets a plaintext/TLS mismatch be named. */
  tls?: boolean;
  /** Whether the caller authenticates with an access token (single sign-on), not a password. */
  oauth?: boolean;
}

/** Kafka's numeric error code -> its name (`31` -> `CLUSTER_AUTHORIZATION_FAILED`). */
export function kafkaErrorName(code: number): string {
  return protocolErrorsCodesById[code] ?? `KAFKA_ERROR_${code}`;
}

const EXPLANATIONS: Record<string, string> = {
  DELEGATION_TOKEN_AUTH_DISABLED:
    "delegation tokens are disabled on this cluster (delegation.token.secret.key is not set)",
  DELEGATION_TOKEN_NOT_FOUND: "no delegation token has this HMAC (it may have expired and been removed)",
  DELEGATION_TOKEN_OWNER_MISMATCH: "only the token's owner and its renewers may renew or expire it",
  DELEGATION_TOKEN_REQUEST_NOT_ALLOWED:
    "token requests are not allowed on this connection (PLAINTEXT, one-way SSL, or a connection authenticated " +
    "with a token)",
  DELEGATION_TOKEN_EXPIRED: "the delegation token has expired",
  INVALID_PRINCIPAL_TYPE: "token renewers must be principals of type User",
  RESOURCE_NOT_FOUND: "the resource does not exist",
  UNACCEPTABLE_CREDENTIAL: "the credential was not accepted",
  DUPLICATE_RESOURCE: "the request names the same resource twice",
  UNSUPPORTED_SASL_MECHANISM: "the broker does not offer this SASL mechanism on this listener",
  SECURITY_DISABLED: "security features are disabled on this broker",
  TOPIC_ALREADY_EXISTS: "the topic already exists",
  UNKNOWN_TOPIC_OR_PARTITION: "the topic does not exist",
  REQUEST_TIMED_OUT: "the request timed out",
  NOT_CONTROLLER: "the request reached a broker that is not the controller; try again",
  UNSUPPORTED_VERSION: "the broker does not support this request version",
};

/**
 * The broker's message, minus the Java request dump the authorizer puts in front of
 * "needs X permission" (it names internal connection ids and helps nobody).
 */
function cleanServerMessage(kafkaMessage: string | null | undefined): string | null {
  if (!kafkaMessage || kafkaMessage.trim() === "") return null;
  const dump = /^Request Request\(.*\) (needs \w+ permission\.?)$/s.exec(kafkaMessage.trim());
  return dump?.[1] ? `The request ${dump[1]}` : kafkaMessage.trim();
}

/** The readable message for a Kafka error code returned by `ctx.api`. */
export function errorInfoFor(code: string, kafkaMessage: string | null | undefined, ctx: ErrorContext): KafkaErrorInfo {
  const serverMessage = cleanServerMessage(kafkaMessage);
  if (isAuthorizationErrorCode(code)) {
    const missing = missingPermissions(ctx.api, code, ctx.resources);
    const needs = missing.length > 0 ? `needs ${describePermissions(missing)}` : `is not authorized (${code})`;
    return {
      code,
      api: ctx.api,
      message: `Kafka refused ${ctx.api}: ${ctx.principal} ${needs}.`,
      kafkaMessage: serverMessage,
      missing,
    };
  }
  // The broker's own words are the most specific; the generic texts are the fallback.
  const detail = (serverMessage ?? EXPLANATIONS[code] ?? protocolErrors[code]?.message ?? code).replace(/\.$/, "");
  return {
    code,
    api: ctx.api,
    message: `Kafka refused ${ctx.api} (${code}): ${detail}.`,
    kafkaMessage: serverMessage,
    missing: [],
  };
}

interface ProtocolErrorLike {
  apiId?: unknown;
  serverErrorMessage?: unknown;
  path?: unknown;
}

function walk(error: unknown, visit: (e: Error & ProtocolErrorLike) => void, depth = 0): void {
  if (!(error instanceof Error) || depth > 8) return;
  visit(error);
  if (error instanceof AggregateError) for (const inner of error.errors) walk(inner, visit, depth + 1);
  if ("cause" in error) walk(error.cause, visit, depth + 1);
}

/** The first Kafka protocol error (code name + broker message) inside a client error tree. */
export function findProtocolError(
  error: unknown,
): { code: string; kafkaMessage: string | null; path: string | null } | null {
  let found: { code: string; kafkaMessage: string | null; path: string | null } | null = null;
  walk(error, (e) => {
    if (found || typeof e.apiId !== "string") return;
    found = {
      code: e.apiId,
      kafkaMessage: typeof e.serverErrorMessage === "string" ? e.serverErrorMessage : null,
      path: typeof e.path === "string" ? e.path : null,
    };
  });
  return found;
}

/**
 * The decoded response carried by a client error, when the broker answered with per-item
 * errors (CreateAcls, DeleteAcls, AlterClientQuotas, ...). Lets callers report each item.
 */
export function partialResponse<T>(error: unknown): T | null {
  let found: T | null = null;
  walk(error, (e) => {
    const response = (e as { response?: unknown }).response;
    if (found === null && response !== undefined && response !== null && typeof response === "object")
      found = response as T;
  });
  return found;
}

function hasCode(error: unknown, code: string): boolean {
  let hit = false;
  walk(error, (e) => {
    if ((e as { code?: unknown }).code === code) hit = true;
  });
  return hit;
}

/**
 * Any error from the Kafka client -> KafkaOperationError. Kafka protocol errors keep
 * their name; SASL failures become SASL_AUTHENTICATION_FAILED; connection failures and
 * timeouts become BROKER_UNAVAILABLE. Already-converted errors pass through.
 */
export function toKafkaOperationError(error: unknown, ctx: ErrorContext): KafkaOperationError {
  if (error instanceof KafkaOperationError) return error;
  // Before the SASL check: plaintext Kafka sent to a TLS listener ends in the client's
  // "Cannot find a suitable SASL mechanism", which is no verdict on the credential.
  const transportProblem = transportFailureMessage(error, { tls: ctx.tls });
  if (transportProblem) {
    return new KafkaOperationError(
      { code: "BROKER_UNAVAILABLE", api: ctx.api, message: transportProblem, kafkaMessage: null, missing: [] },
      { cause: error },
    );
  }
  const protocol = findProtocolError(error);
  if (
    protocol?.code === "SASL_AUTHENTICATION_FAILED" ||
    (protocol === null && hasCode(error, "PLT_KFK_AUTHENTICATION"))
  ) {
    const username = ctx.principal.replace(/^User:/, "");
    return new KafkaOperationError(
      {
        code: "SASL_AUTHENTICATION_FAILED",
        api: ctx.api,
        message: ctx.oauth
          ? `Kafka refused the sign-in of ${username}: the access token expired, was revoked, or is not from a ` +
            "provider the brokers trust. Sign in again."
          : `Kafka rejected the credentials of ${username}: wrong username, password or SASL mechanism.`,
        kafkaMessage: protocol?.kafkaMessage ?? null,
        missing: [],
      },
      { cause: error },
    );
  }
  if (protocol?.code === "UNSUPPORTED_SASL_MECHANISM" || protocol?.code === "ILLEGAL_SASL_STATE") {
    return new KafkaOperationError(errorInfoFor(protocol.code, protocol.kafkaMessage, ctx), { cause: error });
  }
  if (protocol)
    return new KafkaOperationError(errorInfoFor(protocol.code, protocol.kafkaMessage, ctx), { cause: error });
  if (
    hasCode(error, "PLT_KFK_NETWORK") ||
    hasCode(error, "PLT_KFK_TIMEOUT") ||
    hasCode(error, "ECONNREFUSED") ||
    hasCode(error, "ETIMEDOUT")
  ) {
    return new KafkaOperationError(
      {
        code: "BROKER_UNAVAILABLE",
        api: ctx.api,
        message:
          `Kafka is unreachable: no broker answered at the configured bootstrap servers ` +
          `(${describeNetworkCause(error)}).`,
        kafkaMessage: null,
        missing: [],
      },
      { cause: error },
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new KafkaOperationError(
    {
      code: "UNKNOWN",
      api: ctx.api,
      message: `The Kafka client failed during ${ctx.api}: ${message}`,
      kafkaMessage: null,
      missing: [],
    },
    { cause: error },
  );
}

function describeNetworkCause(error: unknown): string {
  const messages: string[] = [];
  walk(error, (e) => {
    if (!GenericError.isGenericError(e) || e.code === "PLT_KFK_NETWORK" || e.code === "PLT_KFK_TIMEOUT")
      messages.push(e.message);
  });
  const specific = messages.filter((m) => !/^Cannot connect to any broker/.test(m));
  return (specific.at(-1) ?? messages.at(-1) ?? "connection failed").replace(/\.$/, "");
}

/** OpenSSL's verification results (Node's error codes) meaning the CA file does not vouch for the certificate. */
const UNTRUSTED_CERTIFICATE = new Set([
  "SELF_SIGNED_CERT_IN_CHAIN",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "CERT_UNTRUSTED",
  "CERT_REJECTED",
  "CERT_SIGNATURE_FAILURE",
  "UNABLE_TO_DECRYPT_CERT_SIGNATURE",
  "UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY",
  "INVALID_CA",
  "INVALID_PURPOSE",
  "PATH_LENGTH_EXCEEDED",
  "CERT_CHAIN_TOO_LONG",
]);
const CERTIFICATE_NOT_VALID_NOW = new Set([
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "ERROR_IN_CERT_NOT_BEFORE_FIELD",
  "ERROR_IN_CERT_NOT_AFTER_FIELD",
  "CERT_REVOKED",
]);
const CERTIFICATE_NAME_MISMATCH = new Set(["ERR_TLS_CERT_ALTNAME_INVALID", "HOSTNAME_MISMATCH"]);

/**
 * A sentence naming what went wrong in TLS when `error` (from @platformatic/kafka or a
 * plain socket) is a TLS failure, or a listener that does not speak what the console
 * spoke (plaintext/TLS, SASL to a certificate-only listener, a hang-up at the SASL
 * handshake) — none of them a verdict on the credential; else null. `tls` says whether TLS was spoken (false:
 * plaintext Kafka, so a listener that hangs up at once probably expects TLS).
 *
 * What the client surfaces: Node's verification error (code SELF_SIGNED_CERT_IN_CHAIN,
 * ERR_TLS_CERT_ALTNAME_INVALID, ...) under NetworkError "Connection to host:port failed.";
 * TLS sent to a plaintext listener: UserError "TLS handshake failed..." over ECONNRESET
 * (the broker reads the ClientHello as an oversized request and hangs up); plaintext sent
 * to a TLS listener: AuthenticationError "Cannot find a suitable SASL mechanism." over
 * NetworkError "Connection closed" (the broker hangs up at the SaslHandshake), or
 * UserError "Broker requires TLS." when a TLS record came back first.
 */
export function transportFailureMessage(
  error: unknown,
  options: { tls?: boolean; server?: string } = {},
): string | null {
  let server = options.server;
  let found: string | null = null;
  let closedAtSasl = false;
  walk(error, (e) => {
    const connect = /^Connection to (.+) failed\.$/.exec(e.message);
    if (connect && !options.server) server = connect[1]; // the broker whose causes follow
    if (found) return;
    const code = (e as { code?: unknown }).code;
    const detail = e.message.replace(/\.$/, "");
    if (typeof code === "string" && UNTRUSTED_CERTIFICATE.has(code)) {
      found =
        `The broker's TLS certificate is not trusted: ${detail} (check KAFKA_TLS_CA_FILE: it must hold the CA ` +
        `that signed the brokers' certificates).`;
    } else if (typeof code === "string" && CERTIFICATE_NOT_VALID_NOW.has(code)) {
      found =
        `The broker's TLS certificate is not valid now: ${detail} (the brokers need a current certificate, or ` +
        `this machine's clock is wrong).`;
    } else if (typeof code === "string" && CERTIFICATE_NAME_MISMATCH.has(code)) {
      found =
        `The broker's TLS certificate does not name the address the console connected to: ${detail} (use a ` +
        `host name or address the certificate lists in KAFKA_BOOTSTRAP_SERVERS).`;
    } else if (
      e.message.startsWith("TLS handshake failed") ||
      /before secure TLS connection was established/.test(e.message)
    ) {
      found =
        `${server ?? "The broker"} did not answer the TLS handshake: it is probably a plaintext listener ` +
        `(with KAFKA_SECURITY_PROTOCOL=SASL_SSL, KAFKA_BOOTSTRAP_SERVERS must name the brokers' SASL_SSL ` +
        `port).`;
    } else if (e.message === "Broker requires TLS.") {
      found = plaintextToTlsMessage(server);
    } else if (
      typeof code === "string" &&
      /^ERR_SSL_.*(BAD_CERTIFICATE|CERTIFICATE_REQUIRED|UNKNOWN_CA|CERTIFICATE_UNKNOWN)$/.test(code)
    ) {
      found =
        `The broker refused the TLS connection for want of a client certificate it trusts ` +
        `(${opensslReason(e)}): the listener requires one (check KAFKA_TLS_CERT_FILE and KAFKA_TLS_KEY_FILE: ` +
        `a certificate signed by a CA the brokers trust).`;
    } else if (typeof code === "string" && code.startsWith("ERR_SSL_")) {
      found =
        `The TLS handshake with ${server ?? "the broker"} failed (${opensslReason(e)}): check ` +
        `KAFKA_TLS_CA_FILE, KAFKA_TLS_CERT_FILE and KAFKA_TLS_KEY_FILE.`;
    } else if (
      code === "PLT_KFK_AUTHENTICATION" &&
      e.message === "Cannot find a suitable SASL mechanism." &&
      e.cause instanceof Error &&
      e.cause.message === "Connection closed"
    ) {
      closedAtSasl = true;
    } else if (
      code === "PLT_KFK_AUTHENTICATION" &&
      e.message === "Cannot find a suitable SASL mechanism." &&
      findProtocolError(e.cause)?.code === "ILLEGAL_SASL_STATE"
    ) {
      found =
        `${server ?? "The broker"} takes no SASL (it refused the SASL handshake: ILLEGAL_SASL_STATE): it is ` +
        `probably an SSL listener that authenticates by client certificate alone (KAFKA_BOOTSTRAP_SERVERS ` +
        `must name the brokers' SASL_SSL or SASL_PLAINTEXT port).`;
    }
  });
  // A hang-up at the SASL handshake is no verdict on the credential, whatever the transport.
  if (!found && closedAtSasl) {
    const hint =
      options.tls === undefined
        ? " (if it is a TLS listener, set KAFKA_SECURITY_PROTOCOL=SASL_SSL and KAFKA_TLS_CA_FILE)"
        : "";
    found =
      options.tls === false
        ? plaintextToTlsMessage(server)
        : `${server ?? "The broker"} hung up at the start of the SASL handshake, before any credential was ` +
          `checked${hint}.`;
  }
  return found;
}

/** OpenSSL's reason ("ssl/tls alert bad certificate"), not its whole error line. */
function opensslReason(e: Error): string {
  const reason = (e as { reason?: unknown }).reason;
  return typeof reason === "string" && reason !== "" ? reason : e.message.trim();
}

/** A listener hung up on plaintext Kafka (`server`, when known): it probably expects TLS. */
export function plaintextToTlsMessage(server: string | undefined): string {
  return (
    `${server ?? "The broker"} hung up as soon as the console spoke plaintext Kafka to it: it is probably a ` +
    `TLS listener (set KAFKA_SECURITY_PROTOCOL=SASL_SSL and KAFKA_TLS_CA_FILE, or use the brokers' ` +
    `SASL_PLAINTEXT port).`
  );
}

/**
 * @platformatic/kafka 2.12 emits a connection's "error" a second time when a TLS broker
 * ends the connection during the SASL handshake (a listener that requires a client
 * certificate the console did not send): the first reaches the caller as usual, the second
 * finds no listener left and, as an EventEmitter "error" without a listener, would crash
 * the process. So every connection the client makes gets a listener that drops what its
 * callers have already been given.
 */
const guard = globalThis as typeof globalThis & { __kscKafkaConnectionErrorGuard?: boolean };
if (!guard.__kscKafkaConnectionErrorGuard) {
  guard.__kscKafkaConnectionErrorGuard = true;
  instancesChannel.subscribe((message) => {
    const { type, instance } = message as { type?: string; instance?: Connection };
    if (type === "connection" && instance) instance.on("error", () => undefined);
  });
}
