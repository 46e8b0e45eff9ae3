/**
 * `npm test`: typecheck, lint, format, unit, integration and e2e, starting what they need (the
 * dev broker, the test database schema, the demo data, a production build), then one
 * plain summary line `N passed, N failed`. Typecheck, lint and format count as one check each;
 * Vitest and Playwright tests count one each. Exit code 1 when anything failed.
 *
 * Environment: DATABASE_URL (default: the machine's PostgreSQL, database ksc_test, made
 * anew for each run; a given one is kept, unless TEST_FRESH_DATABASE=1),
 * KAFKA_BOOTSTRAP_SERVERS (default: the dev broker, started here if not running),
 * TEST_ONLY=typecheck,lint,format,unit,integration,e2e to run a subset. Arguments after `--`
 * go to Playwright (e.g. `TEST_ONLY=e2e npm test -- e2e/security.spec.ts`); with
 * NEXT_DIST_DIR, E2E_PORT and DATABASE_URL set, several such runs can coexist.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import os from "node:os";
import pg from "pg";
import { describeSecretKey } from "../lib/auth/crypto";

const root = path.resolve(import.meta.dirname, "..");
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);
const outDir = path.join(
  root,
  ".data",
  process.env.NEXT_DIST_DIR ? `test-results-${path.basename(process.env.NEXT_DIST_DIR)}` : "test-results",
);
const only = process.env.TEST_ONLY?.split(",").map((s) => s.trim());
const wants = (step: string) => !only || only.includes(step);

let passed = 0;
let failed = 0;
const failures: string[] = [];

function run(command: string, args: string[], env: Record<string, string | undefined> = {}): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on("error", (error) => {
      console.error(`could not run ${command}: ${error.message}`);
      resolve(1);
    });
  });
}

const started = Date.now();
const stages: string[] = [];
let stage: { title: string; at: number } | undefined;

/** Starts a stage: its title with the time, and the time the previous one took (listed again at the end). */
function banner(title: string) {
  endStage();
  stage = { title, at: Date.now() };
  const clock = new Date().toISOString().slice(11, 19);
  console.log(`\n━━━ ${title} ${"━".repeat(Math.max(0, 70 - title.length))} ${clock}`);
}

function endStage() {
  if (stage) stages.push(`${stage.title} ${Math.round((Date.now() - stage.at) / 1000)} s`);
  stage = undefined;
}

async function check(name: string, command: string, args: string[]) {
  banner(name);
  const code = await run(command, args);
  if (code === 0) passed += 1;
  else {
    failed += 1;
    failures.push(name);
  }
}

interface VitestJson {
  numPassedTests: number;
  numFailedTests: number;
  numTotalTests: number;
  numPendingTests?: number;
  numTodoTests?: number;
  success: boolean;
}

async function vitest(project: string, env: Record<string, string | undefined> = {}) {
  banner(`vitest: ${project}`);
  const outputFile = path.join(outDir, `vitest-${project}.json`);
  rmSync(outputFile, { force: true });
  const code = await run(
    bin("vitest"),
    ["run", "--project", project, "--reporter=default", "--reporter=json", `--outputFile=${outputFile}`],
    env,
  );
  try {
    const report = JSON.parse(readFileSync(outputFile, "utf8")) as VitestJson;
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    if (report.numFailedTests > 0) failures.push(`${project} tests`);
    // A file that fails to load has no failed *test* but fails the run: count it.
    if (code !== 0 && report.numFailedTests === 0) {
      failed += 1;
      failures.push(`${project} (suite error)`);
    }
  } catch {
    failed += 1;
    failures.push(`${project} (no report)`);
  }
}

interface PlaywrightJson {
  stats: { expected: number; unexpected: number; flaky: number; skipped: number };
}

async function playwright(env: Record<string, string | undefined>) {
  banner("playwright: e2e");
  const outputFile = path.join(outDir, "playwright.json");
  rmSync(outputFile, { force: true });
  const code = await run(
    bin("playwright"),
    ["test", "--reporter=list,json", ...process.argv.slice(2).filter((a, i) => !(i === 0 && a === "--"))],
    { ...env, PLAYWRIGHT_JSON_OUTPUT_NAME: outputFile },
  );
  try {
    const report = JSON.parse(readFileSync(outputFile, "utf8")) as PlaywrightJson;
    passed += report.stats.expected + report.stats.flaky;
    failed += report.stats.unexpected;
    if (report.stats.unexpected > 0) failures.push("e2e tests");
    if (code !== 0 && report.stats.unexpected === 0) {
      failed += 1;
      failures.push("e2e (run error)");
    }
  } catch {
    failed += 1;
    failures.push("e2e (no report)");
  }
}

