/**
 * A broker of a test's own (scripts/kafka.sh with a private state dir and ports), for
 * integration tests that must stop, restart or reconfigure a broker without disturbing
 * the shared dev broker other suites use. The jars must be there already (the shared
 * broker's start fetched them).
 */
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { verifyCredentials } from "@/lib/kafka/client";
import type { KafkaCredential } from "@/lib/kafka/types";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

export interface PrivateBroker {
  /** 127.0.0.1:<port>, the SASL_PLAINTEXT listener. */
  bootstrap: string;
  stateDir: string;
  stop(): void;
  start(): void;
  /** Stops the broker and removes its state dir. */
  destroy(): void;
}

/**
 * Starts a single-node broker on `port` (controller `port + 1`; scripts/kafka.sh's other
 * listeners take the ports after it) in `stateDir`, formatted on first start with the dev
 * broker's users and settings.
 */
export function startPrivateBroker(stateDir: string, port: number, heap = "-Xmx512m -Xms128m"): PrivateBroker {
  const env = {
    ...process.env,
    KAFKA_STATE_DIR: stateDir,
    KAFKA_PORT: String(port),
    KAFKA_CONTROLLER_PORT: String(port + 1),
    KAFKA_HEAP: heap,
  };
  const run = (command: "start" | "stop") => {
    const r = spawnSync("bash", [path.join(ROOT, "scripts", "kafka.sh"), command], {
      env,
      encoding: "utf8",
      timeout: 240_000,
    });
    if (r.status !== 0)
      throw new Error(`kafka.sh ${command} (${stateDir}) failed: ${r.stderr || r.stdout || r.error?.message}`);
  };
  const broker: PrivateBroker = {
    bootstrap: `127.0.0.1:${port}`,
    stateDir,
    start: () => run("start"),
    stop: () => run("stop"),
    destroy: () => {
      try {
        run("stop");
      } finally {
        rmSync(stateDir, { recursive: true, force: true });
      }
    },
  };
  broker.start();
  return broker;
}

/**
 * Until the broker authenticates `credential` (60 s at most): a broker that has just
 * opened its port may still be loading the metadata that holds its SCRAM credentials.
 */
export async function untilSignsIn(credential: KafkaCredential, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await verifyCredentials(credential);
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}
