/**
 * Differential test: the policy core against Apache Kafka 4.1.1's real KRaft
 * StandardAuthorizer, on thousands of random cases per run.
 *
 * Kafka runs in a long-lived JVM (java/AuthorizerHarness.java, driven by
 * scripts/java-harness.ts; needs Java 17 and the jars from `bash scripts/kafka.sh jars`,
 * not the broker). fast-check generates ACL sets built to hit the traps: names
 * that share stems ("a", "ab", "abc"), LITERAL and PREFIXED `*`, `User:*` against
 * several principal types, exact hosts vs `*` (and `::1`, which Kafka never matches
 * because it compares against Java's uncompressed form), DENYs, every operation
 * including ALL, every resource type, super users, and both values of
 * allow.everyone.if.no.acl.found. AclBindingFilters (what DescribeAcls, DeleteAcls and
 * kafka-acls --list send: ANY and MATCH pattern types, null names, exact principal and
 * host strings) are run through StandardAuthorizer.acls(filter) and filterAcls and must
 * return the same ACLs. Both the decision and the rule that decided are
 * compared: the harness reads the rule Kafka's audit log would name (super user, the
 * no-ACL default, "ACLs exist but none matched", or the exact deciding ACL), and the
 * policy core must cite the same one. On a disagreement fast-check shrinks the case, a
 * greedy pass drops every ACL not needed to reproduce it, and the failure prints the
 * minimised ACLs, the request and both answers.
 *
 * Kafka's quirk that a LITERAL `*` ACL does not apply to names starting with `*` (e.g.
 * GROUP `*orders`) is generated on purpose ("*a", "a*", suffix "*"): the policy core
 * mirrors it, and a trap case below pins it.
 *
 * What the generator deliberately avoids, because Kafka itself misbehaves there (the
 * first two have their own tests below that pin what the policy core answers instead):
 *  - resource names starting with a character below `*` (space !"#$%&'()): Kafka's
 *    StandardAuthorizerData.checkSection loops forever or throws for GROUP /
 *    TRANSACTIONAL_ID names like that (shared/research/kafka-semantics.md §1.10).
 *    The harness also times out per batch (the JVM is killed and restarted), so a
 *    hang cannot stall the suite.
 *  - a request principal of exactly `User:*`: Kafka throws
 *    IllegalArgumentException("duplicate element: User:*") from Set.of(principal, User:*).
 *  - request hosts not in Java's canonical spelling (the harness refuses them):
 *    Kafka matches ACL hosts against InetAddress.getHostAddress().
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import {
  KafkaAuthorizerHarness,
  HarnessTimeoutError,
  type HarnessByTypeRequest,
  type HarnessCase,
  type HarnessFilter,
  type HarnessRequest,
  type HarnessRule,
} from "../../scripts/java-harness";
import {
  OPERATIONS,
  RESOURCE_TYPES,
  type AclBinding,
  type AclBindingFilter,
  type AclOperation,
  type ResourceType,
} from "./types";
import {
  AclIndex,
  authorize,
  authorizeByResourceType,
  filterAcls,
  type AuthorizeByResourceTypeRequest,
  type AuthorizeRequest,
  type AuthorizerConfig,
  type MatchingRule,
} from "./acl";

// ---- the policy core under test --------------------------------------------------------

/** A harness case whose ACLs are typed bindings of the policy vocabulary. */
type DiffCase = Omit<HarnessCase, "acls"> & { acls: AclBinding[] };

type CoreDecision = { decision: "ALLOWED" | "DENIED"; ruleKind: MatchingRule["kind"]; rule: MatchingRule };

function coreConfig(c: HarnessCase): AuthorizerConfig {
  return { superUsers: c.superUsers, allowEveryoneIfNoAclFound: c.allowEveryoneIfNoAclFound };
}

function coreAuthorize(c: HarnessCase, index: AclIndex, r: HarnessRequest): CoreDecision {
  const out = authorize(index, r as AuthorizeRequest, coreConfig(c));
  return { decision: out.decision, ruleKind: out.rule.kind, rule: out.rule };
}

function coreByType(c: HarnessCase, index: AclIndex, r: HarnessByTypeRequest): "ALLOWED" | "DENIED" {
  return authorizeByResourceType(index, r as AuthorizeByResourceTypeRequest, coreConfig(c)).decision;
}

function coreIndex(acls: readonly AclBinding[]): AclIndex {
  return AclIndex.build(acls);
}

// ---- generators ------------------------------------------------------------------------

/** Stems that prefix one another, `*` in both pattern types, and "hardcode" (the dummy name
 * Kafka's authorizeByResourceType authorizes first, so ACLs on it change that answer). */