/**
 * Creates the test database when missing. With `fresh` (the default database, ksc_test)
 * it is dropped first: the suites then start from nothing, as on a new machine, whatever
 * earlier runs on this machine left (failed sign-ins fold per client and hour, waiting
 * token requests are listed oldest first). A DATABASE_URL given by the caller is kept.
 */
async function ensureDatabase(url: string, fresh: boolean) {
  const target = new URL(url);
  const name = target.pathname.replace(/^\//, "");
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    if (fresh) await client.query(`drop database if exists "${name.replace(/"/g, '""')}" with (force)`);
    const exists = await client.query("select 1 from pg_database where datname = $1", [name]);
    if (exists.rowCount === 0) await client.query(`create database "${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

async function main() {
  mkdirSync(outDir, { recursive: true });
  const freshDatabase = process.env.DATABASE_URL === undefined || process.env.TEST_FRESH_DATABASE === "1";
  const env: Record<string, string | undefined> = {
    DATABASE_URL: process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/ksc_test",
    NEXT_TELEMETRY_DISABLED: "1",
    // The e2e server runs with NODE_ENV=production, where no key is generated: use a
    // test key file made here (outside the repo).
    CONSOLE_SECRET_KEY_FILE: process.env.CONSOLE_SECRET_KEY_FILE ?? path.join(os.tmpdir(), "ksc-test", "secret.key"),
  };
  Object.assign(process.env, env);
  if (!process.env.CONSOLE_SECRET_KEY) describeSecretKey();

  if (wants("typecheck")) await check("typecheck", bin("tsc"), ["--noEmit"]);
  if (wants("lint")) await check("lint", bin("eslint"), ["--max-warnings=0", "."]);
  // One format (.prettierrc.json) and no line over 120 characters (scripts/format.ts); `npm run format` fixes both.
  if (wants("format")) await check("format", "npm", ["run", "-s", "format:check"]);
  if (wants("unit")) await vitest("unit");

  let startedBroker = false;
  if (wants("integration") || wants("e2e")) {
    banner("services");
    let ready = true;
    if (!process.env.KAFKA_BOOTSTRAP_SERVERS) {
      // The development OpenID provider (started with the broker) issues 60 s access tokens in the tests, so
      // e2e/sso.spec.ts sees one refreshed while its page is open.
      process.env.OIDC_DEV_ACCESS_TOKEN_SECONDS ??= "60";
      const alreadyUp = (await run("bash", ["scripts/kafka.sh", "status"])) === 0;
      if (!alreadyUp) {
        if ((await run("bash", ["scripts/kafka.sh", "start"])) !== 0) ready = false;
        else startedBroker = true;
      }
    }
    try {
      await ensureDatabase(env.DATABASE_URL!, freshDatabase);
      if ((await run(bin("tsx"), ["scripts/db-migrate.ts"])) !== 0) ready = false;
      // --force: the tests start from the demo state, whatever earlier runs changed (npm start seeds once only).
      if (ready && process.env.SEED !== "0" && (await run(bin("tsx"), ["scripts/seed.ts", "--force"])) !== 0)
        ready = false;
    } catch (error) {
      console.error(`database not ready: ${(error as Error).message}`);
      ready = false;
    }
    if (!ready) {
      failed += 1;
      failures.push("services (broker, database or seed)");
    } else {
      if (wants("integration")) await vitest("integration");
      if (wants("e2e")) {
        banner("next build (for e2e)");
        if ((await run(bin("next"), ["build"])) !== 0) {
          failed += 1;
          failures.push("next build");
        } else {
          // The console's service principal on the dev broker (written by the seed), as npm start configures it.
          const service = path.join(
            path.resolve(root, process.env.KAFKA_STATE_DIR || ".kafka"),
            "console-service.json",
          ); // devServiceCredentialsFile()
          await playwright({
            ...env,
            ...(!process.env.KAFKA_SERVICE_CREDENTIALS_FILE && existsSync(service)
              ? { KAFKA_SERVICE_CREDENTIALS_FILE: service }
              : {}),
          });
        }
      }
    }
  }
  if (startedBroker && process.env.KEEP_BROKER !== "1") await run("bash", ["scripts/kafka.sh", "stop"]);

  endStage();
  console.log(`\ntook ${Math.round((Date.now() - started) / 1000)} s: ${stages.join(", ")}`);
  if (failures.length) console.log(`failed: ${failures.join(", ")}`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed > 0 ? 1 : 0);
}

main().catch((error) => {
  console.error(error);
  console.log(`${passed} passed, ${failed + 1} failed`);
  process.exit(1);
});
