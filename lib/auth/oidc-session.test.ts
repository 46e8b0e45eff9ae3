import { describe, expect, it } from "vitest";
import { refreshDue } from "./oidc-session";

describe("refreshDue: a single sign-on token is refreshed once two thirds of its life has passed", () => {
  const obtainedAt = 1_000_000;
  const tokens = { obtainedAt, expiresAt: obtainedAt + 300_000 };

  it("not before, so a fresh token is used as it is", () => {
    expect(refreshDue(tokens, obtainedAt)).toBe(false);
    expect(refreshDue(tokens, obtainedAt + 199_999)).toBe(false);
  });

  it("from then on, and after the expiry, so Kafka's re-authentication (at 80 %) gets a new one", () => {
    expect(refreshDue(tokens, obtainedAt + 200_000)).toBe(true);
    expect(refreshDue(tokens, obtainedAt + 240_000)).toBe(true);
    expect(refreshDue(tokens, obtainedAt + 400_000)).toBe(true);
  });

  it("at once for a token that came already expired", () => {
    expect(refreshDue({ obtainedAt, expiresAt: obtainedAt - 1 }, obtainedAt)).toBe(true);
  });
});