const NAME_POOL = [
  "a",
  "ab",
  "abc",
  "abd",
  "b",
  "ba",
  "*",
  "*a",
  "a*",
  "hard",
  "hardcode",
  "hardcoded",
  "kafka-cluster",
  "User:alice",
  "User:*",
  "x.y",
  "x-y_z",
];
/** Every character is >= '*' (see the header). */
const nameArb = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NAME_POOL) },
  { weight: 1, arbitrary: fc.stringMatching(/^[ab*][ab.*-]{0,3}$/) },
);
const ACL_PRINCIPALS = [
  "User:alice",
  "User:bob",
  "User:*",
  "Group:alice",
  "Group:*",
  "Service:x",
  "User:Alice",
  "User:a:b",
  "User:admin",
];
/** Never `User:*` (Kafka throws for it, see the header). */
const REQUEST_PRINCIPALS = [
  "User:alice",
  "User:bob",
  "Group:alice",
  "Service:x",
  "User:Alice",
  "User:a:b",
  "User:admin",
  "Group:ops",
  "User:carol",
];
const SUPER_USERS = ["User:admin", "Group:ops", "User:bob"];
const ACL_HOSTS = ["*", "*", "10.0.0.1", "10.0.0.2", "::1", "0:0:0:0:0:0:0:1"];
/** Java's canonical spellings (what getHostAddress() returns). */
const REQUEST_HOSTS = ["10.0.0.1", "10.0.0.2", "10.0.0.3", "0:0:0:0:0:0:0:1"];
/** TOPIC and GROUP most often, so that ACLs and requests meet. */
const resourceTypeArb: fc.Arbitrary<ResourceType> = fc.oneof(
  { weight: 5, arbitrary: fc.constant<ResourceType>("TOPIC") },
  { weight: 3, arbitrary: fc.constant<ResourceType>("GROUP") },
  { weight: 2, arbitrary: fc.constantFrom<ResourceType>(...RESOURCE_TYPES) },
);
const operationArb: fc.Arbitrary<AclOperation> = fc.constantFrom(...OPERATIONS);

const aclArb: fc.Arbitrary<AclBinding> = fc.record({
  resourceType: resourceTypeArb,
  resourceName: nameArb,
  patternType: fc.constantFrom("LITERAL" as const, "PREFIXED" as const),
  principal: fc.constantFrom(...ACL_PRINCIPALS),
  host: fc.constantFrom(...ACL_HOSTS),
  operation: operationArb,
  permissionType: fc.constantFrom("ALLOW" as const, "ALLOW" as const, "DENY" as const),
});

/*
 * Each field of a request takes, two times in three, the value of one ACL of the set (its
 * principal, host, operation, resource type, and its name, possibly extended so that
 * PREFIXED ACLs apply and LITERAL ones do not); otherwise a value from the pool. Requests
 * refer to that ACL by position and are resolved after generation, so that fast-check
 * shrinks the ACLs and the requests independently (a chain() would restart the requests
 * on every shrink).
 */

/** A value from the pool, or "the value of the request's ACL" (when that makes a valid request). */
type FieldSpec<T> = { kind: "pool"; value: T } | { kind: "acl" };
interface RequestSpec {
  /** The ACL this request aims at (modulo the set's size). */
  ref: number;
  principal: FieldSpec<string>;
  host: FieldSpec<string>;
  operation: FieldSpec<AclOperation>;
  type: FieldSpec<ResourceType>;
  name: FieldSpec<string>;
  /** Appended to the ACL's name, so that PREFIXED ACLs apply and LITERAL ones do not. */
  suffix: string;
}

function fieldSpecArb<T>(pool: fc.Arbitrary<T>): fc.Arbitrary<FieldSpec<T>> {
  return fc.oneof(
    { weight: 1, arbitrary: pool.map((value) => ({ kind: "pool" as const, value })) },
    { weight: 2, arbitrary: fc.constant({ kind: "acl" as const }) },
  );
}
const requestSpecArb: fc.Arbitrary<RequestSpec> = fc.record({
  ref: fc.nat(1000),
  principal: fieldSpecArb(fc.constantFrom(...REQUEST_PRINCIPALS)),
  host: fieldSpecArb(fc.constantFrom(...REQUEST_HOSTS)),
  operation: fieldSpecArb(operationArb),
  type: fieldSpecArb(resourceTypeArb),
  name: fieldSpecArb(nameArb),
  suffix: fc.constantFrom("", "", "", "a", "b", "-", "*", "ab"),
});

