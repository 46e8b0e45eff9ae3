import { describe, expect, it } from "vitest";
import { decisionsWaiting, mayChangeExpiry, whyNoExpiryChange, withKeptRows } from "./token-queries";
import type { DecidableRequest, TokenView } from "@/lib/schemas/tokens";

const token = (tokenId: string, over: Partial<TokenView> = {}): TokenView => ({
  tokenId,
  owner: "User:alice",
  requester: "User:alice",
  renewers: [],
  issueTimestamp: 0,
  expiryTimestamp: 10,
  maxTimestamp: 20,
  status: "active",
  mayRenew: true,
  ...over,
});

const request = (id: string, over: Partial<DecidableRequest>): DecidableRequest => ({
  id,
  createdAt: "2026-01-01T00:00:00Z",
  requester: "User:carol",
  owner: "User:svc-orders",
  renewers: [],
  maxLifetimeMs: null,
  reason: "r",
  status: "PENDING",
  approver: null,
  decidedAt: null,
  decisionReason: null,
  tokenId: null,
  hmacDeadline: null,
  retrievable: false,
  claimedBy: null,
  claimedAt: null,
  entitlement: "acl",
  entitlementNote: "",
  ...over,
});

describe("the token page's rules", () => {
  it("counts only open requests the viewer may decide: not their own, not ones being approved", () => {
    expect(
      decisionsWaiting({
        pending: [
          request("1", {}),
          request("2", { entitlement: "ownRequest" }),
          request("3", { status: "APPROVING" }),
          request("4", { entitlement: "superUser" }),
          request("5", { entitlement: "unknown" }),
        ],
      }),
    ).toBe(2);
  });
  it("renew and expire only for the owner or a renewer, and only while the token is active", () => {
    expect(mayChangeExpiry(token("a"))).toBe(true);
    expect(mayChangeExpiry(token("a", { mayRenew: false }))).toBe(false);
    expect(mayChangeExpiry(token("a", { status: "expired" }))).toBe(false);
    expect(whyNoExpiryChange(token("a", { mayRenew: false }))).toContain("you may not renew");
    expect(whyNoExpiryChange(token("a"))).toBeNull();
  });
  it("keeps the rows the page expired after the list drops them", () => {
    const kept = new Map([["gone", token("gone")]]);
    expect(withKeptRows({ tokens: [token("a")], now: 0 }, kept).map((t) => t.tokenId)).toEqual(["a", "gone"]);
    expect(withKeptRows({ tokens: [token("gone"), token("a")], now: 0 }, kept).map((t) => t.tokenId)).toEqual([
      "gone",
      "a",
    ]);
  });
});
