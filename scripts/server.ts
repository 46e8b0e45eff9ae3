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
 *      policy from proxy.ts, which this does not override). Every /api answer is
 *      Cache-Control: no-store, whatever the route or Next set.
 *   6. Graceful shutdown: SIGTERM/SIGINT close the listener (no new connections; /api/ready
 *      answers down on connections still open), let the requests being served finish
 *      (at most SHUTDOWN_TIMEOUT_SECONDS, then their connections are cut), close the pooled
 *      Kafka connections and the database pool, and exit 0.
 *      With --exit-with-parent (scripts/start.ts passes it) the server also exits when
 *      the process that started it is gone, even after a SIGKILL: its stdin (a pipe from
 *      that parent) reaches end-of-file, and its parent process id changes.
 *   7. Probes, answered here before Next (no session, no page machinery, nothing but
 *      `{"status":"up"}` or 503 `{"status":"down"}`): /api/health (the process serves) and
 *      /api/ready (the database answers and a Kafka bootstrap broker answers ApiVersions;
 *      lib/observability/readiness.ts, cached 1.5 s). Here rather than as Next routes so
 *      that they stay cheap and outside proxy.ts's session gate, and answer even when
 *      Next's handler is busy.
 *   8. Observability (lib/observability): every request gets a request id (the trusted
 *      proxy's sane X-Request-Id with TRUST_PROXY, else a new one), echoed in X-Request-Id
 *      and on every log line written while serving it; one JSON log line per request
 *      (pino, secrets redacted; console.* goes through the same logger); Prometheus
 *      metrics (lib/observability/metrics.ts) on METRICS_PORT (/metrics) and/or at
 *      /api/metrics for `Authorization: Bearer $METRICS_TOKEN`; neither unless set.
 *
 * Run after `next build`: `node --import tsx scripts/server.ts` (PORT, HOST, NEXT_DIST_DIR).
 */
import { createHash, timingSafeEqual } from "node:crypto";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import path from "node:path";
import v8 from "node:v8";
import type { Logger } from "pino";
import { env, type ConsoleEnv } from "../lib/env";
import { assertSettings, SettingsError } from "../lib/settings-check";
import { CLIENT_ADDRESS_HEADER, resolveClientAddress } from "../lib/auth/client-address";
import {
  API_CACHE_CONTROL,
  baseSecurityHeaders,
  FALLBACK_CONTENT_SECURITY_POLICY,
  isApiPath,
} from "../lib/api/security-headers";
import { findUnsafeUrl, hasErrors } from "../lib/schemas/safe-text";
import { disconnectPrisma, getPrisma } from "../lib/db/client";
import { clusterById } from "../lib/clusters";
import { closeAllConnections, pooledConnectionCount } from "../lib/kafka/client";
import { logger, routeConsoleTo } from "../lib/observability/logger";
import { createMetrics, heldAclSnapshots, type ConsoleMetrics } from "../lib/observability/metrics";
import { anyKafkaBrokerAnswers } from "../lib/kafka/api-versions";
import { readinessProbe } from "../lib/observability/readiness";
import { REQUEST_ID_HEADER, requestIdFor, runWithRequestId } from "../lib/observability/request-context";
import { routeNormaliser, routesOfBuild } from "../lib/observability/routes";

export const ALLOWED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
const allowed = new Set<string>(ALLOWED_METHODS);

/** Paths this server answers itself, before Next. */
export const HEALTH_PATH = "/api/health";
export const READY_PATH = "/api/ready";
export const METRICS_PATH = "/api/metrics";

/**
 * Adds the security headers an answer does not already carry, just before it is sent; an
 * API answer (`api`) is Cache-Control: no-store whatever it set.
 */
function secureDefaults(res: ServerResponse, headers: Record<string, string>, api: boolean) {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- applied to `this` below
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    if (!this.headersSent) {
      for (const [name, value] of Object.entries(headers)) if (!this.hasHeader(name)) this.setHeader(name, value);
      if (api) this.setHeader("Cache-Control", API_CACHE_CONTROL);
    }
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  };
}

