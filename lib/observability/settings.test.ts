import { describe, expect, it } from "vitest";
import { parseEnv } from "../env";
import { checkSettings } from "../settings-check";

describe("the settings for running it for real", () => {
  it("defaults: no metrics anywhere, info logs, 8 s to drain", () => {
    const settings = parseEnv({});
    expect(settings.METRICS_PORT).toBeUndefined();
    expect(settings.METRICS_TOKEN).toBeUndefined();
    expect(settings.LOG_LEVEL).toBe("info");
    expect(settings.SHUTDOWN_TIMEOUT_SECONDS).toBe(8);
  });

  it("refuses a short metrics token, a metrics port that is the console's, a bad level or timeout, all at once", () => {
    const problems = checkSettings({
      METRICS_TOKEN: "short",
      METRICS_PORT: "3000",
      PORT: "3000",
      LOG_LEVEL: "loud",
      SHUTDOWN_TIMEOUT_SECONDS: "-1",
    }).join("\n");
    expect(problems).toContain("METRICS_TOKEN must be at least 24 characters");
    expect(problems).toContain("LOG_LEVEL must be one of");
    expect(problems).toContain("SHUTDOWN_TIMEOUT_SECONDS must be a positive number");
    expect(checkSettings({ METRICS_PORT: "3000", PORT: "3000" }).join("\n")).toContain(
      "METRICS_PORT: must differ from PORT",
    );
    expect(checkSettings({ METRICS_PORT: "9464", METRICS_TOKEN: "x".repeat(24), LOG_LEVEL: "debug" })).toEqual([]);
  });

  it("lets the heap grow 20% past what the last full collection kept, unless told otherwise", () => {
    expect(parseEnv({}).HEAP_GROWING_PERCENT).toBe(20);
    expect(parseEnv({ HEAP_GROWING_PERCENT: "0" }).HEAP_GROWING_PERCENT).toBe(0);
    const problems = checkSettings({ HEAP_GROWING_PERCENT: "lots" }).join("\n");
    expect(problems).toContain("HEAP_GROWING_PERCENT must be a whole number");
    expect(checkSettings({ HEAP_GROWING_PERCENT: "1000" }).join("\n")).toContain(
      "HEAP_GROWING_PERCENT must be at most 300",
    );
  });
});
