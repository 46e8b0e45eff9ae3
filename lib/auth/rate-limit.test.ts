import { describe, expect, it } from "vitest";
import { SignInThrottle } from "./rate-limit";

describe("SignInThrottle", () => {
  it("lets the first three failures through, then makes the client wait longer each time", () => {
    let now = 1_000_000;
    const throttle = new SignInThrottle(() => now);
    for (let i = 0; i < 3; i++) {
      expect(throttle.retryAfterMs("10.0.0.1")).toBe(0);
      throttle.recordFailure("10.0.0.1");
    }
    expect(throttle.retryAfterMs("10.0.0.1")).toBe(1000);
    now += 1000;
    expect(throttle.retryAfterMs("10.0.0.1")).toBe(0);
    throttle.recordFailure("10.0.0.1");
    expect(throttle.retryAfterMs("10.0.0.1")).toBe(2000);
    // another client is unaffected
    expect(throttle.retryAfterMs("10.0.0.2")).toBe(0);
  });

  it("forgets a client after a success", () => {
    const throttle = new SignInThrottle(() => 5);
    for (let i = 0; i < 5; i++) throttle.recordFailure("c");
    expect(throttle.retryAfterMs("c")).toBeGreaterThan(0);
    throttle.recordSuccess("c");
    expect(throttle.retryAfterMs("c")).toBe(0);
  });

  it("caps the delay at one minute and forgets failures after the window", () => {
    let now = 0;
    const throttle = new SignInThrottle(() => now);
    for (let i = 0; i < 30; i++) throttle.recordFailure("c");
    expect(throttle.retryAfterMs("c")).toBe(60_000);
    now += 16 * 60_000;
    expect(throttle.retryAfterMs("c")).toBe(0);
  });
});
