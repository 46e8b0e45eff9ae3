/**
 * Property tests (in the spirit of Kafka's StandardAuthorizerPropertyTest), thousands of
 * random ACL sets with prefixes sharing stems, `*` and `!` (a character below `*`) in
 * names, `User:*`, other principal types, hosts, DENYs and every operation.
 *
 * Two independent references:
 * - `kafkaScan`: the StandardAuthorizer algorithm at ACL granularity — one array sorted
 *   like StandardAcl.compareTo, tailSet by binary search, findResult per ACL, first DENY /
 *   last ALLOW — to pin the reported rule, not only the decision;
 * - `linearReference`: the documented semantics as a plain linear scan over every ACL,
 *   with no ordering at all, to pin the decision.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { OPERATIONS, type AclBinding, type AclOperation, type PatternType, type ResourceType } from "../types";
import { AclIndex, bindingKey } from "./acl-index";
import { authorize, authorizeInScanOrder, scanOrder } from "./authorize";
import { filterAcls } from "./filter";
import type { AuthorizationResult, AuthorizeRequest, AuthorizerConfig } from "./model";
import { IMPLIES_DESCRIBE, IMPLIES_DESCRIBE_CONFIGS, OPERATION_ORDINAL } from "./operations";

// ---- references ---------------------------------------------------------------------

function aclMatches(a: AclBinding, r: AuthorizeRequest): boolean {
  if (a.principal !== r.principal && a.principal !== "User:*") return false;
  if (a.host !== "*" && a.host !== r.host) return false;
  if (a.operation === "ALL") return true;
  if (a.permissionType === "ALLOW") {
    if (r.operation === "DESCRIBE") return IMPLIES_DESCRIBE.has(a.operation);
    if (r.operation === "DESCRIBE_CONFIGS") return IMPLIES_DESCRIBE_CONFIGS.has(a.operation);
  }
  return a.operation === r.operation;
}

function applies(a: AclBinding, type: ResourceType, name: string): boolean {
  if (a.resourceType !== type) return false;
  if (a.patternType === "PREFIXED") return name.startsWith(a.resourceName);
  // StandardAuthorizer quirk: the LITERAL `*` ACL is skipped for other names starting with `*`.
  return a.resourceName === name || (a.resourceName === "*" && !name.startsWith("*"));
}

function linearReference(
  acls: readonly AclBinding[],
  r: AuthorizeRequest,
  config: AuthorizerConfig,
): "ALLOWED" | "DENIED" {
  if ((config.superUsers as readonly string[] | undefined)?.includes(r.principal)) return "ALLOWED";
  const on = acls.filter((a) => applies(a, r.resourceType, r.resourceName));
  if (on.some((a) => a.permissionType === "DENY" && aclMatches(a, r))) return "DENIED";
  if (on.some((a) => a.permissionType === "ALLOW" && aclMatches(a, r))) return "ALLOWED";
  if (on.length > 0) return "DENIED";
  return config.allowEveryoneIfNoAclFound === true ? "ALLOWED" : "DENIED";
}

function compareStandardAcl(x: AclBinding, y: AclBinding): number {
  if (x.resourceType !== y.resourceType) return x.resourceType < y.resourceType ? -1 : 1;
  if (x.resourceName !== y.resourceName) return x.resourceName < y.resourceName ? 1 : -1; // REVERSE
  if (x.patternType !== y.patternType) return x.patternType === "LITERAL" ? -1 : 1;
  const op = OPERATION_ORDINAL[x.operation] - OPERATION_ORDINAL[y.operation];
  if (op !== 0) return op;
  if (x.principal !== y.principal) return x.principal < y.principal ? -1 : 1;
  if (x.host !== y.host) return x.host < y.host ? -1 : 1;
  if (x.permissionType !== y.permissionType) return x.permissionType === "DENY" ? -1 : 1;
  return 0;
}

function kafkaScan(acls: readonly AclBinding[], r: AuthorizeRequest, config: AuthorizerConfig): AuthorizationResult {
  if ((config.superUsers as readonly string[] | undefined)?.includes(r.principal))
    return { decision: "ALLOWED", rule: { kind: "superUser" } };
  const unique = new Map(acls.map((a) => [bindingKey(a), a]));
  const sorted = [...unique.values()].filter((a) => a.resourceType === r.resourceType).sort(compareStandardAcl);
  // tailSet(exemplar): the first ACL whose name is <= the exemplar's name (reverse order).
  const tail = (name: string) => {
    let i = 0;
    while (i < sorted.length && sorted[i]!.resourceName > name) i++;
    return i;
  };
  const R = r.resourceName;
  let deny: AclBinding | null = null;
  let allow: AclBinding | null = null;
  let has = false;
  const section = (start: string) => {
    let i = tail(start);
    while (i < sorted.length) {
      const a = sorted[i]!;
      let m = 0;
      while (m < R.length && m < a.resourceName.length && R[m] === a.resourceName[m]) m++;
      if (m === a.resourceName.length) {
        if (a.patternType === "LITERAL" && m !== R.length) {
          i++;
          continue;
        }
      } else if (!(a.resourceName === "*" && a.patternType === "LITERAL")) {
        i = tail(R.slice(0, m));
        continue;
      }
      has = true;
      if (aclMatches(a, r)) {
        if (a.permissionType === "DENY") {
          deny = a;
          return;
        }
        allow = a;
      }
      i++;
    }
  };
  section(R);
  if (deny === null) section("*");
  if (deny !== null) return { decision: "DENIED", rule: { kind: "acl", acl: deny } };
  if (allow !== null) return { decision: "ALLOWED", rule: { kind: "acl", acl: allow } };
  if (has) return { decision: "DENIED", rule: { kind: "noAclMatched" } };
  return { decision: config.allowEveryoneIfNoAclFound === true ? "ALLOWED" : "DENIED", rule: { kind: "default" } };
}

// ---- generators ---------------------------------------------------------------------

const nameArb = fc
  .array(fc.constantFrom("a", "b", "ab", "*", "!", "_", "-x"), { maxLength: 4 })
  .map((parts) => parts.join(""));
const typeArb = fc.constantFrom<ResourceType>("TOPIC", "GROUP");
const aclPrincipalArb = fc.constantFrom(
  "User:alice",
  "User:bob",
  "User:*",
  "Group:*",
  "Service:alice",
  "User:a:b",
  "bob",
);
const requestPrincipalArb = fc.constantFrom("User:alice", "User:bob", "Service:alice", "User:a:b", "User:*");
const hostArb = fc.constantFrom("*", "10.0.0.1", "10.0.0.2");
const operationArb = fc.constantFrom<AclOperation>(...OPERATIONS);

const aclArb: fc.Arbitrary<AclBinding> = fc.record({
  resourceType: typeArb,
  resourceName: nameArb,
  patternType: fc.constantFrom<PatternType>("LITERAL", "PREFIXED"),
  principal: aclPrincipalArb,
  host: hostArb,
  operation: operationArb,
  permissionType: fc.constantFrom("ALLOW" as const, "DENY" as const),
});

const requestArb: fc.Arbitrary<AuthorizeRequest> = fc.record({
  principal: requestPrincipalArb,
  host: fc.constantFrom("10.0.0.1", "10.0.0.2"),
  operation: operationArb,
  resourceType: typeArb,
  resourceName: nameArb,
});

const configArb: fc.Arbitrary<AuthorizerConfig> = fc.record({
  superUsers: fc.subarray(["User:bob", "Service:alice"]),
  allowEveryoneIfNoAclFound: fc.boolean(),
});

const RUNS = 3000;

describe("authorize — properties", () => {
  it("the index reports exactly what Kafka's scan reports (decision and deciding rule)", () => {
    fc.assert(
      fc.property(
        fc.array(aclArb, { maxLength: 40 }),
        fc.array(requestArb, { minLength: 1, maxLength: 8 }),
        configArb,
        (acls, requests, config) => {
          const index = AclIndex.build(acls);
          for (const r of requests) expect(authorize(index, r, config)).toEqual(kafkaScan(acls, r, config));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("answering from the collected scan order (effective-permission matrices) equals authorize", () => {
    fc.assert(
      fc.property(
        fc.array(aclArb, { maxLength: 40 }),
        fc.array(requestArb, { minLength: 1, maxLength: 8 }),
        configArb,
        (acls, requests, config) => {
          const index = AclIndex.build(acls);
          for (const r of requests) {
            const groups = scanOrder(index, r.resourceType, r.resourceName);
            expect(authorizeInScanOrder(groups, r, config)).toEqual(authorize(index, r, config));
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("the index agrees with a plain linear scan of every ACL", () => {
    fc.assert(
      fc.property(
        fc.array(aclArb, { maxLength: 60 }),
        fc.array(requestArb, { minLength: 1, maxLength: 8 }),
        configArb,
        (acls, requests, config) => {
          const index = AclIndex.build(acls);
          for (const r of requests) {
            const result = authorize(index, r, config);
            expect(result.decision).toBe(linearReference(acls, r, config));
            if (result.rule.kind === "acl") {
              expect(aclMatches(result.rule.acl, r) && applies(result.rule.acl, r.resourceType, r.resourceName)).toBe(
                true,
              );
              expect(result.rule.acl.permissionType === "ALLOW").toBe(result.decision === "ALLOWED");
            }
          }
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("a matching DENY always wins (unless the principal is a super user)", () => {
    const denyFor = (r: AuthorizeRequest) =>
      fc.record({
        resourceType: fc.constant(r.resourceType),
        patternType: fc.constantFrom<PatternType>("LITERAL", "PREFIXED"),
        cut: fc.nat({ max: r.resourceName.length }),
        wildcard: fc.boolean(),
        principal: fc.constantFrom(r.principal, "User:*"),
        host: fc.constantFrom(r.host, "*"),
        operation: fc.constantFrom(r.operation, "ALL" as const),
      });
    fc.assert(
      fc.property(
        fc.array(aclArb, { maxLength: 40 }),
        requestArb.chain((r) => fc.tuple(fc.constant(r), denyFor(r))),
        (acls, [r, d]) => {
          const wildcard = d.wildcard && !r.resourceName.startsWith("*");
          const deny: AclBinding = {
            resourceType: d.resourceType,
            // (a LITERAL `*` does not apply to names starting with `*`: see the quirk test)
            resourceName: wildcard
              ? "*"
              : d.patternType === "PREFIXED"
                ? r.resourceName.slice(0, d.cut)
                : r.resourceName,
            patternType: wildcard ? "LITERAL" : d.patternType,
            principal: d.principal,
            host: d.host,
            operation: d.operation,
            permissionType: "DENY",
          };
          const all = [...acls, deny];
          expect(authorize(all, r).decision).toBe("DENIED");
          expect(authorize(all, r, { allowEveryoneIfNoAclFound: true }).decision).toBe("DENIED");
          expect(authorize(all, r, { superUsers: [r.principal] }).decision).toBe("ALLOWED");
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("adding an ALLOW never removes access (with allow.everyone.if.no.acl.found=false)", () => {
    fc.assert(
      fc.property(
        fc.array(aclArb, { maxLength: 40 }),
        aclArb.map((a) => ({ ...a, permissionType: "ALLOW" as const })),
        fc.array(requestArb, { minLength: 1, maxLength: 8 }),
        (acls, extra, requests) => {
          const before = AclIndex.build(acls);
          const after = AclIndex.build([...acls, extra]);
          for (const r of requests) {
            if (authorize(before, r).decision === "ALLOWED") expect(authorize(after, r).decision).toBe("ALLOWED");
          }
        },
      ),
      { numRuns: RUNS },
    );
  });

  it(
    "but with allow.everyone.if.no.acl.found=true, the first ACL on a resource takes access away from " +
      "everyone else",
    () => {
      const r: AuthorizeRequest = {
        principal: "User:bob",
        host: "10.0.0.1",
        operation: "READ",
        resourceType: "TOPIC",
        resourceName: "t",
      };
      const config = { allowEveryoneIfNoAclFound: true };
      expect(authorize([], r, config).decision).toBe("ALLOWED");
      const aliceOnly: AclBinding = {
        ...r,
        principal: "User:alice",
        host: "*",
        patternType: "LITERAL",
        permissionType: "ALLOW",
      };
      expect(authorize([aliceOnly], r, config).decision).toBe("DENIED");
    },
  );

  it("MATCH lookups through the index equal the MATCH filter over the list", () => {
    fc.assert(
      fc.property(fc.array(aclArb, { maxLength: 60 }), typeArb, nameArb, (acls, type, name) => {
        const index = AclIndex.build(acls);
        const expected = filterAcls(index.acls, {
          resourceType: type,
          resourceName: name,
          patternType: "MATCH",
          principal: null,
          host: null,
          operation: "ANY",
          permissionType: "ANY",
        });
        expect(index.matching(type, name)).toEqual(expected);
      }),
      { numRuns: RUNS },
    );
  });
});

/**
 * Ported from metadata/src/test/.../authorizer/StandardAuthorizerPropertyTest.java: a valid
 * topic name, one rule on the topic (or a prefix of it), and ALLOW / DENY PREFIXED rules
 * built from every prefix of the topic plus random suffixes (valid topic characters).
 */
