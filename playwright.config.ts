import { defineConfig, devices } from "@playwright/test";
import { devOidcEnv } from "./scripts/oidc/dev-settings";

const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://127.0.0.1:${port}`;
// Short, so e2e/security.spec.ts can show a half-sent request being dropped; the specs
// read it from here (workers load this file too).
process.env.E2E_REQUEST_TIMEOUT_SECONDS ??= "5";

/**
 * E2E against the real stack: the dev broker (scripts/kafka.sh), the machine's
 * PostgreSQL (DATABASE_URL, checked to be local by e2e/global-setup.ts) and Debian's
 * Chromium. Playwright never downloads a browser here.
 */
export default defineConfig({
  testDir: "e2e",
  outputDir: process.env.NEXT_DIST_DIR
    ? `test-results/${process.env.NEXT_DIST_DIR.replace(/[^\w.-]/g, "_")}`
    : "test-results",
  // Files run side by side on two workers (the tests of one file in order): the suite mostly
  // waits on the broker and the server, so two workers halve its time on two cores. Each spec
  // file shares the broker and the database with the others, so it makes its own topics and
  // names and asserts nothing another file may change meanwhile. E2E_WORKERS=1 for one worker.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  globalSetup: "./e2e/global-setup.ts",
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
  webServer: {
    // The console's own server (scripts/server.ts) over the build in NEXT_DIST_DIR, as `npm start` runs it.
    command: `"${process.execPath}" --import tsx scripts/server.ts`,
    // Request lines at info would bury the test report; warnings and errors still show.
    env: {
      PORT: String(port),
      HOST: "127.0.0.1",
      REQUEST_TIMEOUT_SECONDS: process.env.E2E_REQUEST_TIMEOUT_SECONDS,
      LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
      // The journal's background read (e2e/drift.spec.ts waits for it): every 10 s instead of every minute.
      KAFKA_HISTORY_INTERVAL_SECONDS: process.env.KAFKA_HISTORY_INTERVAL_SECONDS ?? "10",
      // Single sign-on with the development provider, when the dev broker started it (e2e/sso.spec.ts).
      ...devOidcEnv(process.cwd()),
    },
    url: `${baseURL}/sign-in`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "pipe",
    stderr: "pipe",
  },
});
