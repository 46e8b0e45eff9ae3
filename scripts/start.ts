/**
 * `npm start`: the console on its defaults, on a fresh clone.
 *
 *   1. Kafka: the dev broker (scripts/kafka.sh) unless KAFKA_BOOTSTRAP_SERVERS or
 *      CLUSTERS_FILE (lib/clusters.ts) says where the clusters are.
 *   2. Database: embedded PGlite served on 127.0.0.1 unless DATABASE_URL is set; the
 *      migrations are applied either way (loudly failing if they cannot be).
 *   3. Demo data on the dev broker, once: the database records that it was written and it
 *      never is again (SEED=0 skips it; `npm run seed -- --force` writes it again). The dev
 *      broker's service principal (console-service, DESCRIBE and ALTER on the cluster) is ensured and
 *      its credentials file handed to the console as KAFKA_SERVICE_CREDENTIALS_FILE.
 *   4. A production build when the sources are newer than the last one (in NEXT_DIST_DIR,
 *      default .next; `--no-build` serves the existing build as it is), without Next's
 *      type check (`npm test` and `npm run typecheck` run tsc), then the console's server
 *      (scripts/server.ts) on PORT (3000) and HOST (127.0.0.1).
 * Ctrl-C stops the console and the embedded database; the local broker keeps running
 * (`npm run kafka:stop` stops it) unless Ctrl-C is pressed a second time while the console
 * stops, or the launcher was started with `--stop-broker`.
 *
 * The server never outlives this launcher, however it ends (even `kill -9`): it reads
 * its stdin from a pipe held by this process and exits at end-of-file, and watches its
 * parent process id (scripts/server.ts --exit-with-parent). This launcher likewise stops
 * when the process that started it (e.g. tsx's wrapper) is gone.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { devOidcEnv } from "./oidc/dev-settings";
import { describeSecretKey, defaultDevKeyPath } from "../lib/auth/crypto";
import { assertSettings } from "../lib/settings-check";
import { clusters } from "../lib/clusters";
import { startEmbeddedDatabase } from "../lib/db/embedded";
import { migrate, redactUrl } from "../lib/db/migrate";
import { seedDemoDataOnce } from "./seed/seed-demo";
import { ensureDevServicePrincipal } from "./seed/service-principal";

const root = path.resolve(import.meta.dirname, "..");
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? "127.0.0.1";
const distDir = process.env.NEXT_DIST_DIR || ".next";
const log = (line: string) => console.log(`[start] ${line}`);
/** Stop the local broker too when the console stops (`--stop-broker`, or a second Ctrl-C). */
let stopBroker = process.argv.includes("--stop-broker");

function run(command: string, args: string[], env: Record<string, string | undefined> = process.env): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: "inherit", env: env as NodeJS.ProcessEnv });
    child.on("exit", (code) => resolve(code ?? 1));
    child.on("error", () => resolve(1));
  });
}

function newestMtime(entry: string): number {
  const full = path.join(root, entry);
  if (!existsSync(full)) return 0;
  const stat = statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of readdirSync(full)) {
    if (child === "node_modules" || child === "generated") continue;
    newest = Math.max(newest, newestMtime(path.join(entry, child)));
  }
  return newest;
}

function buildIsStale(): boolean {
  const buildId = path.join(root, distDir, "BUILD_ID");
  if (!existsSync(buildId)) return true;
  const built = statSync(buildId).mtimeMs;
  const sources = [
    "app",
    "components",
    "lib",
    "public",
    "proxy.ts",
    "instrumentation.ts",
    "next.config.ts",
    "package-lock.json",
    "tsconfig.json",
  ];
  return sources.some((s) => newestMtime(s) > built);
}

/** What to do when this launcher must stop; replaced once the server runs. */
let stopAll: (code: number) => Promise<void> = async (code) => process.exit(code);