function resolveRequest(acls: readonly AclBinding[], r: RequestSpec): HarnessRequest {
  const acl = acls[r.ref % Math.max(1, acls.length)];
  const from = <T>(f: FieldSpec<T>, own: T | undefined, fallback: T): T =>
    f.kind === "pool" ? f.value : (own ?? fallback);
  // Not `User:*` (Kafka throws for it as a request principal), not `*` or `::1` as a client address.
  const principal = from(r.principal, acl?.principal === "User:*" ? undefined : acl?.principal, "User:alice");
  const host = from(r.host, acl && REQUEST_HOSTS.includes(acl.host) ? acl.host : undefined, "10.0.0.1");
  const name = r.name.kind === "pool" ? r.name.value : (acl?.resourceName ?? "a") + r.suffix;
  return {
    principal,
    host,
    operation: from(r.operation, acl?.operation, "READ"),
    resourceType: from(r.type, acl?.resourceType, "TOPIC"),
    resourceName: name,
  };
}

const aclKey = (a: AclBinding): string =>
  [a.resourceType, a.resourceName, a.patternType, a.principal, a.host, a.operation, a.permissionType].join("\u0000");

/** Up to this many requests per ACL set (about half on average): ~200 x 50 decisions per run. */
const REQUESTS_PER_SET = 100;
const BY_TYPE_PER_SET = 40;
const FILTERS_PER_SET = 10;

/**
 * AclBindingFilters as DescribeAcls / DeleteAcls / kafka-acls --list send them. Like the
 * requests, each field takes the value of one ACL of the set two times in three (the name
 * possibly extended, for MATCH), otherwise its wildcard (ANY / null) or a pool value.
 */
type FilterField<T> = { kind: "acl" } | { kind: "value"; value: T };
interface FilterSpec {
  ref: number;
  resourceType: FilterField<string>;
  resourceName: FilterField<string | null>;
  suffix: string;
  patternType: FilterField<string>;
  principal: FilterField<string | null>;
  host: FilterField<string | null>;
  operation: FilterField<string>;
  permissionType: FilterField<string>;
}

function filterFieldArb<T>(any: T, pool: fc.Arbitrary<T>): fc.Arbitrary<FilterField<T>> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant({ kind: "acl" as const }) },
    { weight: 2, arbitrary: fc.constant({ kind: "value" as const, value: any }) },
    { weight: 1, arbitrary: pool.map((value) => ({ kind: "value" as const, value })) },
  );
}

const filterSpecArb: fc.Arbitrary<FilterSpec> = fc.record({
  ref: fc.nat(1000),
  resourceType: filterFieldArb<string>("ANY", resourceTypeArb),
  resourceName: filterFieldArb<string | null>(null, nameArb),
  suffix: fc.constantFrom("", "", "a", "b", "*"),
  patternType: fc.oneof(
    { weight: 1, arbitrary: fc.constant({ kind: "acl" as const }) },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom("LITERAL", "PREFIXED", "ANY", "MATCH", "MATCH")
        .map((value) => ({ kind: "value" as const, value })),
    },
  ),
  principal: filterFieldArb<string | null>(null, fc.constantFrom(...ACL_PRINCIPALS)),
  host: filterFieldArb<string | null>(null, fc.constantFrom(...ACL_HOSTS)),
  operation: filterFieldArb<string>("ANY", operationArb),
  permissionType: filterFieldArb<string>("ANY", fc.constantFrom("ALLOW", "DENY")),
});

function resolveFilter(acls: readonly AclBinding[], f: FilterSpec): HarnessFilter {
  const acl = acls[f.ref % Math.max(1, acls.length)];
  const from = <T>(field: FilterField<T>, own: T | undefined, fallback: T): T =>
    field.kind === "value" ? field.value : (own ?? fallback);
  const patternType = from(f.patternType, acl?.patternType, "MATCH");
  return {
    resourceType: from(f.resourceType, acl?.resourceType, "ANY"),
    // Extended names only for MATCH, where a PREFIXED ACL still applies to them.
    resourceName:
      f.resourceName.kind === "value"
        ? f.resourceName.value
        : (acl?.resourceName ?? "a") + (patternType === "MATCH" ? f.suffix : ""),
    patternType,
    principal: from(f.principal, acl?.principal, null),
    host: from(f.host, acl?.host, null),
    operation: from(f.operation, acl?.operation, "ANY"),
    permissionType: from(f.permissionType, acl?.permissionType, "ANY"),
  };
}

