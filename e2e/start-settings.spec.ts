import { spawn } from "node:child_process";
import path from "node:path";
import { test, expect } from "@playwright/test";

/**
 * The built console refuses to start with bad settings and names every one, instead of
 * serving with NaN or a silent default: started the way `npm start` and the e2e run start
 * it (scripts/server.ts) and with plain `next start`. The console settings are refused as
 * the settings load; the Kafka settings and the authorizer assumptions when the server
 * starts (instrumentation.ts -> lib/settings-check.ts).
 */

const root = path.resolve(import.meta.dirname, "..");
const port = Number(process.env.E2E_PORT ?? 3100) + 37;

const STARTS = {
  "the console's server (npm start)": [process.execPath, "--import", "tsx", "scripts/server.ts"],
  "next start": [path.join(root, "node_modules", ".bin", "next"), "start", "-H", "127.0.0.1", "-p", String(port)],
} as const;

function startWith(
  command: readonly string[],
  settings: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command[0]!, command.slice(1), {
      cwd: root,
      env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", ...settings },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    // Still running after this long means it started anyway: stop it and fail.
    const timer = setTimeout(() => child.kill("SIGTERM"), 45_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

for (const [how, command] of Object.entries(STARTS)) {
  test.describe(how, () => {
    test("bad console settings stop the start, every one listed", async () => {
      const { code, output } = await startWith(command, {
        SESSION_TTL_HOURS: "abc",
        ALLOWED_ORIGINS: "not-a-url",
        TRUST_PROXY: "maybe",
      });
      expect(code, output).toBe(1);
      for (const name of ["SESSION_TTL_HOURS", "ALLOWED_ORIGINS", "TRUST_PROXY"]) expect(output).toContain(name);
      expect(output).not.toContain("[server] Ready on");
    });

    test("bad Kafka settings and super users stop the start too, every one listed", async () => {
      const { code, output } = await startWith(command, {
        KAFKA_BOOTSTRAP_SERVERS: "broker-without-port",
        KAFKA_SUPER_USERS: "User:admin;ops",
      });
      expect(code, output).toBe(1);
      expect(output).toContain("The console cannot start: fix these settings in its environment");
      expect(output).toContain("KAFKA_BOOTSTRAP_SERVERS must be a comma-separated list of host:port");
      expect(output).toContain('KAFKA_SUPER_USERS: "ops" is not a principal Type:name');
      expect(output).not.toContain("[server] Ready on");
      expect(output).not.toMatch(/\n\s+at /);
    });
  });
}
