/**
 * The console's structured logs: one JSON object per line on stdout (pino), with the
 * request id of the request being served (lib/observability/request-context.ts) on every
 * line written while serving it, also by code that only calls console.log/console.error
 * (scripts/server.ts routes the console methods here).
 *
 * Secrets never reach the output: known fields (passwords, Authorization and Cookie
 * headers, Set-Cookie, tokens and their HMACs, the secret key) are replaced by
 * "[redacted]" wherever they sit up to three levels deep, and free text is scrubbed of the
 * shapes a secret takes in a message (Basic/Bearer credentials, the session cookie,
 * `password=...`).
 */
import { format, stripVTControlCharacters } from "node:util";
import pino, { type DestinationStream, type Logger } from "pino";
import { currentRequestId } from "./request-context";

/** Field names whose values are never written, at any of the first three levels. */
const SECRET_FIELDS = [
  "password",
  "newPassword",
  "currentPassword",
  "secret",
  "authorization",
  "Authorization",
  "cookie",
  "Cookie",
  "set-cookie",
  "Set-Cookie",
  "token",
  "tokenHmac",
  "hmac",
  "tokenId",
  "sessionId",
  "credential",
  "CONSOLE_SECRET_KEY",
  "METRICS_TOKEN",
  "KAFKA_SASL_PASSWORD",
];

export const REDACT_PATHS: string[] = SECRET_FIELDS.flatMap((field) => {
  const key = /^[A-Za-z_$][\w$]*$/.test(field) ? field : `["${field}"]`;
  const join = (prefix: string) => (key.startsWith("[") ? `${prefix}${key}` : `${prefix}.${key}`);
  return [key.startsWith("[") ? key.slice(2, -2) : key, join("*"), join("*.*")];
});

export const REDACTED = "[redacted]";

/** Secret shapes inside free text (a message, an error's text). */
const SECRET_TEXT: [RegExp, string][] = [
  [/\b(Basic|Bearer)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`],
  [/\b(ksc_session|ksc_[a-z_]*token[a-z_]*)=[^;\s,"']+/gi, `$1=${REDACTED}`],
  [/\b(password|passwd|secret|token)(["']?\s*[:=]\s*["']?)[^\s"',;&}]+/gi, `$1$2${REDACTED}`],
];

export function scrubText(text: string): string {
  let out = text;
  for (const [pattern, replacement] of SECRET_TEXT) out = out.replace(pattern, replacement);
  return out;
}

export function createLogger(destination?: DestinationStream): Logger {
  return pino(
    {
      base: { pid: process.pid },
      messageKey: "msg",
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACT_PATHS, censor: REDACTED },
      mixin: () => {
        const requestId = currentRequestId();
        return requestId ? { requestId } : {};
      },
      hooks: {
        // Free text is scrubbed wherever it is: the message and string arguments.
        logMethod(args, method) {
          const scrubbed = args.map((a) => (typeof a === "string" ? scrubText(a) : a)) as typeof args;
          return method.apply(this, scrubbed);
        },
      },
      serializers: {
        err: (error: unknown) => {
          const serialized = pino.stdSerializers.err(error as Error);
          if (typeof serialized.message === "string") serialized.message = scrubText(serialized.message);
          if (typeof serialized.stack === "string") serialized.stack = scrubText(serialized.stack);
          return serialized;
        },
      },
    },
    destination ?? pino.destination({ dest: 1, sync: true }),
  );
}

const slot = globalThis as typeof globalThis & { __kafkaSecurityConsoleLogger?: Logger };

/** The process's logger (created on first use, shared by the server and the Next bundle). */
export function logger(): Logger {
  return (slot.__kafkaSecurityConsoleLogger ??= createLogger());
}

/** Sends console.log/info/warn/error/debug through `log`, as JSON lines with the request id. */
export function routeConsoleTo(log: Logger): void {
  const write =
    (level: "debug" | "info" | "warn" | "error") =>
    (...args: unknown[]) => {
      const error = args.find((a): a is Error => a instanceof Error);
      // Colours and cursor codes (Next's own messages) mean nothing in a JSON log.
      const text = stripVTControlCharacters(format(...args));
      if (error) log[level]({ err: error }, text);
      else log[level](text);
    };
  console.log = write("info");
  console.info = write("info");
  console.warn = write("warn");
  console.error = write("error");
  console.debug = write("debug");
}
