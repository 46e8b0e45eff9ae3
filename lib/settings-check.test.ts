import { spawnSync } from "node:child_process";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { parseEnv } from "./env";
import { assertSettings, checkSettings, SettingsError } from "./settings-check";

const root = path.resolve(import.meta.dirname, "..");

const BAD = { SESSION_TTL_HOURS: "abc", ALLOWED_ORIGINS: "not-a-url", TRUST_PROXY: "maybe" };

describe("checkSettings", () => {
  it("is empty for the defaults", () => {
    expect(checkSettings({})).toEqual([]);
  });

  it("reports every bad console setting together, each naming its variable", () => {
    const problems = checkSettings(BAD);
    expect(problems).toEqual([
      expect.stringMatching(/^SESSION_TTL_HOURS: .*positive number/),
      expect.stringMatching(/^TRUST_PROXY: must be true or false/),
      expect.stringMatching(/^ALLOWED_ORIGINS\.0: .*origin/),
    ]);
  });

  it("adds the Kafka settings and the authorizer assumptions to the same list", () => {
    const problems = checkSettings({
      ...BAD,
      KAFKA_BOOTSTRAP_SERVERS: "broker-without-port",
      KAFKA_SUPER_USERS: "User:admin;ops",
    });
    expect(problems).toHaveLength(5);
    expect(problems.slice(0, 3).map((p) => p.split(":")[0])).toEqual([
      "SESSION_TTL_HOURS",
      "TRUST_PROXY",
      "ALLOWED_ORIGINS.0",
    ]);
    expect(problems[3]).toContain("KAFKA_BOOTSTRAP_SERVERS must be a comma-separated list of host:port");
    expect(problems[4]).toBe(
      'KAFKA_SUPER_USERS: "ops" is not a principal Type:name (e.g. User:ops); Kafka would refuse to start with it',
    );
  });

  it("refuses a bad DATABASE_POOL_MAX instead of opening a pool of NaN", () => {
    expect(checkSettings({ DATABASE_POOL_MAX: "ten" })).toEqual([
      "DATABASE_POOL_MAX: DATABASE_POOL_MAX must be a positive whole number",
    ]);
    expect(checkSettings({ DATABASE_POOL_MAX: "0" })).toEqual([
      "DATABASE_POOL_MAX: DATABASE_POOL_MAX must be a positive whole number",
    ]);
    expect(parseEnv({ DATABASE_POOL_MAX: "25" }).DATABASE_POOL_MAX).toBe(25);
    expect(parseEnv({}).DATABASE_POOL_MAX).toBe(10);
  });

  it("does not refuse KAFKA_ALLOW_EVERYONE_IF_NO_ACL_FOUND=maybe: Kafka itself reads it as false", () => {
    expect(checkSettings({ KAFKA_ALLOW_EVERYONE_IF_NO_ACL_FOUND: "maybe" })).toEqual([]);
  });
});

describe("assertSettings", () => {
  it("throws one error listing every problem, without a stack trace", () => {
    let error: unknown;
    try {
      assertSettings(BAD);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SettingsError);
    const message = (error as SettingsError).message;
    for (const name of Object.keys(BAD)) expect(message).toContain(`  - ${name}`);
    expect((error as SettingsError).stack).not.toMatch(/\n\s+at /);
  });
});

describe("instrumentation.ts register() (runs when the Next server starts)", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  it("refuses to start: every bad setting printed, exit code 1", async () => {
    vi.stubEnv("NEXT_RUNTIME", "nodejs");
    vi.stubEnv("DATABASE_URL", "");
    for (const [name, value] of Object.entries(BAD)) vi.stubEnv(name, value);
    const printed: string[] = [];
    vi.spyOn(console, "error").mockImplementation((line: unknown) => void printed.push(String(line)));
    const exit = vi.spyOn(process, "exit").mockImplementation((code) => {
      throw new Error(`exit ${code}`);
    });
    const { register } = await import("../instrumentation");
    await expect(register()).rejects.toThrow("exit 1");
    expect(exit).toHaveBeenCalledWith(1);
    expect(printed.join("\n")).toMatch(
      /cannot start[\s\S]*- SESSION_TTL_HOURS[\s\S]*- TRUST_PROXY[\s\S]*- ALLOWED_ORIGINS/,
    );
  });

  it("starts with good settings", async () => {
    vi.stubEnv("NEXT_RUNTIME", "nodejs");
    vi.stubEnv("DATABASE_URL", "");
    const exit = vi.spyOn(process, "exit");
    const { register } = await import("../instrumentation");
    await expect(register()).resolves.toBeUndefined();
    expect(exit).not.toHaveBeenCalled();
  });
});

describe("from a plain script (how the launcher calls it, outside Next)", () => {
  it("a start script calling assertSettings() stops with exit 1 and every problem on stderr", () => {
    // What scripts/start.ts does: its main() awaits, a thrown error is printed and exits 1.
    const script = [
      'import { assertSettings } from "./lib/settings-check.ts";',
      "try { assertSettings(); console.log('settings ok'); }",
      "catch (error) { console.error(`[start] ${error.message}`); process.exit(1); }",
    ].join("\n");
    const run = (env: Record<string, string>) =>
      spawnSync(path.join(root, "node_modules", ".bin", "tsx"), ["--eval", script], {
        cwd: root,
        env: { NODE_ENV: "test", PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
        encoding: "utf8",
        timeout: 60_000,
      });
    const bad = run(BAD);
    expect(bad.status, bad.stderr).toBe(1);
    expect(bad.stderr).toContain("[start] The console cannot start: fix these settings in its environment:");
    for (const name of Object.keys(BAD)) expect(bad.stderr).toContain(`  - ${name}`);
    expect(bad.stderr).not.toMatch(/\n\s+at /);
    const good = run({});
    expect(good.status, good.stderr).toBe(0);
    expect(good.stdout).toContain("settings ok");
  });
});
