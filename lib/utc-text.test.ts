import { describe, expect, it } from "vitest";
import { utcText } from "./utc-text";

describe("utcText", () => {
  it("writes an instant in UTC to the second, without milliseconds, whatever it is given as", () => {
    expect(utcText("2026-11-03T14:00:05.123Z")).toBe("2026-11-03 14:00:05 UTC");
    expect(utcText("2026-11-03T14:00:05Z")).toBe("2026-11-03 14:00:05 UTC");
    expect(utcText(new Date(Date.UTC(2026, 10, 3, 14, 0, 5, 999)))).toBe("2026-11-03 14:00:05 UTC");
    expect(utcText("2026-11-03T15:00:05+01:00")).toBe("2026-11-03 14:00:05 UTC");
  });

  it("writes it to the minute when asked", () => {
    expect(utcText("2026-11-03T14:59:59.999Z", "minutes")).toBe("2026-11-03 14:59 UTC");
  });
});
