/**
 * Slows down repeated failed sign-ins from one client. After FREE_FAILURES failures
 * within WINDOW_MS, each further attempt must wait an exponentially growing delay
 * (1 s, 2 s, 4 s, ... capped at MAX_DELAY_MS) counted from the last failure. A
 * success clears the client's record. In-memory: one console instance's view; several
 * instances each slow their own share, which is the intent (slow, not lock out).
 */

const FREE_FAILURES = 3;
const WINDOW_MS = 15 * 60_000;
const MAX_DELAY_MS = 60_000;
const MAX_TRACKED = 10_000;

interface Record {
  failures: number;
  lastFailureAt: number;
}

export class SignInThrottle {
  private readonly records = new Map<string, Record>();

  constructor(private readonly clock: () => number = Date.now) {}

  /** Milliseconds the client must still wait before its next attempt (0 = go ahead). */
  retryAfterMs(clientKey: string): number {
    const record = this.current(clientKey);
    if (!record || record.failures < FREE_FAILURES) return 0;
    const delay = Math.min(MAX_DELAY_MS, 1000 * 2 ** (record.failures - FREE_FAILURES));
    return Math.max(0, record.lastFailureAt + delay - this.clock());
  }

  recordFailure(clientKey: string): void {
    const record = this.current(clientKey) ?? { failures: 0, lastFailureAt: 0 };
    record.failures += 1;
    record.lastFailureAt = this.clock();
    this.records.delete(clientKey);
    this.records.set(clientKey, record);
    if (this.records.size > MAX_TRACKED) {
      const oldest = this.records.keys().next().value;
      if (oldest !== undefined) this.records.delete(oldest);
    }
  }

  recordSuccess(clientKey: string): void {
    this.records.delete(clientKey);
  }

  private current(clientKey: string): Record | undefined {
    const record = this.records.get(clientKey);
    if (record && this.clock() - record.lastFailureAt > WINDOW_MS) {
      this.records.delete(clientKey);
      return undefined;
    }
    return record;
  }
}

const globalForThrottle = globalThis as unknown as { signInThrottle?: SignInThrottle };
export const signInThrottle = (globalForThrottle.signInThrottle ??= new SignInThrottle());
