/**
 * Ported from core/src/test/scala/unit/kafka/security/authorizer/BaseAuthorizerTest.scala
 * (every testAuthorizeByResourceType* case) and AuthorizerTest.scala
 * (testAuthorizeByResourceTypeNoAclFoundOverride). Each step of the Kafka test (add an
 * ACL, then assert) is one row: the ACLs present at that point and the expected answer.
 */
import { describe, expect, it } from "vitest";
import type { AclBinding, AclOperation, ResourceType } from "../types";
import { authorizeByResourceType } from "./authorize";
import type { AuthorizerConfig } from "./model";
import { acl } from "@/test/policy/acl-helpers";

const user1 = "User:user1";
const user2 = "User:user2";
const host1 = "192.168.1.1";
const host2 = "192.168.1.2";

type Step = [
  description: string,
  acls: AclBinding[],
  principal: string,
  host: string,
  op: AclOperation,
  type: ResourceType,
  expected: "ALLOWED" | "DENIED",
];

function run(steps: Step[], config?: AuthorizerConfig): void {
  for (const [description, acls, principal, host, operation, resourceType, expected] of steps) {
    expect(
      authorizeByResourceType(acls, { principal, host, operation, resourceType }, config).decision,
      description,
    ).toBe(expected);
  }
}

describe("authorizeByResourceType — BaseAuthorizerTest", () => {
  it("testAuthorizeByResourceTypeMultipleAddAndRemove", () => {
    const allowRead = acl("TOPIC", "sb1-6a", "LITERAL", user1, host1, "READ", "ALLOW");
    const denyRead = acl("TOPIC", "sb1-6a", "LITERAL", user1, host1, "READ", "DENY");
    run([
      ["no ACL", [], user1, host1, "READ", "TOPIC", "DENIED"],
      ["allow", [allowRead], user1, host1, "READ", "TOPIC", "ALLOWED"],
      ["allow + deny on the same literal", [allowRead, denyRead], user1, host1, "READ", "TOPIC", "DENIED"],
    ]);
  });

  it("testAuthorizeByResourceTypeIsolationUnrelatedDenyWontDominateAllow", () => {
    const r1 = "sb1-aa";
    const r2 = "sb2-bb";
    const acls = [
      acl("TOPIC", r1, "LITERAL", user1, host1, "READ", "DENY"),
      acl("TOPIC", r1, "LITERAL", user2, host1, "READ", "DENY"),
      acl("TOPIC", r1, "LITERAL", user1, host2, "WRITE", "DENY"),
      acl("TOPIC", r1, "LITERAL", user2, host2, "READ", "DENY"),
      acl("TOPIC", r1, "LITERAL", user1, host2, "READ", "ALLOW"),
      acl("TOPIC", r2, "LITERAL", user1, host2, "READ", "DENY"),
      acl("GROUP", "s", "PREFIXED", user1, host2, "READ", "DENY"),
    ];
    run([
      ["u1h1 topic", acls, user1, host1, "READ", "TOPIC", "DENIED"],
      ["u1h1 group", acls, user1, host1, "READ", "GROUP", "DENIED"],
      ["u1h1 transactional id", acls, user1, host1, "READ", "TRANSACTIONAL_ID", "DENIED"],
      ["u1h1 cluster", acls, user1, host1, "READ", "CLUSTER", "DENIED"],
      ["u1h2 topic", acls, user1, host2, "READ", "TOPIC", "ALLOWED"],
    ]);
  });

  it("testAuthorizeByResourceTypeDenyTakesPrecedence", () => {
    const allow = acl("TOPIC", "sb1-x", "LITERAL", user1, host1, "WRITE", "ALLOW");
    const deny = acl("TOPIC", "sb1-x", "LITERAL", user1, host1, "WRITE", "DENY");
    run([
      ["allow", [allow], user1, host1, "WRITE", "TOPIC", "ALLOWED"],
      ["allow + deny", [allow, deny], user1, host1, "WRITE", "TOPIC", "DENIED"],
    ]);
  });

  it("testAuthorizeByResourceTypePrefixedResourceDenyDominate", () => {
    const allow = (name: string) => acl("GROUP", name, "PREFIXED", user1, host1, "READ", "ALLOW");
    const deny = (name: string) => acl("GROUP", name, "PREFIXED", user1, host1, "READ", "DENY");
    const s1 = [allow("abcde")];
    const s2 = [...s1, deny("abcd")];
    const s3 = [...s2, allow("abc")];
    const s4 = [...s3, deny("a")];
    const s5 = [...s4, allow("ab")];
    run([
      ["allow abcde", s1, user1, host1, "READ", "GROUP", "ALLOWED"],
      ["deny abcd dominates abcde", s2, user1, host1, "READ", "GROUP", "DENIED"],
      ["allow abc is not dominated", s3, user1, host1, "READ", "GROUP", "ALLOWED"],
      ["deny a dominates all", s4, user1, host1, "READ", "GROUP", "DENIED"],
      ["allow ab still dominated", s5, user1, host1, "READ", "GROUP", "DENIED"],
    ]);
  });

  it("testAuthorizeByResourceTypeWildcardResourceDenyDominate", () => {
    const allowAce = (name: string, pt: "LITERAL" | "PREFIXED") =>
      acl("GROUP", name, pt, user1, host1, "WRITE", "ALLOW");
    const s1 = [allowAce("hello", "PREFIXED")];
    const s2 = [...s1, acl("GROUP", "*", "LITERAL", user1, host1, "WRITE", "DENY")];
    const s3 = [...s2, allowAce("*", "LITERAL")];
    const s4 = [...s3, allowAce("aloha", "LITERAL")];
    run([
      ["allow prefixed", s1, user1, host1, "WRITE", "GROUP", "ALLOWED"],
      ["wildcard deny", s2, user1, host1, "WRITE", "GROUP", "DENIED"],
      ["wildcard allow too", s3, user1, host1, "WRITE", "GROUP", "DENIED"],
      ["literal allow too", s4, user1, host1, "WRITE", "GROUP", "DENIED"],
    ]);
  });

  it("testAuthorizeByResourceTypeWithAllOperationAce", () => {
    const r = "sb1-q";
    const denyWrite = acl("TOPIC", r, "LITERAL", user1, host1, "WRITE", "DENY");
    const allowAll = acl("TOPIC", r, "LITERAL", user1, host1, "ALL", "ALLOW");
    const denyAll = acl("TOPIC", r, "LITERAL", user1, host1, "ALL", "DENY");
    run([
      ["no ACL", [], user1, host1, "READ", "TOPIC", "DENIED"],
      ["deny write + allow all", [denyWrite, allowAll], user1, host1, "READ", "TOPIC", "ALLOWED"],
      ["+ deny all", [denyWrite, allowAll, denyAll], user1, host1, "READ", "TOPIC", "DENIED"],
    ]);
  });

  it("testAuthorizeByResourceTypeWithAllHostAce", () => {
    const r1 = "sb1-h";
    const r2 = "sb2-h";
    const s1 = [acl("TOPIC", r1, "LITERAL", user1, host1, "READ", "ALLOW")];
    const s2 = [...s1, acl("TOPIC", r1, "LITERAL", user1, "*", "READ", "DENY")];
    const s3 = [...s2, acl("TOPIC", r2, "LITERAL", user1, host1, "READ", "DENY")];
    const s4 = [...s3, acl("TOPIC", r2, "LITERAL", user1, "*", "READ", "ALLOW")];
    const s5 = [...s4, acl("TOPIC", r2, "LITERAL", user1, "*", "READ", "DENY")];
    run([
      ["no ACL", [], user1, host1, "READ", "TOPIC", "DENIED"],
      ["allow host1", s1, user1, host1, "READ", "TOPIC", "ALLOWED"],
      ["deny all hosts", s2, user1, host1, "READ", "TOPIC", "DENIED"],
      ["deny host1 on r2 (host1)", s3, user1, host1, "READ", "TOPIC", "DENIED"],
      ["deny host1 on r2 (host2)", s3, user1, host2, "READ", "TOPIC", "DENIED"],
      ["allow all hosts on r2", s4, user1, host2, "READ", "TOPIC", "ALLOWED"],
      ["deny all hosts on r2", s5, user1, host2, "READ", "TOPIC", "DENIED"],
    ]);
  });

  it("testAuthorizeByResourceTypeWithAllPrincipalAce", () => {
    const r1 = "sb1-p";
    const r2 = "sb2-p";
    const s1 = [acl("TOPIC", r1, "LITERAL", user1, host1, "READ", "ALLOW")];
    const s2 = [...s1, acl("TOPIC", r1, "LITERAL", "User:*", host1, "READ", "DENY")];
    const s3 = [...s2, acl("TOPIC", r2, "LITERAL", user1, host1, "READ", "DENY")];
    const s4 = [...s3, acl("TOPIC", r2, "LITERAL", "User:*", host1, "READ", "ALLOW")];
    const s5 = [...s4, acl("TOPIC", r2, "LITERAL", "User:*", host1, "READ", "DENY")];
    run([
      ["no ACL", [], user1, host1, "READ", "TOPIC", "DENIED"],
      ["allow user1", s1, user1, host1, "READ", "TOPIC", "ALLOWED"],
      ["deny all users", s2, user1, host1, "READ", "TOPIC", "DENIED"],
      ["deny user1 on r2", s3, user1, host1, "READ", "TOPIC", "DENIED"],
      ["user2", s3, user2, host1, "READ", "TOPIC", "DENIED"],
      ["allow all users on r2", s4, user2, host1, "READ", "TOPIC", "ALLOWED"],
      ["deny all users on r2", s5, user2, host1, "READ", "TOPIC", "DENIED"],
    ]);
  });

  it("testAuthorizeByResourceTypeSuperUserHasAccess", () => {
    const denyAll = (type: ResourceType) => acl(type, "*", "LITERAL", "User:*", "*", "ALL", "DENY");
    const acls = [denyAll("TOPIC"), denyAll("CLUSTER"), denyAll("GROUP"), denyAll("TRANSACTIONAL_ID")];
    const config = { superUsers: ["User:superuser1", "User:superuser2"] };
    run(
      (["TOPIC", "CLUSTER", "GROUP", "TRANSACTIONAL_ID"] as const).map((type): Step => [
        type,
        acls,
        "User:superuser1",
        "192.0.4.4",
        "READ",
        type,
        "ALLOWED",
      ]),
      config,
    );
  });

  it("testAuthorizeByResourceTypeNoAclFoundOverride", () => {
    run(
      [
        ["read", [], "User:alice", "192.168.0.1", "READ", "TOPIC", "ALLOWED"],
        ["write", [], "User:alice", "192.168.0.1", "WRITE", "TOPIC", "ALLOWED"],
      ],
      { allowEveryoneIfNoAclFound: true },
    );
  });
});

