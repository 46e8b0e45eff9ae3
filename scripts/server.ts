/**
 * The console's HTTP server: Node's http server around Next's request handler, for what
 * Next's own server (`next start`) cannot do:
 *
 *   1. The client address. Next fills X-Forwarded-For from the socket only when the client
 *      sent none, so a route cannot tell a forged header from a real one. Here any
 *      client-sent CLIENT_ADDRESS_HEADER is deleted and replaced by the address
 *      resolveClientAddress computes (the socket, or with TRUST_PROXY the proxy's entry).
 *   2. Methods. TRACE, TRACK, CONNECT and anything but GET, HEAD, POST, PUT, PATCH, DELETE
 *      and OPTIONS get 405 before Next sees them (Next answered TRACE with 500).
 *   3. Timeouts. A client must send a whole request within REQUEST_TIMEOUT_SECONDS (30):
 *      a half-sent body gets 408 and the connection is closed (Node's default is 300 s).
 *   4. Addresses (path and query) that are not valid UTF-8 or hold NUL or control
 *      characters get 400 (Next would quietly turn invalid UTF-8 into U+FFFD).
 *   5. Security headers on every answer, also Next's static files and errors and this
 *      server's own 400/405/408 (lib/api/security-headers.ts; pages get their nonce
 *      policy from proxy.ts, which this does not override).
 *   6. SIGTERM/SIGINT close the listener, give open requests a few seconds and exit 0.
 *      With --exit-with-parent (scripts/start.ts passes it) the server also exits when
 *      the process that started it is gone, even after a SIGKILL: its stdin (a pipe from
 *      that parent) reaches end-of-file, and its parent process id changes.
 *
 * Run after `next build`: `node --import tsx scripts/server.ts` (PORT, HOST, NEXT_DIST_DIR).
 */
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import path from "node:path";
import { env, type ConsoleEnv } from "../lib/env";
import { assertSettings, SettingsError } from "../lib/settings-check";
import { CLIENT_ADDRESS_HEADER, resolveClientAddress } from "../lib/auth/client-address";
import { baseSecurityHeaders, FALLBACK_CONTENT_SECURITY_POLICY } from "../lib/api/security-headers";
import { findUnsafeUrl, hasErrors } from "../lib/schemas/safe-text";

export const ALLOWED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
const allowed = new Set<string>(ALLOWED_METHODS);

const log = (line: string) => console.log(`[server] ${line}`);

/** Adds the security headers an answer does not already carry, just before it is sent. */
function secureDefaults(res: ServerResponse, headers: Record<string, string>) {
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    if (!this.headersSent) {
      for (const [name, value] of Object.entries(headers)) if (!this.hasHeader(name)) this.setHeader(name, value);
    }
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as typeof res.writeHead;
}

function plainAnswer(status: number, reason: string, message: string, headers: Record<string, string>, extra: Record<string, string> = {}): string {
  const body = `${message}\n`;
  const lines = Object.entries({
    ...headers,
    ...extra,
    "Content-Type": "text/plain; charset=utf-8",
    "Content-Length": String(Buffer.byteLength(body)),
    Connection: "close",
  }).map(([name, value]) => `${name}: ${value}`);
  return `HTTP/1.1 ${status} ${reason}\r\n${lines.join("\r\n")}\r\n\r\n${body}`;
}

/** The client's address as the console sees it, replacing whatever the client claimed. */
function setClientAddress(req: IncomingMessage, settings: ConsoleEnv) {
  const address = resolveClientAddress({
    socketAddress: req.socket.remoteAddress,
    forwardedFor: req.headers["x-forwarded-for"],
    trustProxy: settings.TRUST_PROXY,
  });
  const raw: string[] = [];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i]!.toLowerCase() !== CLIENT_ADDRESS_HEADER) raw.push(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  }
  raw.push(CLIENT_ADDRESS_HEADER, address);
  req.rawHeaders = raw;
  req.headers[CLIENT_ADDRESS_HEADER] = address;
}

export interface ConsoleServer {
  server: http.Server;
  url: string;
  close(): Promise<void>;
}

