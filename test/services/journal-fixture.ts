/**
 * The setup every history-journal integration test (#20) shares, as vitest hooks: a migrated
 * database of its own; the default cluster without approvals, read by the dev service principal,
 * at an interval of 30 s; the journal's and the audit rights' memory of this process forgotten.
 * Afterwards the test's own clean-up (`first`), then this run's ACLs (`mark`) removed, the
 * settings restored and the database dropped.
 *
 * Import it after `vi.mock("server-only", ...)`.
 */
import { afterAll, beforeAll } from "vitest";
import { cleanUp, setEnv, useDevServicePrincipal } from "./grant-fixtures";

export function journalTestCluster(purpose: string, mark: string, first?: () => Promise<void>): void {
  let db: { teardown(): Promise<void> } | undefined;
  let restoreEnv: () => void = () => undefined;
  beforeAll(async () => {
    const { useMigratedTestDatabase } = await import("@/test/db");
    db = await useMigratedTestDatabase(purpose);
    restoreEnv = setEnv({
      KAFKA_REQUIRED_APPROVALS: undefined,
      KAFKA_SERVICE_CREDENTIALS_FILE: undefined,
      KAFKA_HISTORY_INTERVAL_SECONDS: "30",
    });
    await useDevServicePrincipal();
    (await import("@/lib/services/journal")).forgetJournalStateForTests();
    (await import("@/lib/services/audit-view")).clearAuditRightsCache();
  });
  afterAll(async () => {
    await first?.();
    await cleanUp(mark, restoreEnv, db);
  });
}