describe("authorizeByResourceType — Kafka's exact rule", () => {
  it("applies no implication: ALLOW READ on a topic does not answer DESCRIBE", () => {
    const acls = [acl("TOPIC", "t", "LITERAL", user1, "*", "READ", "ALLOW")];
    run([
      ["read", acls, user1, host1, "READ", "TOPIC", "ALLOWED"],
      ["describe", acls, user1, host1, "DESCRIBE", "TOPIC", "DENIED"],
    ]);
  });

  it("authorizes the dummy resource `hardcode` first, with implication", () => {
    const acls = [acl("TOPIC", "hard", "PREFIXED", user1, "*", "READ", "ALLOW")];
    run([["prefix of hardcode grants DESCRIBE via READ", acls, user1, host1, "DESCRIBE", "TOPIC", "ALLOWED"]]);
  });

  it("a PREFIXED `` DENY dominates nothing, a literal DENY only its own name", () => {
    run([
      [
        "empty-prefix deny",
        [
          acl("TOPIC", "", "PREFIXED", user1, "*", "READ", "DENY"),
          acl("TOPIC", "t", "LITERAL", user1, "*", "READ", "ALLOW"),
        ],
        user1,
        host1,
        "READ",
        "TOPIC",
        "ALLOWED",
      ],
      [
        "literal deny of another name",
        [
          acl("TOPIC", "u", "LITERAL", user1, "*", "READ", "DENY"),
          acl("TOPIC", "t", "LITERAL", user1, "*", "READ", "ALLOW"),
        ],
        user1,
        host1,
        "READ",
        "TOPIC",
        "ALLOWED",
      ],
      [
        "literal deny does not dominate a prefixed allow",
        [
          acl("TOPIC", "t", "LITERAL", user1, "*", "READ", "DENY"),
          acl("TOPIC", "t", "PREFIXED", user1, "*", "READ", "ALLOW"),
        ],
        user1,
        host1,
        "READ",
        "TOPIC",
        "ALLOWED",
      ],
    ]);
  });
});