function plainAnswer(
  status: number,
  reason: string,
  message: string,
  headers: Record<string, string>,
  extra: Record<string, string> = {},
): string {
  const body = `${message}\n`;
  const lines = Object.entries({
    ...headers,
    ...extra,
    "Content-Type": "text/plain; charset=utf-8",
    "Content-Length": String(Buffer.byteLength(body)),
    // The request may have been for the API (whose answers are never cached); an error is not worth caching anyway.
    "Cache-Control": API_CACHE_CONTROL,
    Connection: "close",
  }).map(([name, value]) => `${name}: ${value}`);
  return `HTTP/1.1 ${status} ${reason}\r\n${lines.join("\r\n")}\r\n\r\n${body}`;
}

/** Sets request header `name` (lower case) to `value`, replacing whatever the client sent. */
function replaceRequestHeader(req: IncomingMessage, name: string, value: string) {
  const raw: string[] = [];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i]!.toLowerCase() !== name) raw.push(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  }
  raw.push(name, value);
  req.rawHeaders = raw;
  req.headers[name] = value;
}

/** The client's address as the console sees it, replacing whatever the client claimed. */
function setClientAddress(req: IncomingMessage, settings: ConsoleEnv) {
  const address = resolveClientAddress({
    socketAddress: req.socket.remoteAddress,
    forwardedFor: req.headers["x-forwarded-for"],
    trustProxy: settings.TRUST_PROXY,
  });
  replaceRequestHeader(req, CLIENT_ADDRESS_HEADER, address);
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(text),
    "Cache-Control": "no-store",
    ...headers,
  });
  res.end(res.req.method === "HEAD" ? undefined : text);
}

/** Whether `header` is `Bearer <token>` (compared in constant time). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  if (!match) return false;
  const digest = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(match[1]!), digest(token));
}

export interface ConsoleServer {
  server: http.Server;
  url: string;
  /** The metrics port's address, when METRICS_PORT is set. */
  metricsUrl?: string;
  /** Requests being served now. */
  inFlight(): number;
  /** Graceful shutdown (see 6. above); resolves once everything is closed. */
  close(): Promise<void>;
}

interface Observability {
  log: Logger;
  metrics: ConsoleMetrics;
  ready(): Promise<boolean>;
}

/** The readiness probe over the console's database pool and its Kafka bootstrap brokers. */
function consoleReadiness(log: Logger) {
  // The default cluster (lib/clusters.ts): the one the environment, or the clusters file's default, names.
  const kafka = clusterById().kafka;
  const probe = readinessProbe({
    database: () => getPrisma().$queryRaw`select 1`,
    kafka: () => anyKafkaBrokerAnswers(kafka.bootstrapServers, { tls: kafka.tls }),
  });
  let reported: boolean | undefined;
  return {
    probe,
    async ready(): Promise<boolean> {
      const result = await probe.check();
      // The reason goes to the log (once per change), never to the prober.
      if (result.ready !== reported) {
        if (result.ready) log.info("ready: the database and Kafka answer");
        else log.warn({ problems: result.problems }, "not ready");
        reported = result.ready;
      }
      return result.ready;
    },
  };
}

