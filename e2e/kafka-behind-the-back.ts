/**
 * Changes ACLs straight through Kafka's admin API as admin, from a process of its own:
 * a change "behind the console's back" (what another team or kafka-acls.sh would do),
 * which the console learns of only by asking Kafka again. Used by e2e/plans.spec.ts.
 *
 *   node --import tsx e2e/kafka-behind-the-back.ts create|delete '<JSON array of bindings>'
 */
import { createAcls, deleteAcls } from "../lib/kafka/acls";
import { closeAllConnections } from "../lib/kafka/client";
import type { AclBinding } from "../lib/policy";

const ADMIN = { username: "admin", password: "admin-secret", mechanism: "SCRAM-SHA-512" as const };

async function main() {
  const [action, json] = process.argv.slice(2);
  const bindings = JSON.parse(json ?? "[]") as AclBinding[];
  if (action === "create") {
    const results = await createAcls(ADMIN, bindings);
    const failed = results.filter((r) => r.error !== null);
    if (failed.length > 0) throw new Error(`Kafka refused: ${failed.map((r) => r.error?.message).join("; ")}`);
  } else if (action === "delete") {
    await deleteAcls(
      ADMIN,
      bindings.map((b) => ({ ...b })),
    );
  } else {
    throw new Error(`unknown action ${action}`);
  }
  await closeAllConnections();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
