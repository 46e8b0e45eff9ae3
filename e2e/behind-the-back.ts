import { expect, type APIRequestContext } from "@playwright/test";
import { spawn } from "node:child_process";

export type Binding = {
  resourceType: string;
  resourceName: string;
  patternType: string;
  principal: string;
  host: string;
  operation: string;
  permissionType: string;
};

/**
 * An ACL change made through Kafka's admin API by another process (e2e/kafka-behind-the-back.ts): the console is not
 * told.
 */
export function behindTheConsolesBack(action: "create" | "delete", bindings: Binding[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "e2e/kafka-behind-the-back.ts", action, JSON.stringify(bindings)],
      { stdio: ["ignore", "inherit", "pipe"] },
    );
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`kafka-behind-the-back ${action} failed: ${stderr}`)),
    );
    child.on("error", reject);
  });
}

/** Basic credentials of a demo user (password `<name>-secret`). */
export const basic = (user: string) => `Basic ${Buffer.from(`${user}:${user}-secret`).toString("base64")}`;

/** An ALLOW binding on the LITERAL topic `topic` for `principal` from any host. */
export const topicBinding = (topic: string, principal: string, operation: string): Binding => ({
  resourceType: "TOPIC",
  resourceName: topic,
  patternType: "LITERAL",
  principal,
  host: "*",
  operation,
  permissionType: "ALLOW",
});

/**
 * Waits until the console's history journal has begun (its first background read, which records
 * the state, not changes): the instant it began. Outside changes are journalled only after it.
 */
export async function journalBegun(request: APIRequestContext): Promise<string> {
  const seen: { since: string | null } = { since: null };
  await expect
    .poll(
      async () => {
        const r = await request.get("/api/v1/drift?limit=1", { headers: { Authorization: basic("admin") } });
        expect(r.status(), await r.text()).toBe(200);
        seen.since = ((await r.json()) as { reading: { since: string | null } }).reading.since;
        return seen.since;
      },
      { timeout: 100_000, intervals: [2_000] },
    )
    .not.toBeNull();
  if (seen.since === null) throw new Error("the journal has not begun");
  return seen.since;
}
