/**
 * When the journal calls a pause in reading a gap (#20): the minute's job is started by the
 * queue up to a minute or more late, so a short interval must not turn every hand-over
 * between two jobs into a gap, while a console that was down for a while still makes one.
 */
import { describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));
const { readsContinue, QUEUE_SLACK_MS } = await import("./journal");

const at = (seconds: number) => new Date(Date.UTC(2026, 11, 5, 3, 0, 0) + seconds * 1000);

describe("readsContinue", () => {
  it("a read one interval after the last continues the reading", () => {
    expect(readsContinue(at(0), at(60), 60_000)).toBe(true);
  });

  it("with a 10 s interval, a 65 s hand-over between two minutes' jobs is not a gap", () => {
    expect(readsContinue(at(0), at(65), 10_000)).toBe(true);
    expect(readsContinue(at(0), at(10 + QUEUE_SLACK_MS / 1000), 10_000)).toBe(true);
  });

  it("past an interval plus the queue's slack it is a gap", () => {
    expect(readsContinue(at(0), at(10 + QUEUE_SLACK_MS / 1000 + 1), 10_000)).toBe(false);
    expect(readsContinue(at(0), at(3600), 60_000)).toBe(false);
  });

  it("with a long interval, up to two intervals continue the reading", () => {
    expect(readsContinue(at(0), at(2 * 3600), 3600_000)).toBe(true);
    expect(readsContinue(at(0), at(2 * 3600 + 1), 3600_000)).toBe(false);
  });
});