const caseArb: fc.Arbitrary<DiffCase> = fc
  .record({
    // Kafka stores each distinct ACL once (a duplicate CreateAcls is a silent no-op).
    acls: fc.uniqueArray(aclArb, { maxLength: 40, size: "max", selector: aclKey }),
    superUsers: fc.subarray(SUPER_USERS),
    allowEveryoneIfNoAclFound: fc.boolean(),
    requests: fc.array(requestSpecArb, { minLength: 1, maxLength: REQUESTS_PER_SET, size: "max" }),
    byType: fc.array(requestSpecArb, { maxLength: BY_TYPE_PER_SET, size: "max" }),
    filters: fc.array(filterSpecArb, { maxLength: FILTERS_PER_SET, size: "max" }),
  })
  .map(({ acls, requests, byType, filters, ...config }) => ({
    ...config,
    acls,
    requests: requests.map((r) => resolveRequest(acls, r)),
    byType: byType.map((r) => {
      const { resourceName: _name, ...rest } = resolveRequest(acls, r);
      return rest;
    }),
    filters: filters.map((f) => resolveFilter(acls, f)),
  }));

// ---- comparing -------------------------------------------------------------------------

/**
 * Kafka's rule: the one its audit log names (the harness reads it from StandardAuthorizerData),
 * written like the policy core's MatchingRule. Without that, only what the public API shows:
 * super user, the configured default (the decision flips with allow.everyone.if.no.acl.found),
 * or "the ACLs".
 */
function kafkaRule(
  c: HarnessCase,
  r: HarnessRequest,
  d: { decision: string; byDefault?: boolean; rule?: HarnessRule },
): string {
  if (d.rule) return d.rule.kind === "acl" ? `acl ${aclKey(d.rule.acl as AclBinding)}` : d.rule.kind;
  if (c.superUsers.includes(r.principal)) return "superUser";
  return d.byDefault ? "default" : "acls";
}

function coreRule(rule: MatchingRule, exact: boolean): string {
  if (rule.kind === "acl") return exact ? `acl ${aclKey(rule.acl)}` : "acls";
  if (rule.kind === "noAclMatched") return exact ? rule.kind : "acls";
  return rule.kind;
}

function show(c: DiffCase): string {
  return [
    `superUsers=${JSON.stringify(c.superUsers)} allowEveryoneIfNoAclFound=${c.allowEveryoneIfNoAclFound}`,
    `ACLs (${c.acls.length}):`,
    ...c.acls.map(
      (a) =>
        `  ${a.permissionType} ${a.principal}@${a.host} ${a.operation} ` +
        `on ${a.resourceType}:${a.patternType}:${JSON.stringify(a.resourceName)}`,
    ),
  ].join("\n");
}

interface Stats {
  sets: number;
  authorize: number;
  byType: number;
  allowed: number;
  denied: number;
  byDefault: number;
  byAcl: number;
  byTypeAllowed: number;
  filters: number;
  filtersNonEmpty: number;
}

interface Problem {
  message: string;
  /** The case cut down to the one request that disagrees. */
  single: DiffCase;
  hang?: boolean;
}

