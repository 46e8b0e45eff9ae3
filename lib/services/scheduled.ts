/**
 * The console's scheduled work (#19), on the job queue (lib/jobs/queue.ts):
 *
 *   grant-expiry   one job per grant, queued for its expiry (its id is the grant's, so it
 *                  is queued once): removes what the grant created (removeExpiredGrant);
 *                  a failure is retried with backoff.
 *   grant-expiring a grant's "expiring soon" notification, 15 minutes before its expiry.
 *   webhook        one notification to the cluster's webhook (webhooks.ts), retried with
 *                  backoff; each failed attempt is in the audit trail.
 *   journal-read   every minute, one at a time (a singleton queue, and an advisory lock per
 *                  cluster inside): the history journal's background reads (journal.ts); a
 *                  job left active by a killed instance expires after 2 minutes.
 *   sweep          every minute, on one instance: every grant past its expiry and not
 *                  ended (a job lost, an instance killed at the moment, a broker that was
 *                  down) and every request past its timeout. Each removal is claimed in the
 *                  database first, so a grant is removed once however many run it.
 */
import "server-only";
import { dueGrants } from "@/lib/db/access-grant";
import { startJobQueue, type JobQueue } from "@/lib/jobs/queue";
import { GRANT_EXPIRING_JOB, GRANT_EXPIRY_JOB, notifyExpiringSoon, removeExpiredGrant } from "./grants";
import { deliverWebhook, WEBHOOK_JOB } from "./webhooks";
import { timeOutDueRequests } from "./requests";
import { JOURNAL_READ_JOB, journalReadsForAMinute } from "./journal";

export const SWEEP_JOB = "sweep";

/** One pass of the sweep: due grants removed (failures left for the next pass), timed-out requests closed. */
export async function sweep(now = new Date()): Promise<{ removed: number; failed: number; timedOut: number }> {
  let removed = 0;
  let failed = 0;
  for (const grant of await dueGrants(now)) {
    try {
      const r = await removeExpiredGrant(grant.id, now);
      if (r.outcome !== "not-due") removed += 1;
    } catch {
      failed += 1;
    }
  }
  const timedOut = await timeOutDueRequests(now);
  return { removed, failed, timedOut };
}

export function startScheduledWork(
  databaseUrl: string,
  options: { pollingIntervalSeconds?: number; log?: (line: string) => void } = {},
): Promise<JobQueue> {
  return startJobQueue(
    databaseUrl,
    {
      [GRANT_EXPIRY_JOB]: {
        handler: async (data) => {
          if (typeof data.grantId === "string") await removeExpiredGrant(data.grantId);
        },
      },
      [GRANT_EXPIRING_JOB]: {
        retryLimit: 3,
        handler: async (data) => {
          if (typeof data.grantId === "string") await notifyExpiringSoon(data.grantId);
        },
      },
      [WEBHOOK_JOB]: {
        retryLimit: 8,
        retryDelayMaxSeconds: 900,
        handler: (data) => deliverWebhook(data),
      },
      [JOURNAL_READ_JOB]: {
        cron: "* * * * *",
        retryLimit: 0,
        policy: "singleton",
        // A minute's reads end within a minute or so; a job of an instance killed mid-run must
        // not block the next ones for long (each read also holds an advisory lock, so a job
        // expired while still reading cannot read twice).
        expireInSeconds: 120,
        handler: () => journalReadsForAMinute({ log: options.log }),
      },
      [SWEEP_JOB]: {
        cron: "* * * * *",
        retryLimit: 0,
        handler: async () => {
          await sweep();
        },
      },
    },
    options,
  );
}
