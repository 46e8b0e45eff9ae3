import { describe, expect, it, vi } from "vitest";
import type { AclBinding, AuthorizeRequest } from "@/lib/policy";
import type { AccessCheckAssumptions } from "@/lib/schemas/access-check";
import {
  aclSentence,
  applicableAclsFilter,
  describeRule,
  explainAccessDecision,
  type AccessQuestion,
} from "./access-check-explain";

vi.mock("server-only", () => ({}));
const { readAuthorizerConfig } = await import("@/lib/authorizer-config");

function acl(a: Partial<AclBinding> & Pick<AclBinding, "resourceName" | "principal" | "operation">): AclBinding {
  return { resourceType: "TOPIC", patternType: "LITERAL", host: "*", permissionType: "ALLOW", ...a };
}

// The demo data's story around payments-eu and orders (scripts/seed/demo-data.ts).
const BOB_PREFIX = acl({
  resourceName: "payments-",
  patternType: "PREFIXED",
  principal: "User:bob",
  operation: "READ",
});
const BOB_DENY = acl({ resourceName: "payments-eu", principal: "User:bob", operation: "READ", permissionType: "DENY" });
const BILLING_PREFIX = acl({
  resourceName: "payments-",
  patternType: "PREFIXED",
  principal: "User:svc-billing",
  operation: "READ",
});
const CAROL_ANY_TOPIC = acl({ resourceName: "*", principal: "User:carol", operation: "DESCRIBE" });
const ALICE_ORDERS = acl({ resourceName: "orders", principal: "User:alice", operation: "READ" });
const CAROL_AUDIT_LOCAL = acl({
  resourceName: "audit-log",
  principal: "User:carol",
  operation: "READ",
  host: "127.0.0.1",
});
const NOBODY_DELETES_AUDIT = acl({
  resourceName: "audit-log",
  principal: "User:*",
  operation: "DELETE",
  permissionType: "DENY",
});

const PAYMENTS_EU = [BOB_PREFIX, BOB_DENY, BILLING_PREFIX, CAROL_ANY_TOPIC];
const DEV: AccessCheckAssumptions = {
  superUsers: ["User:admin"],
  allowEveryoneIfNoAclFound: false,
  source: "test",
  warnings: [],
};

const ask = (r: Partial<AuthorizeRequest>): AuthorizeRequest => ({
  principal: "User:bob",
  operation: "READ",
  resourceType: "TOPIC",
  resourceName: "payments-eu",
  host: "127.0.0.1",
  ...r,
});
/** The question without a host (the Access check's default). */
const askFromAnyHost = (r: Partial<AuthorizeRequest>): AccessQuestion => ({ ...ask(r), host: null });

describe("aclSentence", () => {
  it("says who may (not) do what, on which pattern, from where", () => {
    expect(aclSentence(BOB_DENY)).toBe("DENY ACL: User:bob may not READ on TOPIC payments-eu (LITERAL) from *");
    expect(aclSentence(BOB_PREFIX)).toBe("ALLOW ACL: User:bob may READ on TOPIC payments- (PREFIXED) from *");
    expect(aclSentence(acl({ resourceName: "x", principal: "User:*", operation: "ALL", host: "10.0.0.1" }))).toBe(
      "ALLOW ACL: User:* may do ALL operations on TOPIC x (LITERAL) from 10.0.0.1",
    );
  });
});

