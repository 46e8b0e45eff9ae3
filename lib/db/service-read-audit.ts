/**
 * Folding of the service principal's repeated reads on the audit trail
 * (lib/services/service-principal.ts). A page that polls (the token-request badge every
 * 15 s) makes the same read again and again: a successful repeat (same cluster, service
 * principal, user and requests: one fold key) within FOLD_MS of the row it repeats adds 1
 * to that row's repeatCount and sets its lastAt instead of adding a row, as failed sign-ins
 * are folded. Failed reads are never folded.
 */
import { getPrisma } from "./client";

export const FOLD_MS = 10 * 60_000;

/** The latest successful row of `key` written within FOLD_MS, which a repeat folds into; null when there is none. */
export async function foldableServiceRead(key: string, now: Date = new Date()): Promise<string | null> {
  const since = new Date(now.getTime() - FOLD_MS);
  const rows = await getPrisma().$queryRaw<{ id: bigint }[]>`
    SELECT id FROM audit_event
     WHERE source_key = ${key} AND outcome = 'success' AND at > ${since}::timestamptz
     ORDER BY at DESC, id DESC LIMIT 1`;
  return rows[0]?.id.toString() ?? null;
}

/** Counts one more successful read on row `id`. */
export async function foldServiceRead(id: string, now: Date = new Date()): Promise<void> {
  await getPrisma().$executeRaw`
    UPDATE audit_event SET repeat_count = repeat_count + 1, last_at = ${now}::timestamptz
    WHERE id = ${BigInt(id)}`;
}

/** Makes the successful read recorded as row `id` the one later repeats of `key` fold into. */
export async function markFoldable(id: string, key: string): Promise<void> {
  await getPrisma().$executeRaw`UPDATE audit_event SET source_key = ${key} WHERE id = ${BigInt(id)}`;
}
