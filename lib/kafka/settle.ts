/**
 * Read-your-writes for the console. Kafka answers CreateAcls, AlterClientQuotas,
 * AlterUserScramCredentials and CreateDelegationToken once the controller has committed
 * the change; the broker that serves the next describe (and the authorizer, the SCRAM
 * and token caches) applies it a moment later. A page that lists right after a change
 * would otherwise show the old state, so writes wait, briefly and best-effort, until a
 * describe shows the change.
 *
 * Each pass is one whole check (one describe); passes repeat with a growing pause until
 * one succeeds or the deadline passes. The deadline also bounds a pass still running:
 * its answer is no longer awaited (the request finishes on its own, unobserved), so a
 * slow describe cannot hold a write past SETTLE_TIMEOUT_MS.
 */
export const SETTLE_TIMEOUT_MS = 3_000;

const TIMED_OUT = Symbol("timed out");

/** `work`, or TIMED_OUT when it has not finished within `ms` (its later failure is swallowed). */
async function within<T>(work: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), Math.max(0, ms));
    timer.unref?.();
  });
  work.catch(() => undefined);
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Whether `isVisible` said yes before the deadline. Each call of `isVisible` is one pass. */
export async function settle(isVisible: () => Promise<boolean>, timeoutMs = SETTLE_TIMEOUT_MS): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  let delay = 20;
  for (;;) {
    let visible: boolean | typeof TIMED_OUT;
    try {
      visible = await within(isVisible(), deadline - Date.now());
    } catch {
      // The describe itself may be refused (no DESCRIBE permission): nothing to wait for.
      return false;
    }
    if (visible === true) return true;
    if (visible === TIMED_OUT || Date.now() + delay >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, 200);
  }
}