/** The first disagreement in a case, or undefined when Kafka and the policy core agree on every request. */
async function findProblem(h: KafkaAuthorizerHarness, c: DiffCase, stats?: Stats): Promise<Problem | undefined> {
  let kafka;
  try {
    kafka = await h.authorize(c, 10_000);
  } catch (e) {
    if (e instanceof HarnessTimeoutError) {
      return {
        message: `Kafka hung on this case (the StandardAuthorizerData.checkSection defect?):\n${show(c)}`,
        single: c,
        hang: true,
      };
    }
    throw e;
  }
  const index = coreIndex(c.acls);
  for (const [i, r] of c.requests.entries()) {
    const single = { ...c, requests: [r], byType: [], filters: [] };
    const k = kafka.results[i];
    const mine = coreAuthorize(c, index, r);
    if (!k || "error" in k) {
      return {
        single,
        message:
          `Kafka threw for ` +
          `request ${JSON.stringify(r)}: ${k && "error" in k ? k.error : "no answer"}\npolicy ` +
          `core: ${JSON.stringify(mine)}\n${show(c)}`,
      };
    }
    if (k.rule && k.rule.consistent === false)
      throw new Error(`harness: the rule read from Kafka does not give authorize()'s answer for ${JSON.stringify(r)}`);
    const kRule = kafkaRule(c, r, k);
    const mRule = coreRule(mine.rule, k.rule !== undefined);
    if (k.decision !== mine.decision || kRule !== mRule) {
      const message = [
        `authorize disagreement on request ${JSON.stringify(r)}`,
        `  Kafka StandardAuthorizer: ${k.decision} (rule: ${k.rule ? JSON.stringify(k.rule) : kRule})`,
        `  policy core:              ${mine.decision} (rule: ${JSON.stringify(mine.rule)})`,
        show(c),
      ].join("\n");
      return { single, message };
    }
    // An explanation that cites an ACL must cite one of the ACLs, with the matching permission.
    if (mine.ruleKind === "acl") {
      const acl = mine.rule.kind === "acl" ? mine.rule.acl : undefined;
      const cited = acl && c.acls.some((a) => aclKey(a) === aclKey(acl));
      const permissionFits = acl && (acl.permissionType === "ALLOW") === (mine.decision === "ALLOWED");
      if (!cited || !permissionFits) {
        return {
          single,
          message:
            `policy core explains ${JSON.stringify(r)} -> ${mine.decision} with an ACL that is not in the ` +
            `set or has the other permission: ${JSON.stringify(acl)}\n${show(c)}`,
        };
      }
    }
    if (stats) {
      stats.authorize++;
      if (k.decision === "ALLOWED") stats.allowed++;
      else stats.denied++;
      if (k.byDefault) stats.byDefault++;
      if (k.rule?.kind === "acl") stats.byAcl++;
    }
  }
  for (const [i, r] of (c.byType ?? []).entries()) {
    const single = { ...c, requests: [], byType: [r], filters: [] };
    const k = kafka.byType[i];
    const mine = coreByType(c, index, r);
    if (!k || "error" in k) {
      return {
        single,
        message:
          `Kafka threw for authorizeByResourceType ${JSON.stringify(r)}: ` +
          `${k && "error" in k ? k.error : "no answer"}\npolicy core: ${mine}\n${show(c)}`,
      };
    }
    if (k.decision !== mine) {
      const message = [
        `authorizeByResourceType disagreement on ${JSON.stringify(r)}`,
        `  Kafka StandardAuthorizer: ${k.decision}`,
        `  policy core:              ${mine}`,
        show(c),
      ].join("\n");
      return { single, message };
    }
    if (stats) {
      stats.byType++;
      if (k.decision === "ALLOWED") stats.byTypeAllowed++;
    }
  }
  for (const [i, f] of (c.filters ?? []).entries()) {
    const single = { ...c, requests: [], byType: [], filters: [f] };
    const k = (kafka.filters[i] ?? []).map((a) => aclKey(a as AclBinding)).sort();
    const mine = filterAcls(c.acls, f as AclBindingFilter)
      .map(aclKey)
      .sort();
    if (k.length !== mine.length || k.some((x, j) => x !== mine[j])) {
      const fmtKeys = (keys: string[]): string =>
        keys.length === 0 ? "  (none)" : keys.map((x) => `  ${x.split("\u0000").join(" ")}`).join("\n");
      const message = [
        `AclBindingFilter disagreement on ${JSON.stringify(f)}`,
        "Kafka StandardAuthorizer.acls(filter):",
        fmtKeys(k),
        "policy core filterAcls:",
        fmtKeys(mine),
        show(c),
      ].join("\n");
      return { single, message };
    }
    if (stats) {
      stats.filters++;
      if (k.length > 0) stats.filtersNonEmpty++;
    }
  }
  if (stats) stats.sets++;
  return undefined;
}

/** Greedily drops ACLs and super users while the disagreement persists (one JVM call per try). */
async function minimise(h: KafkaAuthorizerHarness, p: Problem): Promise<Problem> {
  if (p.hang) return p;
  let best = p;
  for (let pass = 0; pass < 3; pass++) {
    let changed = false;
    for (let i = best.single.acls.length - 1; i >= 0; i--) {
      const acls = best.single.acls.filter((_, j) => j !== i);
      const q = await findProblem(h, { ...best.single, acls });
      if (q && !q.hang) {
        best = q;
        changed = true;
      }
    }
    for (const su of best.single.superUsers) {
      const q = await findProblem(h, { ...best.single, superUsers: best.single.superUsers.filter((x) => x !== su) });
      if (q && !q.hang) {
        best = q;
        changed = true;
      }
    }
    if (!changed) break;
  }
  return best;
}

/** Compares one case; returns a description of the (minimised) first disagreement, or undefined. */
async function compare(h: KafkaAuthorizerHarness, c: DiffCase, stats?: Stats): Promise<string | undefined> {
  const p = await findProblem(h, c, stats);
  if (!p) return undefined;
  const small = await minimise(h, p);
  return (
    `${small.message}\n(minimised from ${c.acls.length} ACLs, ${c.requests.length}+${c.byType?.length ?? 0} ` +
    `requests and ${c.filters?.length ?? 0} filters)`
  );
}

// ---- the tests -------------------------------------------------------------------------

const RUNS = Number(process.env.DIFFERENTIAL_RUNS ?? 1000);