describe("describeRule", () => {
  it("names the deciding DENY ACL", () => {
    expect(describeRule({ decision: "DENIED", rule: { kind: "acl", acl: BOB_DENY } }, ask({}), DEV)).toBe(
      "DENY ACL: User:bob may not READ on TOPIC payments-eu (LITERAL) from *. A matching DENY wins over every ALLOW.",
    );
  });

  it("names the deciding ALLOW, and the implication when it grants another operation", () => {
    expect(
      describeRule(
        { decision: "ALLOWED", rule: { kind: "acl", acl: ALICE_ORDERS } },
        ask({ principal: "User:alice", resourceName: "orders" }),
        DEV,
      ),
    ).toBe("ALLOW ACL: User:alice may READ on TOPIC orders (LITERAL) from *.");
    expect(
      describeRule(
        { decision: "ALLOWED", rule: { kind: "acl", acl: BOB_PREFIX } },
        ask({ operation: "DESCRIBE" }),
        DEV,
      ),
    ).toBe(
      "ALLOW ACL: User:bob may READ on TOPIC payments- (PREFIXED) from *. An ALLOW for READ also allows DESCRIBE.",
    );
  });

  it("explains super users, no matching ACL and the no-ACL default in words", () => {
    expect(
      describeRule({ decision: "ALLOWED", rule: { kind: "superUser" } }, ask({ principal: "User:admin" }), DEV),
    ).toBe("Super user: User:admin is in super.users, so Kafka allows every operation without looking at ACLs.");
    expect(
      describeRule({ decision: "DENIED", rule: { kind: "noAclMatched" } }, ask({ principal: "User:carol" }), DEV),
    ).toBe(
      "No ACL on this resource matched this principal/operation/host (User:carol, READ, 127.0.0.1), and the " +
        "resource has ACLs, so Kafka denies.",
    );
    expect(describeRule({ decision: "DENIED", rule: { kind: "default" } }, ask({}), DEV)).toBe(
      "No ACLs on this resource: allow.everyone.if.no.acl.found=false denies.",
    );
    expect(
      describeRule({ decision: "ALLOWED", rule: { kind: "default" } }, ask({}), { allowEveryoneIfNoAclFound: true }),
    ).toBe("No ACLs on this resource: allow.everyone.if.no.acl.found=true allows.");
  });
});

