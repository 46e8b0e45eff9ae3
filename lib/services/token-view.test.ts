import { describe, expect, it } from "vitest";
import type { AclBinding, DelegationToken } from "@/lib/policy";
import {
  approverEntitlement,
  expiryPhrase,
  formatDuration,
  formatLifetime,
  formatRelative,
  toTokenView,
  tokenStatus,
  type ApproverEvidence,
} from "./token-view";

const H = 3_600_000;
const NOW = 1_800_000_000_000;
const token: DelegationToken = {
  tokenId: "tok",
  hmac: "SECRET==",
  owner: "User:alice",
  requester: "User:alice",
  renewers: ["User:bob"],
  issueTimestamp: NOW - H,
  expiryTimestamp: NOW + 23 * H,
  maxTimestamp: NOW + 167 * H,
};

describe("formatDuration / formatRelative", () => {
  it("uses at most two units", () => {
    expect(formatDuration(30_000)).toBe("30 s");
    expect(formatDuration(5 * 60_000)).toBe("5 min");
    expect(formatDuration(90 * 60_000)).toBe("1 h 30 min");
    expect(formatDuration(23 * H)).toBe("23 h");
    expect(formatDuration(7 * 24 * H)).toBe("7 d");
    expect(formatDuration(30 * H)).toBe("1 d 6 h");
  });
  it("says in or ago", () => {
    expect(formatRelative(NOW + 23 * H, NOW)).toBe("in 23 h");
    expect(formatRelative(NOW - 5 * 60_000, NOW)).toBe("5 min ago");
  });
  it("lifetime null is the broker's default", () => {
    expect(formatLifetime(null)).toMatch(/broker default/);
    expect(formatLifetime(2 * 24 * H)).toBe("2 d");
  });
});

describe("tokenStatus / expiryPhrase", () => {
  it("is expired strictly past the expiry or the max", () => {
    expect(tokenStatus(token, NOW)).toBe("active");
    expect(tokenStatus(token, token.expiryTimestamp)).toBe("active");
    expect(tokenStatus(token, token.expiryTimestamp + 1)).toBe("expired");
    expect(tokenStatus({ ...token, maxTimestamp: NOW - 1 }, NOW)).toBe("expired");
  });
  it("says when it expires", () => {
    expect(expiryPhrase(token, NOW)).toBe("expires in 23 h");
    expect(expiryPhrase({ ...token, expiryTimestamp: NOW - 2 * H }, NOW)).toBe("expired 2 h ago");
  });
});

describe("toTokenView", () => {
  it("never carries the HMAC, and says whether the viewer may renew", () => {
    const v = toTokenView(token, "User:bob", NOW);
    expect(JSON.stringify(v)).not.toContain("SECRET");
    expect(v.mayRenew).toBe(true);
    expect(toTokenView(token, "User:carol", NOW).mayRenew).toBe(false);
  });
});

describe("approverEntitlement", () => {
  const bobCreates: AclBinding = {
    resourceType: "USER",
    resourceName: "User:svc-orders",
    patternType: "LITERAL",
    principal: "User:bob",
    host: "*",
    operation: "CREATE_TOKENS",
    permissionType: "ALLOW",
  };
  const evidence = (e: Partial<ApproverEvidence> = {}): ApproverEvidence => ({
    config: { superUsers: new Set(["User:admin"]) },
    acls: [bobCreates],
    createdFor: new Set(),
    ...e,
  });
  const req = { requester: "User:carol", owner: "User:svc-orders" };

  it("follows Kafka's create check: owner, super user, CREATE_TOKENS on USER:<owner>", () => {
    expect(approverEntitlement("User:svc-orders", req, evidence()).entitlement).toBe("owner");
    expect(approverEntitlement("User:admin", req, evidence()).entitlement).toBe("superUser");
    expect(approverEntitlement("User:bob", req, evidence()).entitlement).toBe("acl");
    expect(approverEntitlement("User:alice", req, evidence()).entitlement).toBe("notEntitled");
  });
  it(
    "decides from any host no ACL names, as every page does by default: CREATE_TOKENS pinned to one host " +
      "does not entitle",
    () => {
      expect(
        approverEntitlement("User:bob", req, evidence({ acls: [{ ...bobCreates, host: "127.0.0.1" }] })).entitlement,
      ).toBe("notEntitled");
    },
  );
  it("a DENY wins over bob's ALLOW", () => {
    const deny = { ...bobCreates, permissionType: "DENY" as const };
    expect(approverEntitlement("User:bob", req, evidence({ acls: [bobCreates, deny] })).entitlement).toBe(
      "notEntitled",
    );
  });
  it("never lets the requester approve their own request", () => {
    expect(approverEntitlement("User:carol", req, evidence()).entitlement).toBe("ownRequest");
  });
  it("without readable ACLs: earlier tokens for the owner are evidence, otherwise unknown", () => {
    expect(
      approverEntitlement("User:bob", req, evidence({ acls: null, createdFor: new Set(["User:svc-orders"]) }))
        .entitlement,
    ).toBe("createdBefore");
    const unknown = approverEntitlement("User:alice", req, evidence({ acls: null }));
    expect(unknown.entitlement).toBe("unknown");
    expect(unknown.note).toContain("CREATE_TOKENS on USER User:svc-orders");
  });
});