describe("policy core vs Kafka 4.1.1 StandardAuthorizer (differential)", () => {
  let harness: KafkaAuthorizerHarness;

  beforeAll(async () => {
    harness = await KafkaAuthorizerHarness.start({
      heapMb: 512,
      jvmArgs: ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto"],
    });
  });
  afterAll(async () => {
    await harness?.close();
  });

  it(
    `agrees on authorize(), authorizeByResourceType() and ACL filters for ${RUNS} random ACL sets x ` +
      `~${REQUESTS_PER_SET / 2}+${BY_TYPE_PER_SET / 2}+${FILTERS_PER_SET / 2} questions`,
    async () => {
      const stats: Stats = {
        sets: 0,
        authorize: 0,
        byType: 0,
        allowed: 0,
        denied: 0,
        byDefault: 0,
        byAcl: 0,
        byTypeAllowed: 0,
        filters: 0,
        filtersNonEmpty: 0,
      };
      const seed = process.env.DIFFERENTIAL_SEED === undefined ? Date.now() : Number(process.env.DIFFERENTIAL_SEED);
      await fc.assert(
        fc.asyncProperty(caseArb, async (c) => {
          const problem = await compare(harness, c, stats);
          if (problem) throw new Error(problem);
        }),
        { numRuns: RUNS, seed, endOnFailure: false },
      );
      console.info(
        `differential (seed ${seed}): ${stats.sets} ACL sets, ${stats.authorize} authorize() decisions ` +
          `(${stats.allowed} ALLOWED, ${stats.denied} DENIED; ${stats.byDefault} by the no-ACL ` +
          `default, ${stats.byAcl} citing an ACL, same rule as Kafka's), ` +
          `${stats.byType} authorizeByResourceType() decisions (${stats.byTypeAllowed} ALLOWED), ` +
          `${stats.filters} AclBindingFilters (${stats.filtersNonEmpty} matching some ACL): 0 disagreements`,
      );
      // The generator must keep producing cases where every branch of the rule is taken.
      expect(stats.authorize).toBeGreaterThan(RUNS * 25);
      expect(stats.allowed).toBeGreaterThan(stats.authorize * 0.05);
      expect(stats.denied).toBeGreaterThan(stats.authorize * 0.05);
      expect(stats.byDefault).toBeGreaterThan(0);
      // The harness could read Kafka's deciding rule, so explanations were compared ACL for ACL.
      expect(stats.byAcl).toBeGreaterThan(stats.authorize * 0.05);
      expect(stats.byTypeAllowed).toBeGreaterThan(0);
      expect(stats.byType - stats.byTypeAllowed).toBeGreaterThan(0);
      expect(stats.filtersNonEmpty).toBeGreaterThan(stats.filters * 0.2);
      expect(stats.filters - stats.filtersNonEmpty).toBeGreaterThan(stats.filters * 0.05);
    },
    120_000,
  );

  it("agrees on hand-picked trap cases", async () => {
    const t = (
      acls: AclBinding[],
      requests: HarnessRequest[],
      opts: Partial<Pick<HarnessCase, "superUsers" | "allowEveryoneIfNoAclFound" | "byType" | "filters">> = {},
    ) => ({
      acls,
      requests,
      superUsers: opts.superUsers ?? [],
      allowEveryoneIfNoAclFound: opts.allowEveryoneIfNoAclFound ?? false,
      byType: opts.byType ?? [],
      filters: opts.filters ?? [],
    });
    const acl = (p: Partial<AclBinding>): AclBinding => ({
      resourceType: "TOPIC",
      resourceName: "orders",
      patternType: "LITERAL",
      principal: "User:alice",
      host: "*",
      operation: "READ",
      permissionType: "ALLOW",
      ...p,
    });
    const req = (p: Partial<HarnessRequest>): HarnessRequest => ({
      principal: "User:alice",
      host: "10.0.0.1",
      operation: "READ",
      resourceType: "TOPIC",
      resourceName: "orders",
      ...p,
    });
    const cases = [
      // An ACL for someone else switches the resource to default-DENY even when allow-everyone is on.
      t([acl({ principal: "User:bob" })], [req({}), req({ resourceName: "other" })], {
        allowEveryoneIfNoAclFound: true,
      }),
      // PREFIXED `*` is not a wildcard; LITERAL `*` is.
      t([acl({ resourceName: "*", patternType: "PREFIXED" })], [req({}), req({ resourceName: "*x" })]),
      t([acl({ resourceName: "*" })], [req({}), req({ resourceName: "*" })]),
      // Kafka quirk the policy core mirrors: a LITERAL `*` ACL does not apply to names that start with `*`
      // (checkSection sees `*` as a literal that is only a prefix and skips it), ALLOW and DENY alike.
      t(
        [
          acl({ resourceType: "GROUP", resourceName: "*" }),
          acl({ resourceType: "GROUP", resourceName: "*", permissionType: "DENY", operation: "DELETE" }),
        ],
        [
          req({ resourceType: "GROUP", resourceName: "*orders" }),
          req({ resourceType: "GROUP", resourceName: "*orders", operation: "DELETE" }),
          req({ resourceType: "GROUP", resourceName: "orders" }),
          req({ resourceType: "GROUP", resourceName: "*" }),
        ],
        { allowEveryoneIfNoAclFound: true },
      ),
      // User:* matches every principal type; Group:* matches nothing special.
      t([acl({ principal: "User:*" })], [req({ principal: "Service:x" }), req({ principal: "Group:g" })]),
      t([acl({ principal: "Group:*" })], [req({ principal: "Group:g" })]),
      // ::1 never matches: Kafka compares with 0:0:0:0:0:0:0:1.
      t(
        [acl({ host: "::1" }), acl({ host: "0:0:0:0:0:0:0:1", operation: "WRITE" })],
        [req({ host: "0:0:0:0:0:0:0:1" }), req({ host: "0:0:0:0:0:0:0:1", operation: "WRITE" })],
      ),
      // Implication is ALLOW-only: DENY READ does not deny DESCRIBE; ALTER does not imply ALTER_CONFIGS.
      t([acl({}), acl({ permissionType: "DENY" })], [req({ operation: "DESCRIBE" }), req({})]),
      t(
        [acl({ operation: "ALTER" })],
        [req({ operation: "ALTER_CONFIGS" }), req({ operation: "DESCRIBE" }), req({ operation: "DESCRIBE_CONFIGS" })],
      ),
      t(
        [acl({ operation: "ALTER_CONFIGS" })],
        [req({ operation: "DESCRIBE_CONFIGS" }), req({ operation: "DESCRIBE" })],
      ),
      // Super users bypass DENY; the match is on the exact Type:name string.
      t(
        [acl({ principal: "User:admin", permissionType: "DENY", operation: "ALL" })],
        [req({ principal: "User:admin" }), req({ principal: "User:Admin" })],
        { superUsers: ["User:admin"] },
      ),
      // Prefixes that share stems.
      t(
        [
          acl({ resourceName: "ab", patternType: "PREFIXED" }),
          acl({ resourceName: "abc", patternType: "PREFIXED", permissionType: "DENY" }),
        ],
        [
          req({ resourceName: "ab" }),
          req({ resourceName: "abd" }),
          req({ resourceName: "abc" }),
          req({ resourceName: "abcd" }),
          req({ resourceName: "a" }),
        ],
      ),
      // authorizeByResourceType: no implication, wildcard DENY wins, a prefix DENY dominates an allowed literal,
      // and an ACL on the dummy name "hardcode" decides through authorize() (with implication).
      t(
        [acl({ resourceName: "ab" }), acl({ resourceName: "a", patternType: "PREFIXED", permissionType: "DENY" })],
        [],
        {
          byType: [
            { principal: "User:alice", host: "10.0.0.1", operation: "READ", resourceType: "TOPIC" },
            { principal: "User:alice", host: "10.0.0.1", operation: "DESCRIBE", resourceType: "TOPIC" },
          ],
        },
      ),
      t([acl({ resourceName: "hardcode", operation: "WRITE" })], [], {
        byType: [{ principal: "User:alice", host: "10.0.0.1", operation: "DESCRIBE", resourceType: "TOPIC" }],
      }),
      t([acl({ resourceName: "x" })], [], {
        allowEveryoneIfNoAclFound: true,
        byType: [{ principal: "User:bob", host: "10.0.0.1", operation: "WRITE", resourceType: "TOPIC" }],
      }),
      // Filters: ANY means "this exact name, any pattern type" (not `*`, not prefixes); MATCH means "what applies";
      // MATCH `*` is the `*` ACL and PREFIXED `*...`; a null name with MATCH is every ACL of the type;
      // principal and host are exact strings (User:alice does not return User:* ACLs).
      t(
        [
          acl({ resourceName: "foo" }),
          acl({ resourceName: "*" }),
          acl({ resourceName: "fo", patternType: "PREFIXED" }),
          acl({ resourceName: "*x", patternType: "PREFIXED" }),
          acl({ resourceName: "foo", principal: "User:*", host: "10.0.0.1" }),
          acl({ resourceType: "GROUP", resourceName: "foo" }),
        ],
        [],
        {
          filters: [
            {
              resourceType: "TOPIC",
              resourceName: "foo",
              patternType: "ANY",
              principal: null,
              host: null,
              operation: "ANY",
              permissionType: "ANY",
            },
            {
              resourceType: "TOPIC",
              resourceName: "foo",
              patternType: "MATCH",
              principal: null,
              host: null,
              operation: "ANY",
              permissionType: "ANY",
            },
            {
              resourceType: "TOPIC",
              resourceName: "*",
              patternType: "MATCH",
              principal: null,
              host: null,
              operation: "ANY",
              permissionType: "ANY",
            },
            {
              resourceType: "TOPIC",
              resourceName: null,
              patternType: "MATCH",
              principal: null,
              host: null,
              operation: "ANY",
              permissionType: "ANY",
            },
            {
              resourceType: "ANY",
              resourceName: "foo",
              patternType: "LITERAL",
              principal: "User:alice",
              host: null,
              operation: "READ",
              permissionType: "ALLOW",
            },
            {
              resourceType: "ANY",
              resourceName: null,
              patternType: "ANY",
              principal: null,
              host: "10.0.0.1",
              operation: "ANY",
              permissionType: "ANY",
            },
          ],
        },
      ),
    ];
    for (const c of cases) {
      expect(await compare(harness, c)).toBeUndefined();
    }
  });

  it(
    "answers by the intended rule where Kafka 4.1.1 throws (GROUP names below '*' sharing 2+ leading " + "chars)",
    async () => {
      // kafka-semantics.md §1.10: ACL `!xa`, authorize `!xyz` -> StringIndexOutOfBoundsException in checkSection.
      const c: DiffCase = {
        acls: [
          {
            resourceType: "GROUP",
            resourceName: "!xa",
            patternType: "LITERAL",
            principal: "User:alice",
            host: "*",
            operation: "READ",
            permissionType: "ALLOW",
          },
        ],
        superUsers: [],
        allowEveryoneIfNoAclFound: true,
        requests: [
          { principal: "User:alice", host: "10.0.0.1", operation: "READ", resourceType: "GROUP", resourceName: "!xyz" },
        ],
      };
      const request = c.requests[0]!;
      // The literal `!xa` does not apply to `!xyz`: no ACL on the resource, so the default (allow) applies.
      const mine = coreAuthorize(c, coreIndex(c.acls), request);
      expect(mine.decision).toBe("ALLOWED");
      expect(mine.ruleKind).toBe("default");
      const kafka = (await harness.authorize(c)).results[0];
      // Either Kafka still throws (the defect), or it has been fixed and then it must agree.
      if (kafka && "error" in kafka) expect(kafka.error).toMatch(/StringIndexOutOfBounds/);
      else expect(kafka?.decision).toBe("ALLOWED");
    },
  );

  it(
    "answers by the intended rule where Kafka 4.1.1 hangs (GROUP names below '*' sharing 1 leading " +
      "char), and the harness survives the hang",
    async () => {
      // kafka-semantics.md §1.10: ACL `!a`, authorize `!b` -> checkSection never returns.
      const c: DiffCase = {
        acls: [
          {
            resourceType: "GROUP",
            resourceName: "!a",
            patternType: "LITERAL",
            principal: "User:alice",
            host: "*",
            operation: "READ",
            permissionType: "ALLOW",
          },
        ],
        superUsers: [],
        allowEveryoneIfNoAclFound: false,
        requests: [
          { principal: "User:alice", host: "10.0.0.1", operation: "READ", resourceType: "GROUP", resourceName: "!b" },
        ],
      };
      const mine = coreAuthorize(c, coreIndex(c.acls), c.requests[0]!);
      expect(mine.decision).toBe("DENIED");
      expect(mine.ruleKind).toBe("default");
      const outcome = await harness.authorize(c, 3_000).then(
        (a) => a.results[0],
        (e: unknown) => e,
      );
      if (outcome instanceof HarnessTimeoutError) {
        // The JVM was killed; the next batch gets a fresh one.
        expect(await harness.ping()).toBe("4.1.1");
      } else {
        expect(outcome).toEqual({ decision: "DENIED", byDefault: true });
      }
    },
    60_000,
  );

  it("answers a request from the principal `User:*` by the ACLs, where Kafka 4.1.1 throws", async () => {
    const c: DiffCase = {
      acls: [
        {
          resourceType: "TOPIC",
          resourceName: "orders",
          patternType: "LITERAL",
          principal: "User:*",
          host: "*",
          operation: "READ",
          permissionType: "ALLOW",
        },
      ],
      superUsers: [],
      allowEveryoneIfNoAclFound: false,
      requests: [
        { principal: "User:*", host: "10.0.0.1", operation: "READ", resourceType: "TOPIC", resourceName: "orders" },
      ],
    };
    expect(coreAuthorize(c, coreIndex(c.acls), c.requests[0]!).decision).toBe("ALLOWED");
    const kafka = (await harness.authorize(c)).results[0];
    // StandardAuthorizerData.matchingPrincipals builds Set.of(principal, User:*), which rejects duplicates.
    if (kafka && "error" in kafka) expect(kafka.error).toMatch(/duplicate element: User:\*/);
    else expect(kafka?.decision).toBe("ALLOWED");
  });
});