function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || host === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Prepares Next (a production build in NEXT_DIST_DIR or .next) and listens on HOST:PORT. */
export async function startConsoleServer(settings: ConsoleEnv = env(), log: Logger = logger()): Promise<ConsoleServer> {
  const dir = path.resolve(import.meta.dirname, "..");
  const hostname = settings.HOST;
  const port = Number(settings.PORT);
  // Imported here, after main() has set NODE_ENV: React picks its build when first loaded.
  const { default: next } = await import("next");
  // Next's own name for this address (it listens on `hostname` below regardless). Next
  // writes every loopback host (127.x, ::1) as "localhost" in the URLs proxy.ts sees; told
  // 127.0.0.1, it would take proxy.ts's rewrites (every console page: app/c/[cluster]) for
  // another origin and proxy them to itself over HTTP.
  const app = next({ dev: false, dir, hostname: isLoopback(hostname) ? "localhost" : hostname, port });
  await app.prepare();
  const handle = app.getRequestHandler();

  const defaults = {
    ...baseSecurityHeaders({ cookieSecure: settings.COOKIE_SECURE }),
    "Content-Security-Policy": FALLBACK_CONTENT_SECURITY_POLICY,
  };
  const timeoutMs = Math.round(settings.REQUEST_TIMEOUT_SECONDS * 1000);
  const routeOf = routeNormaliser(routesOfBuild(path.join(dir, process.env.NEXT_DIST_DIR || ".next")));
  const readiness = consoleReadiness(log);
  const observability: Observability = {
    log,
    metrics: createMetrics({
      kafkaPooledConnections: () => pooledConnectionCount(),
      aclSnapshots: heldAclSnapshots,
      lastReady: readiness.probe.last,
    }),
    ready: () => readiness.ready(),
  };
  const { metrics } = observability;

  const sendMetrics = (res: ServerResponse) =>
    void metrics.render().then(({ body, contentType }) => {
      res.writeHead(200, { "Content-Type": contentType, "Cache-Control": "no-store" });
      res.end(res.req.method === "HEAD" ? undefined : body);
    });

  let draining = false;
  let inFlight = 0;
  let drained: (() => void) | undefined;

  /** The probes and metrics this server answers itself; false for everything else. */
  const answeredHere = (req: IncomingMessage, res: ServerResponse, pathname: string): boolean => {
    if (pathname !== HEALTH_PATH && pathname !== READY_PATH && !(pathname === METRICS_PATH && settings.METRICS_TOKEN))
      return false;
    if (req.method !== "GET" && req.method !== "HEAD") {
      sendJson(res, 405, { error: "This method is not allowed.", code: "METHOD_NOT_ALLOWED" }, { Allow: "GET, HEAD" });
    } else if (pathname === HEALTH_PATH) {
      sendJson(res, 200, { status: "up" });
    } else if (pathname === READY_PATH) {
      const answer = (up: boolean) => sendJson(res, up ? 200 : 503, { status: up ? "up" : "down" });
      if (draining) answer(false);
      else
        observability.ready().then(answer, (error: unknown) => {
          log.error({ err: error }, "readiness check failed");
          answer(false);
        });
    } else if (!bearerMatches(req.headers.authorization, settings.METRICS_TOKEN!)) {
      sendJson(
        res,
        401,
        { error: "Send the metrics token as Authorization: Bearer.", code: "UNAUTHENTICATED" },
        { "WWW-Authenticate": 'Bearer realm="metrics"' },
      );
    } else {
      sendMetrics(res);
    }
    return true;
  };

  const serve = (req: IncomingMessage, res: ServerResponse) => {
    const method = (req.method ?? "").toUpperCase();
    if (!allowed.has(method)) {
      const body = JSON.stringify({ error: "This method is not allowed.", code: "METHOD_NOT_ALLOWED" });
      res.writeHead(405, {
        Allow: ALLOWED_METHODS.join(", "),
        "Content-Type": "application/json",
        "Content-Length": Buffer.byteLength(body),
        Connection: "close",
      });
      res.end(body);
      return;
    }
    // Next re-encodes the query it parses, turning invalid UTF-8 into U+FFFD: look at the
    // address as the client sent it.
    const url = new URL(req.url ?? "/", "http://console.invalid");
    const urlProblems = findUnsafeUrl(url);
    if (hasErrors(urlProblems)) {
      const isApi = (req.url ?? "").startsWith("/api/");
      const message =
        "The address contains text the console does not accept (NUL, control characters or invalid UTF-8).";
      const body = isApi
        ? JSON.stringify({ error: message, code: "VALIDATION", fieldErrors: urlProblems })
        : `${message}\n`;
      res.writeHead(400, {
        "Content-Type": isApi ? "application/json" : "text/plain; charset=utf-8",
        "Content-Length": Buffer.byteLength(body),
      });
      res.end(body);
      return;
    }
    if (answeredHere(req, res, url.pathname)) return;
    setClientAddress(req, settings);
    handle(req, res).catch((error: unknown) => {
      log.error({ err: error }, "unexpected error");
      if (!res.headersSent) {
        res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" });
        res.end("Something went wrong on the console's side. It has been logged; please try again.\n");
      } else {
        res.destroy();
      }
    });
  };

  const server = http.createServer(
    {
      requestTimeout: timeoutMs,
      headersTimeout: timeoutMs,
      // How often Node looks for requests past those limits (its default is 30 s).
      connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(timeoutMs / 4))),
    },
    (req, res) => {
      const started = performance.now();
      secureDefaults(res, defaults, isApiPath((req.url ?? "/").split("?")[0]!));
      const requestId = requestIdFor(req.headers[REQUEST_ID_HEADER], settings.TRUST_PROXY);
      replaceRequestHeader(req, REQUEST_ID_HEADER, requestId);
      res.setHeader("X-Request-Id", requestId);
      // While draining, answers close their connection: the client's next request goes elsewhere.
      if (draining) res.setHeader("Connection", "close");
      inFlight += 1;
      metrics.requestStarted();
      res.once("close", () => {
        inFlight -= 1;
        metrics.requestFinished();
        const pathname = (req.url ?? "/").split("?")[0]!;
        const ownPath = pathname === HEALTH_PATH || pathname === READY_PATH || pathname === METRICS_PATH;
        const route = ownPath ? pathname : routeOf(pathname);
        const seconds = (performance.now() - started) / 1000;
        const method = allowed.has((req.method ?? "").toUpperCase()) ? req.method!.toUpperCase() : "other";
        metrics.observeRequest(method, route, res.statusCode, seconds);
        const line = {
          requestId,
          method,
          route,
          path: pathname.slice(0, 512),
          status: res.statusCode,
          ms: Math.round(seconds * 1000),
          ...(res.writableFinished ? {} : { aborted: true }),
        };
        // Probes every few seconds would drown the log: they are logged at debug.
        if (ownPath) log.debug(line, "request");
        else log.info(line, "request");
        if (inFlight === 0) drained?.();
      });
      runWithRequestId(requestId, () => serve(req, res));
    },
  );
  server.keepAliveTimeout = 5_000;

  // CONNECT never reaches the request listener in Node: answer it here.
  server.on("connect", (_req: IncomingMessage, socket: Socket) => {
    socket.end(
      plainAnswer(405, "Method Not Allowed", "This method is not allowed.", defaults, {
        Allow: ALLOWED_METHODS.join(", "),
      }),
    );
  });

  // Malformed requests, slow clients: answered here, with the same headers, then closed.
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => {
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
    if (error.code !== "ECONNRESET" && socket.writable && (!inFlight || !inFlight.headersSent)) {
      const answer =
        error.code === "ERR_HTTP_REQUEST_TIMEOUT"
          ? plainAnswer(
              408,
              "Request Timeout",
              `The request did not arrive within ${settings.REQUEST_TIMEOUT_SECONDS} seconds.`,
              defaults,
            )
          : error.code === "HPE_INVALID_METHOD"
            ? // A method Node's parser does not know at all (TRACK, BREW, ...).
              plainAnswer(405, "Method Not Allowed", "This method is not allowed.", defaults, {
                Allow: ALLOWED_METHODS.join(", "),
              })
            : error.code === "HPE_HEADER_OVERFLOW"
              ? plainAnswer(431, "Request Header Fields Too Large", "The request headers are too large.", defaults)
              : plainAnswer(400, "Bad Request", "The request is not valid HTTP.", defaults);
      socket.end(answer);
    }
    socket.destroy();
  });

  const listen = (target: http.Server, onPort: number) =>
    new Promise<string>((resolve, reject) => {
      target.once("error", reject);
      target.listen(onPort, hostname, () => {
        target.off("error", reject);
        const address = target.address();
        const boundPort = typeof address === "object" && address ? address.port : onPort;
        resolve(`http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${boundPort}`);
      });
    });
  const url = await listen(server, port);

  // The metrics port: /metrics for whoever reaches it (bind it where only the scraper can).
  let metricsServer: http.Server | undefined;
  let metricsUrl: string | undefined;
  if (settings.METRICS_PORT !== undefined) {
    metricsServer = http.createServer((req, res) => {
      if (req.url?.split("?")[0] !== "/metrics")
        return sendJson(res, 404, { error: "Not found: the metrics are at /metrics." });
      if (req.method !== "GET" && req.method !== "HEAD")
        return sendJson(res, 405, { error: "This method is not allowed." }, { Allow: "GET, HEAD" });
      sendMetrics(res);
    });
    metricsServer.keepAliveTimeout = 5_000;
    metricsUrl = await listen(metricsServer, Number(settings.METRICS_PORT));
  }

  const shutdownMs = Math.round(settings.SHUTDOWN_TIMEOUT_SECONDS * 1000);
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      draining = true;
      log.info({ inFlight }, "shutting down: no new connections, letting the requests being served finish");
      const listenerClosed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      metricsServer?.close();
      metricsServer?.closeAllConnections();
      let timer: NodeJS.Timeout | undefined;
      const finished = await Promise.race([
        new Promise<boolean>((resolve) => {
          drained = () => resolve(true);
          if (inFlight === 0) resolve(true);
        }),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), shutdownMs))),
      ]);
      clearTimeout(timer);
      if (!finished)
        log.warn(
          { inFlight, timeoutSeconds: settings.SHUTDOWN_TIMEOUT_SECONDS },
          "shutdown: requests still running after the timeout are cut off",
        );
      // Every request is done (or cut off): the connections left are idle.
      server.closeAllConnections();
      await listenerClosed;
      await app.close().catch(() => undefined);
      await closeAllConnections().catch((error: unknown) =>
        log.warn({ err: error }, "closing the Kafka connections failed"),
      );
      await disconnectPrisma().catch((error: unknown) => log.warn({ err: error }, "closing the database pool failed"));
      log.info("stopped: requests drained, Kafka connections and the database pool closed");
    })());
  return { server, url, metricsUrl, inFlight: () => inFlight, close };
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