describe("explainAccessDecision", () => {
  it("bob READ payments-eu: DENIED by the DENY, which beats his prefixed ALLOW", () => {
    const r = explainAccessDecision(ask({}), PAYMENTS_EU, DEV);
    expect(r.decision).toBe("DENIED");
    expect(r.rule).toEqual({ kind: "acl", acl: BOB_DENY });
    const byMatch = Object.fromEntries(
      r.acls.map((a) => [`${a.principal} ${a.permissionType} ${a.resourceName}`, [a.match, a.detail]]),
    );
    expect(byMatch).toEqual({
      "User:bob DENY payments-eu": ["decides", "A matching DENY wins over every ALLOW"],
      "User:bob ALLOW payments-": ["matches", "Matches, but the DENY wins"],
      "User:svc-billing ALLOW payments-": ["otherPrincipal", "For User:svc-billing, not User:bob"],
      "User:carol ALLOW *": ["otherPrincipal", "For User:carol, not User:bob"],
    });
    // exact name first, then prefixes, then *
    expect(r.acls.map((a) => a.resourceName)).toEqual(["payments-eu", "payments-", "payments-", "*"]);
    expect(r.notes).toContain(
      "An ALLOW cannot help while this DENY matches: remove or narrow the DENY to change the answer.",
    );
    // The implication is followed through: bob may still DESCRIBE payments-eu, through his prefixed READ.
    expect(r.notes).toContain(
      "The DENY on READ does not deny DESCRIBE (DENY ACLs never imply; an ALLOW for READ still grants DESCRIBE). " +
        "Checked on its own, DESCRIBE is ALLOWED: ALLOW ACL: User:bob may READ on TOPIC payments- (PREFIXED) " +
        "from *. An ALLOW for READ also allows DESCRIBE.",
    );
  });

  it("warns that an ACL host written with :: never matches, and does not match it", () => {
    const shortHost = acl({ resourceName: "orders", principal: "User:alice", operation: "READ", host: "::1" });
    const r = explainAccessDecision(
      ask({ principal: "User:alice", resourceName: "orders", host: "0:0:0:0:0:0:0:1" }),
      [shortHost],
      DEV,
    );
    expect(r.decision).toBe("DENIED");
    expect(r.notes.join(" ")).toContain('ACL host ::1 is written with "::"');
  });

  it("bob DESCRIBE payments-eu: ALLOWED through the prefixed READ (a DENY never implies)", () => {
    const r = explainAccessDecision(ask({ operation: "DESCRIBE" }), PAYMENTS_EU, DEV);
    expect(r.decision).toBe("ALLOWED");
    expect(r.rule).toEqual({ kind: "acl", acl: BOB_PREFIX });
    expect(r.acls.find((a) => a.permissionType === "DENY")).toMatchObject({
      match: "otherOperation",
      detail: "DENY READ does not deny DESCRIBE: a DENY never implies",
    });
    expect(r.notes.some((n) => n.startsWith("DESCRIBE is allowed through READ"))).toBe(true);
    expect(r.notes).toContain(
      'The deciding ACL is PREFIXED: it covers every TOPIC whose name starts with "payments-".',
    );
  });

  it("alice READ orders: ALLOWED by her literal ACL, which also grants DESCRIBE", () => {
    const r = explainAccessDecision(
      ask({ principal: "User:alice", resourceName: "orders" }),
      [ALICE_ORDERS, CAROL_ANY_TOPIC],
      DEV,
    );
    expect(r.decision).toBe("ALLOWED");
    expect(r.reason).toBe("ALLOW ACL: User:alice may READ on TOPIC orders (LITERAL) from *.");
    expect(r.acls.filter((a) => a.match === "decides")).toHaveLength(1);
    expect(r.notes).toContain(
      "This ALLOW for READ also allows DESCRIBE on TOPIC orders, unless a DENY for DESCRIBE matches. " +
        "Checked on its own, DESCRIBE is ALLOWED by the same ACL.",
    );
  });

  it("an implied operation can still be denied by its own DENY", () => {
    const noDescribe = acl({
      resourceName: "orders",
      principal: "User:alice",
      operation: "DESCRIBE",
      permissionType: "DENY",
    });
    const r = explainAccessDecision(
      ask({ principal: "User:alice", resourceName: "orders" }),
      [ALICE_ORDERS, noDescribe],
      DEV,
    );
    expect(r.decision).toBe("ALLOWED");
    expect(r.notes.find((n) => n.startsWith("This ALLOW for READ also allows DESCRIBE"))).toContain(
      "Checked on its own, DESCRIBE is DENIED: DENY ACL: User:alice may not DESCRIBE on TOPIC orders (LITERAL) from *.",
    );
  });

  it("a principal with no ACL on a resource that has ACLs: noAclMatched, with the ACL that would allow it", () => {
    const r = explainAccessDecision(
      ask({ principal: "User:carol", resourceName: "orders" }),
      [ALICE_ORDERS, CAROL_ANY_TOPIC],
      DEV,
    );
    expect(r.decision).toBe("DENIED");
    expect(r.rule).toEqual({ kind: "noAclMatched" });
    expect(r.acls.find((a) => a.principal === "User:carol")).toMatchObject({
      match: "otherOperation",
      detail: "DESCRIBE, not READ",
    });
    expect(r.notes).toContain(
      "To allow it, add an ACL such as ALLOW ACL: User:carol may READ on TOPIC orders (LITERAL) from *.",
    );
  });

  it("hosts match as exact strings: carol reads audit-log only from 127.0.0.1", () => {
    const acls = [CAROL_AUDIT_LOCAL, NOBODY_DELETES_AUDIT, CAROL_ANY_TOPIC];
    const local = explainAccessDecision(ask({ principal: "User:carol", resourceName: "audit-log" }), acls, DEV);
    expect(local.decision).toBe("ALLOWED");
    expect(local.notes).toContain(
      "The deciding ACL names host 127.0.0.1: it matches only clients connecting from exactly that address.",
    );
    const away = explainAccessDecision(
      ask({ principal: "User:carol", resourceName: "audit-log", host: "10.0.0.7" }),
      acls,
      DEV,
    );
    expect(away.decision).toBe("DENIED");
    expect(away.acls.find((a) => a.host === "127.0.0.1")).toMatchObject({
      match: "otherHost",
      detail: "Only from 127.0.0.1, not 10.0.0.7",
    });
    expect(away.notes.some((n) => n.includes("name other hosts (127.0.0.1)"))).toBe(true);
  });

  it(
    "without a host, asks from any host no ACL names (as the principal and resource pages do) and lists " +
      "the named host where the answer differs",
    () => {
      const acls = [CAROL_AUDIT_LOCAL, NOBODY_DELETES_AUDIT, CAROL_ANY_TOPIC];
      const r = explainAccessDecision(
        askFromAnyHost({ principal: "User:carol", resourceName: "audit-log" }),
        acls,
        DEV,
      );
      // Kafka: carol's READ is pinned to 127.0.0.1, so from any other address no ACL matches.
      expect(r).toMatchObject({ decision: "DENIED", rule: { kind: "noAclMatched" } });
      expect(r.hosts.assumed).toBe("unnamed");
      expect(r.hosts.statement).toBe("host: any host no ACL names");
      expect(r.request.host).toBe("192.0.2.1");
      expect(r.reason).toContain("(User:carol, READ, any host no ACL names)");
      expect(r.hosts.differing).toEqual([
        {
          host: "127.0.0.1",
          decision: "ALLOWED",
          rule: { kind: "acl", acl: CAROL_AUDIT_LOCAL },
          via: ["from 127.0.0.1"],
          reason: "ALLOW ACL: User:carol may READ on TOPIC audit-log (LITERAL) from 127.0.0.1.",
        },
      ]);
      expect(r.acls.find((a) => a.host === "127.0.0.1")).toMatchObject({
        match: "otherHost",
        detail: "Only from 127.0.0.1, not any host no ACL names",
      });
      // The same question asked from the address the answer names gets the same answer.
      expect(
        explainAccessDecision(
          ask({ principal: "User:carol", resourceName: "audit-log", host: r.request.host }),
          acls,
          DEV,
        ).decision,
      ).toBe("DENIED");
      // A host given: that host, nothing listed beside it.
      const given = explainAccessDecision(
        ask({ principal: "User:carol", resourceName: "audit-log", host: "127.0.0.1" }),
        acls,
        DEV,
      );
      expect(given.hosts).toEqual({ assumed: "given", statement: "host: 127.0.0.1", differing: [] });
    },
  );

  it("without a host, an answer no named host changes lists none; a super user none either", () => {
    const r = explainAccessDecision(
      askFromAnyHost({ principal: "User:carol", operation: "DESCRIBE", resourceName: "audit-log" }),
      [CAROL_AUDIT_LOCAL, CAROL_ANY_TOPIC],
      DEV,
    );
    expect(r).toMatchObject({ decision: "ALLOWED", hosts: { assumed: "unnamed", differing: [] } });
    const admin = explainAccessDecision(
      askFromAnyHost({ principal: "User:admin", resourceName: "audit-log" }),
      [CAROL_AUDIT_LOCAL],
      DEV,
    );
    expect(admin).toMatchObject({ decision: "ALLOWED", rule: { kind: "superUser" }, hosts: { differing: [] } });
  });

  it("User:* ACLs apply to everyone", () => {
    const r = explainAccessDecision(
      ask({ principal: "User:alice", operation: "DELETE", resourceName: "audit-log" }),
      [CAROL_AUDIT_LOCAL, NOBODY_DELETES_AUDIT],
      DEV,
    );
    expect(r.decision).toBe("DENIED");
    expect(r.rule).toEqual({ kind: "acl", acl: NOBODY_DELETES_AUDIT });
    expect(r.notes).toContain("The deciding ACL is for User:*: it applies to every principal, of any type.");
  });

  it("a super user is allowed whatever the ACLs say", () => {
    const r = explainAccessDecision(ask({ principal: "User:admin" }), PAYMENTS_EU, DEV);
    expect(r).toMatchObject({ decision: "ALLOWED", rule: { kind: "superUser" } });
    expect(r.acls.every((a) => a.match !== "decides")).toBe(true);
  });

  it("no ACL at all: the allow.everyone.if.no.acl.found default decides", () => {
    const denied = explainAccessDecision(ask({ resourceType: "GROUP", resourceName: "reports" }), [], DEV);
    expect(denied).toMatchObject({
      decision: "DENIED",
      rule: { kind: "default" },
      reason: "No ACLs on this resource: allow.everyone.if.no.acl.found=false denies.",
    });
    const open = explainAccessDecision(ask({ resourceType: "GROUP", resourceName: "reports" }), [], {
      ...DEV,
      allowEveryoneIfNoAclFound: true,
    });
    expect(open).toMatchObject({ decision: "ALLOWED", rule: { kind: "default" } });
    expect(open.notes.some((n) => n.startsWith("Everyone is allowed only because no ACL applies"))).toBe(true);
  });

  it("marks a LITERAL * that Kafka's authorizer skips for a name starting with *", () => {
    const wildcard = acl({ resourceType: "GROUP", resourceName: "*", principal: "User:bob", operation: "READ" });
    const r = explainAccessDecision(ask({ resourceType: "GROUP", resourceName: "*orders" }), [wildcard], DEV);
    expect(r.acls[0]?.match).toBe("skipped");
    expect(r.decision).toBe("DENIED");
  });

  it("points at the other permission Kafka accepts for creating topics and idempotent producing", () => {
    const create = explainAccessDecision(ask({ operation: "CREATE" }), PAYMENTS_EU, DEV);
    expect(create.notes.some((n) => n.includes("CREATE on CLUSTER kafka-cluster"))).toBe(true);
    const idem = explainAccessDecision(
      ask({ operation: "IDEMPOTENT_WRITE", resourceType: "CLUSTER", resourceName: "kafka-cluster" }),
      [],
      DEV,
    );
    expect(idem.notes.some((n) => n.includes("WRITE at least one topic"))).toBe(true);
  });
});

