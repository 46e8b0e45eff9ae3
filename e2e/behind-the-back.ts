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