/**
 * The server's memory under load. What it keeps is small (at 100,000 ACLs about 165 MB of
 * live heap, 40 MB of them source maps); what V8 lets pile up between full collections
 * is not: its default growth factor (up to 4x while allocating fast) took the RSS from
 * 330 MB to 570-590 MB under 20 users at 100,000 ACLs, and to 670 MB under 50, all of it
 * garbage given back only after ~25 s idle. A fixed factor of 1.2 (V8's
 * --heap-growing-percent, read at every collection, so it can be set at run time) kept the
 * peak at 375 MB in the same run, for about 15% fewer requests per second
 * (`npm run bench -- console`; docs/performance.md). HEAP_GROWING_PERCENT=0 leaves V8's own factor.
 */
export function applyHeapGrowth(percent: number): void {
  if (percent > 0) v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
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
  applyHeapGrowth(settings.HEAP_GROWING_PERCENT);
  // From here on every line is JSON (the request id on those written while serving one).
  logger().level = settings.LOG_LEVEL;
  const log = logger().child({ name: "server" });
  routeConsoleTo(logger());
  const state: { running?: ConsoleServer } = {};
  const stop = (why: string) => {
    log.info(`${why}: stopping`);
    if (!state.running) process.exit(0);
    void state.running.close().then(() => process.exit(0));
    // Should closing the pools hang, the process still ends.
    setTimeout(() => process.exit(0), settings.SHUTDOWN_TIMEOUT_SECONDS * 1000 + 5_000).unref();
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
  // Before Next is prepared, so that a parent dying during the start is noticed as well.
  if (process.argv.includes("--exit-with-parent"))
    watchParent(() => stop("the process that started the console is gone"));
  state.running = await startConsoleServer(settings, log);
  // scripts/start.ts and the tests wait for "Ready on".
  log.info(
    {
      url: state.running.url,
      ...(state.running.metricsUrl ? { metricsUrl: `${state.running.metricsUrl}/metrics` } : {}),
    },
    `[server] Ready on ${state.running.url}`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  main().catch((error: unknown) => {
    console.error(`[server] could not start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