async function main() {
  // If whoever started this launcher dies without signalling it (tsx's wrapper, killed
  // with -9), this process is handed to another parent: stop rather than serve for nobody.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) {
      log("the process that started the console is gone");
      void stopAll(0);
    }
  }, 1_000).unref();
  assertSettings();
  const env: Record<string, string | undefined> = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
  const localBroker = !process.env.KAFKA_BOOTSTRAP_SERVERS && !process.env.CLUSTERS_FILE;
  if (localBroker) {
    log("starting the local Kafka broker (set KAFKA_BOOTSTRAP_SERVERS to use your own cluster)");
    if ((await run("bash", ["scripts/kafka.sh", "start"])) !== 0) {
      throw new Error("the local Kafka broker did not start; see the messages above and .kafka/logs/server.log");
    }
  } else {
    log(
      `using ${clusters()
        .map((c) => `${c.id} at ${c.kafka.bootstrapServers.join(",")}`)
        .join("; ")}`,
    );
  }

  let stopDatabase: (() => Promise<void>) | undefined;
  if (!process.env.DATABASE_URL) {
    const db = await startEmbeddedDatabase({ dataDir: path.join(root, ".data", "pglite") });
    stopDatabase = db.stop;
    env.DATABASE_URL = db.url;
    log(`embedded database (PGlite) at ${redactUrl(db.url)}, data in .data/pglite`);
  }
  const applied = await migrate(env.DATABASE_URL!, (line) => log(line));
  log(applied.applied.length ? `applied migrations: ${applied.applied.join(", ")}` : "database schema is up to date");

  // The console's server runs with NODE_ENV=production, where no key is ever generated: make
  // sure the dev key exists now and hand its file to the server.
  if (!env.CONSOLE_SECRET_KEY && !env.CONSOLE_SECRET_KEY_FILE) {
    const key = describeSecretKey();
    env.CONSOLE_SECRET_KEY_FILE = defaultDevKeyPath();
    log(`secret key: development key ${key.keyId} in ${key.source} (set CONSOLE_SECRET_KEY in production)`);
  }

  if (localBroker && process.env.SEED !== "0") {
    const { seeded } = await seedDemoDataOnce(env.DATABASE_URL!, (line) => log(line));
    if (seeded) log("demo data seeded");
  }
  if (localBroker && !env.KAFKA_SERVICE_CREDENTIALS_FILE) {
    env.KAFKA_SERVICE_CREDENTIALS_FILE = await ensureDevServicePrincipal((line) => log(line));
    log(
      `service principal: User:console-service, credentials ` +
        `in ${path.relative(root, env.KAFKA_SERVICE_CREDENTIALS_FILE)} (reads ACLs to decide who may approve ` +
        `token requests)`,
    );
  }

  const sso = localBroker ? devOidcEnv(root, env) : null;
  if (sso) {
    Object.assign(env, sso);
    log(
      `single sign-on: "Sign in with the local provider" (${sso.KAFKA_OIDC_ISSUER}, the demo users and ` +
        `passwords), Kafka reached as the person on ${sso.KAFKA_OIDC_BOOTSTRAP_SERVERS} (OAUTHBEARER)`,
    );
  }

  if (process.argv.includes("--no-build")) {
    if (!existsSync(path.join(root, distDir, "BUILD_ID")))
      throw new Error(`--no-build: there is no build in ${distDir}; run npm run build first`);
  } else if (buildIsStale()) {
    log("building the console (first start or changed sources; about a minute)...");
    if ((await run(bin("next"), ["build"], { ...env, KSC_BUILD_SKIP_TYPECHECK: "1" })) !== 0)
      throw new Error("next build failed; see the output above");
  }

  env.PORT = String(port);
  env.HOST = host;
  // stdin is a pipe only this process holds: when it ends, however, the server sees EOF.
  const server: ChildProcess = spawn(process.execPath, ["--import", "tsx", "scripts/server.ts", "--exit-with-parent"], {
    cwd: root,
    env: env as NodeJS.ProcessEnv,
    stdio: ["pipe", "pipe", "inherit"],
  });
  log(`console server started (process ${server.pid})`);
  server.stdout?.on("data", (chunk: Buffer) => {
    process.stdout.write(chunk);
    if (chunk.toString().includes("Ready on")) {
      const url = `http://${host === "0.0.0.0" ? "127.0.0.1" : host}:${port}`;
      console.log(
        [
          "",
          `  Kafka Security Console: ${url}`,
          localBroker
            ? "  Demo sign-in (SCRAM-SHA-512): admin / admin-secret (super user); alice, bob, carol, dana, " +
              "svc-orders, " +
              "svc-billing with <name>-secret"
            : "  Sign in with your Kafka credentials.",
          !localBroker
            ? "  Stop with Ctrl-C."
            : stopBroker
              ? "  Stop with Ctrl-C (the local broker stops too)."
              : "  Stop with Ctrl-C; the local broker keeps running (a second Ctrl-C, or npm run kafka:stop, " +
                "stops it too).",
          "",
        ].join("\n"),
      );
    }
  });

  let stopping = false;
  let interrupted = false;
  let secondInterrupt: (() => void) | undefined;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    if (server.exitCode === null && server.signalCode === null) {
      server.kill("SIGTERM");
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          server.kill("SIGKILL");
          resolve();
        }, 10_000);
        server.once("exit", () => {
          clearTimeout(force);
          resolve();
        });
      });
    }
    await stopDatabase?.();
    if (localBroker && !stopBroker && interrupted) {
      // Stopped with Ctrl-C: a second one within a few seconds stops the broker as well.
      log("console stopped; the local Kafka broker keeps running: press Ctrl-C within 3 s to stop it too");
      await new Promise<void>((resolve) => {
        secondInterrupt = resolve;
        setTimeout(resolve, 3_000);
      });
    }
    if (localBroker && stopBroker) {
      log("stopping the local Kafka broker");
      await run("bash", ["scripts/kafka.sh", "stop"]);
    } else if (localBroker) {
      log("the local Kafka broker keeps running; stop it with: npm run kafka:stop");
    }
    process.exit(code);
  };
  process.on("SIGINT", () => {
    if (interrupted) {
      stopBroker = true;
      secondInterrupt?.();
    }
    interrupted = true;
    void shutdown(0);
  });
  process.on("SIGTERM", () => void shutdown(0));
  process.on("SIGHUP", () => void shutdown(0));
  server.on("exit", (code) => void shutdown(code ?? 1));

  stopAll = shutdown;
}

main().catch((error: Error) => {
  console.error(`[start] ${error.message}`);
  process.exit(1);
});