describe("StandardAuthorizerPropertyTest", () => {
  const topicChar = fc.constantFrom(..."abcXYZ019_-.".split(""));
  const topicArb = fc
    .array(topicChar, { minLength: 1, maxLength: 12 })
    .map((c) => c.join(""))
    .filter((t) => t !== "." && t !== "..");
  const suffixesArb = fc.uniqueArray(
    fc.array(topicChar, { maxLength: 4 }).map((c) => c.join("")),
    { maxLength: 10 },
  );
  const writeAcl = (resourceName: string, patternType: PatternType, permissionType: "ALLOW" | "DENY"): AclBinding => ({
    resourceType: "TOPIC",
    resourceName,
    patternType,
    principal: "User:*",
    host: "*",
    operation: "WRITE",
    permissionType,
  });
  const randomPrefixRules = (
    topic: string,
    suffixes: string[],
    permission: "ALLOW" | "DENY",
    keep: (p: string) => boolean,
  ) => {
    const patterns = new Set<string>();
    for (let i = 0; i < topic.length; i++)
      for (const s of suffixes) if (keep(topic.slice(0, i) + s)) patterns.add(topic.slice(0, i) + s);
    return [...patterns].map((p) => writeAcl(p, "PREFIXED", permission));
  };
  const decide = (acls: AclBinding[], topic: string) =>
    authorize(acls, {
      principal: "User:user",
      host: "127.0.0.1",
      operation: "WRITE",
      resourceType: "TOPIC",
      resourceName: topic,
    }).decision;

  it("matchingPrefixDenyOverridesAllAllowRules", () => {
    fc.assert(
      fc.property(topicArb, suffixesArb, fc.nat(), (topic, suffixes, cut) => {
        const deny = writeAcl(topic.slice(0, cut % topic.length), "PREFIXED", "DENY");
        expect(decide([deny, ...randomPrefixRules(topic, suffixes, "ALLOW", (p) => p.length > 0)], topic)).toBe(
          "DENIED",
        );
      }),
      { numRuns: 5000 },
    );
  });

  it("matchingLiteralDenyOverridesAllAllowRules", () => {
    fc.assert(
      fc.property(topicArb, suffixesArb, (topic, suffixes) => {
        const deny = writeAcl(topic, "LITERAL", "DENY");
        expect(decide([deny, ...randomPrefixRules(topic, suffixes, "ALLOW", (p) => p.length > 0)], topic)).toBe(
          "DENIED",
        );
      }),
      { numRuns: 5000 },
    );
  });

  it("matchingPrefixAllowWithNoMatchingDenyRules", () => {
    fc.assert(
      fc.property(topicArb, suffixesArb, fc.nat(), (topic, suffixes, cut) => {
        const allow = writeAcl(topic.slice(0, cut % topic.length), "PREFIXED", "ALLOW");
        const denies = randomPrefixRules(topic, suffixes, "DENY", (p) => p.length > 0 && !topic.startsWith(p));
        expect(decide([allow, ...denies], topic)).toBe("ALLOWED");
      }),
      { numRuns: 5000 },
    );
  });

  it("matchingLiteralAllowWithNoMatchingDenyRules", () => {
    fc.assert(
      fc.property(topicArb, suffixesArb, (topic, suffixes) => {
        const allow = writeAcl(topic, "LITERAL", "ALLOW");
        const denies = randomPrefixRules(topic, suffixes, "DENY", (p) => p.length > 0 && !topic.startsWith(p));
        expect(decide([allow, ...denies], topic)).toBe("ALLOWED");
      }),
      { numRuns: 5000 },
    );
  });
});
