/**
 * Every problem with the console's settings at once, as lib/env.ts reads them, from the
 * modules that check them: the console's own (lib/env.ts) and the clusters
 * (lib/clusters.ts: the CLUSTERS_FILE, or without it where Kafka is and how to reach it,
 * lib/kafka-config.ts, and the authorizer assumptions, lib/authorizer-config.ts).
 * instrumentation.ts calls it when the server starts, the launcher before it starts
 * anything, so `SESSION_TTL_HOURS=abc` stops the start with its reason instead of becoming
 * NaN hours later. Free of Next and of I/O beyond reading the TLS files Kafka is told to
 * use, so a plain script can call it.
 */
import { currentSettings, EnvError, parseEnv, type Settings } from "./env";
import { clusterProblems } from "./clusters";

type Env = Settings;

/** Each problem as one line naming the variable; empty when the settings are fine. */
export function checkSettings(env: Env = currentSettings()): string[] {
  const problems: string[] = [];
  try {
    const settings = parseEnv(env);
    // (0 asks the system for a free port, which differs from the console's.)
    if (
      settings.METRICS_PORT !== undefined &&
      Number(settings.METRICS_PORT) !== 0 &&
      Number(settings.METRICS_PORT) === Number(settings.PORT)
    ) {
      problems.push("METRICS_PORT: must differ from PORT (the metrics get a port of their own)");
    }
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    problems.push(...error.problems);
  }
  problems.push(...clusterProblems(env));
  return problems;
}

export class SettingsError extends Error {
  override name = "SettingsError";
  constructor(readonly problems: string[]) {
    super(
      `The console cannot start: fix these settings in its environment:\n${problems.map((p) => `  - ${p}`).join("\n")}`,
    );
    // For the person starting the console the list is the whole story; a stack trace is noise.
    this.stack = `${this.name}: ${this.message}`;
  }
}

/**
 * For the server start: prints every problem and ends the process with exit code 1.
 * (`next start` only logs a failing instrumentation hook and goes on serving errors.)
 */
export function exitOnBadSettings(env: Env = currentSettings()): void {
  const problems = checkSettings(env);
  if (problems.length === 0) return;
  console.error(new SettingsError(problems).message);
  process.exit(1);
}

/** Throws a SettingsError listing every problem; returns when the settings are fine. */
export function assertSettings(env: Env = currentSettings()): void {
  const problems = checkSettings(env);
  if (problems.length > 0) throw new SettingsError(problems);
}