/** Prepares Next (a production build in NEXT_DIST_DIR or .next) and listens on HOST:PORT. */
export async function startConsoleServer(settings: ConsoleEnv = env()): Promise<ConsoleServer> {
  const dir = path.resolve(import.meta.dirname, "..");
  const hostname = settings.HOST;
  const port = Number(settings.PORT);
  // Imported here, after main() has set NODE_ENV: React picks its build when first loaded.
  const { default: next } = await import("next");
  const app = next({ dev: false, dir, hostname, port });
  await app.prepare();
  const handle = app.getRequestHandler();

  const defaults = { ...baseSecurityHeaders({ cookieSecure: settings.COOKIE_SECURE }), "Content-Security-Policy": FALLBACK_CONTENT_SECURITY_POLICY };
  const timeoutMs = Math.round(settings.REQUEST_TIMEOUT_SECONDS * 1000);

  const server = http.createServer(
    {
      requestTimeout: timeoutMs,
      headersTimeout: timeoutMs,
      // How often Node looks for requests past those limits (its default is 30 s).
      connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(timeoutMs / 4))),
    },
    (req, res) => {
      secureDefaults(res, defaults);
      const method = (req.method ?? "").toUpperCase();
      if (!allowed.has(method)) {
        const body = JSON.stringify({ error: "This method is not allowed.", code: "METHOD_NOT_ALLOWED" });
        res.writeHead(405, { Allow: ALLOWED_METHODS.join(", "), "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body), Connection: "close" });
        res.end(body);
        return;
      }
      // Next re-encodes the query it parses, turning invalid UTF-8 into U+FFFD: look at the
      // address as the client sent it.
      const urlProblems = findUnsafeUrl(new URL(req.url ?? "/", "http://console.invalid"));
      if (hasErrors(urlProblems)) {
        const isApi = (req.url ?? "").startsWith("/api/");
        const message = "The address contains text the console does not accept (NUL, control characters or invalid UTF-8).";
        const body = isApi ? JSON.stringify({ error: message, code: "VALIDATION", fieldErrors: urlProblems }) : `${message}\n`;
        res.writeHead(400, { "Content-Type": isApi ? "application/json" : "text/plain; charset=utf-8", "Content-Length": Buffer.byteLength(body) });
        res.end(body);
        return;
      }
      setClientAddress(req, settings);
      handle(req, res).catch((error: unknown) => {
        console.error("[server] unexpected error:", error instanceof Error ? (error.stack ?? error.message) : String(error));
        if (!res.headersSent) {
          res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" });
          res.end("Something went wrong on the console's side. It has been logged; please try again.\n");
        } else {
          res.destroy();
        }
      });
    },
  );
  server.keepAliveTimeout = 5_000;

  // CONNECT never reaches the request listener in Node: answer it here.
  server.on("connect", (_req: IncomingMessage, socket: Socket) => {
    socket.end(plainAnswer(405, "Method Not Allowed", "This method is not allowed.", defaults, { Allow: ALLOWED_METHODS.join(", ") }));
  });

  // Malformed requests, slow clients: answered here, with the same headers, then closed.
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => {
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
    if (error.code !== "ECONNRESET" && socket.writable && (!inFlight || !inFlight.headersSent)) {
      const answer =
        error.code === "ERR_HTTP_REQUEST_TIMEOUT"
          ? plainAnswer(408, "Request Timeout", `The request did not arrive within ${settings.REQUEST_TIMEOUT_SECONDS} seconds.`, defaults)
          : error.code === "HPE_INVALID_METHOD"
            ? // A method Node's parser does not know at all (TRACK, BREW, ...).
              plainAnswer(405, "Method Not Allowed", "This method is not allowed.", defaults, { Allow: ALLOWED_METHODS.join(", ") })
            : error.code === "HPE_HEADER_OVERFLOW"
            ? plainAnswer(431, "Request Header Fields Too Large", "The request headers are too large.", defaults)
            : plainAnswer(400, "Bad Request", "The request is not valid HTTP.", defaults);
      socket.end(answer);
    }
    socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, hostname, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  const boundPort = typeof address === "object" && address ? address.port : port;
  const url = `http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${boundPort}`;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
      // Requests still running after a grace period are cut off.
      setTimeout(() => {
        server.closeAllConnections();
        resolve();
      }, 5_000).unref();
    }).then(() => app.close().catch(() => undefined)));
  return { server, url, close };
}

/** Calls `onGone` once the process that started this one has exited (however it died). */
export function watchParent(onGone: () => void) {
  const parent = process.ppid;
  let fired = false;
  const fire = () => {
    if (fired) return;
    fired = true;
    clearInterval(timer);
    onGone();
  };
  // Our output may go to a pipe of that parent: writing to it once it is gone must not
  // crash the shutdown.
  process.stdout.on("error", () => undefined);
  process.stderr.on("error", () => undefined);
  // The parent holds the write end of our stdin: when it dies, we read end-of-file.
  process.stdin.on("end", fire);
  process.stdin.on("close", fire);
  process.stdin.on("error", fire);
  process.stdin.resume();
  // And we are handed to another parent (init or a subreaper).
  const timer = setInterval(() => {
    if (process.ppid !== parent) fire();
  }, 1_000);
  timer.unref();
}

async function main() {
  // A production build is all this serves (like `next start`).
  (process.env as Record<string, string>).NODE_ENV = "production";
  let settings: ConsoleEnv;
  try {
    // Every bad setting at once (console, Kafka, authorizer assumptions), before anything starts.
    assertSettings();
    settings = env();
  } catch (error) {
    console.error(error instanceof SettingsError ? error.message : String(error));
    process.exit(1);
  }
  const state: { running?: ConsoleServer } = {};
  const stop = (why: string) => {
    log(`${why}: stopping`);
    if (!state.running) process.exit(0);
    void state.running.close().then(() => process.exit(0));
    setTimeout(() => process.exit(0), 8_000).unref();
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
  // Before Next is prepared, so that a parent dying during the start is noticed as well.
  if (process.argv.includes("--exit-with-parent")) watchParent(() => stop("the process that started the console is gone"));
  state.running = await startConsoleServer(settings);
  log(`Ready on ${state.running.url}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  main().catch((error: unknown) => {
    console.error(`[server] could not start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