describe("readAuthorizerConfig", () => {
  it("assumes the dev broker's super user when no bootstrap servers are configured", () => {
    expect(readAuthorizerConfig({})).toMatchObject({
      superUsers: ["User:admin"],
      allowEveryoneIfNoAclFound: false,
      warnings: [],
    });
  });

  it("assumes no super users for a configured cluster without KAFKA_SUPER_USERS", () => {
    expect(readAuthorizerConfig({ KAFKA_BOOTSTRAP_SERVERS: "kafka-1:9092" }).superUsers).toEqual([]);
  });

  it("reads super.users like Kafka: ;-separated, trimmed, empty entries skipped, bad ones reported", () => {
    const c = readAuthorizerConfig({
      KAFKA_BOOTSTRAP_SERVERS: "kafka-1:9092",
      KAFKA_SUPER_USERS: " User:ops ; ;User:CN=broker,O=acme;bob ",
    });
    expect(c.superUsers).toEqual(["User:ops", "User:CN=broker,O=acme"]);
    expect(c.source).toBe("KAFKA_SUPER_USERS");
    expect(c.warnings).toEqual(['KAFKA_SUPER_USERS entry "bob" is not Type:name (e.g. User:bob); it is ignored.']);
  });

  it("reads allow.everyone.if.no.acl.found like Boolean.parseBoolean", () => {
    expect(readAuthorizerConfig({ KAFKA_ALLOW_EVERYONE_IF_NO_ACL_FOUND: " TRUE " }).allowEveryoneIfNoAclFound).toBe(
      true,
    );
    expect(readAuthorizerConfig({ KAFKA_ALLOW_EVERYONE_IF_NO_ACL_FOUND: "false" })).toMatchObject({
      allowEveryoneIfNoAclFound: false,
      warnings: [],
    });
    const odd = readAuthorizerConfig({ KAFKA_ALLOW_EVERYONE_IF_NO_ACL_FOUND: "yes" });
    expect(odd.allowEveryoneIfNoAclFound).toBe(false);
    expect(odd.warnings[0]).toContain("Kafka reads it as false");
  });
});

describe("applicableAclsFilter", () => {
  it("asks Kafka for every ACL that applies to the resource, for anyone", () => {
    expect(applicableAclsFilter({ resourceType: "TOPIC", resourceName: "orders" })).toEqual({
      resourceType: "TOPIC",
      resourceName: "orders",
      patternType: "MATCH",
      principal: null,
      host: null,
      operation: "ANY",
      permissionType: "ANY",
    });
  });
});
