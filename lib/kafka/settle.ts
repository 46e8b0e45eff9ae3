/**
 * Read-your-writes for the console. Kafka answers CreateAcls, AlterClientQuotas,
 * AlterUserScramCredentials and CreateDelegationToken once the controller has committed
 * the change; the broker that serves the next describe (and the authorizer, the SCRAM
 * and token caches) applies it a moment later. A page that lists right after a change
 * would otherwise show the old state, so writes wait, briefly and best-effort, until a
 * describe shows the change.
 */
export const SETTLE_TIMEOUT_MS = 3_000;

export async function settle(isVisible: () => Promise<boolean>, timeoutMs = SETTLE_TIMEOUT_MS): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  let delay = 20;
  for (;;) {
    try {
      if (await isVisible()) return true;
    } catch {
      // The describe itself may be refused (no DESCRIBE permission): nothing to wait for.
      return false;
    }
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, 200);
  }
}
