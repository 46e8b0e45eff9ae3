/**
 * The blast radius and the plan against brute force, on thousands of random ACL sets:
 * every principal x host x resource x operation (kafka-acls.sh's table, ALL excluded) of
 * the universe decided through `authorize` before and after the change, and the plan's
 * creates and deletes against a plain reading of add-only / sync / lists.
 *
 * The generators reuse the awkward corners of authorize.property.test.ts: names sharing
 * stems, `*` and `!` in names (the LITERAL `*` quirk), `User:*`, other principal types,
 * a colon-less principal from an old cluster, host-pinned ACLs, operations kafka-acls.sh
 * would refuse on the type, super users and allow.everyone.if.no.acl.found.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  OPERATIONS,
  RESOURCE_TYPES,
  type AclBinding,
  type AclOperation,
  type PatternType,
  type ResourceType,
} from "../types";
import { AclIndex, bindingKey } from "./acl-index";
import { authorize } from "./authorize";
import type { AuthorizerConfig } from "./model";
import { SUPPORTED_OPERATIONS } from "./operations";
import { blastRadius } from "./blast-radius";
import type { AclDecisionChange } from "./blast-radius-result";
import { applyPlan, computePlan, inPlanScope, planWithBlastRadius, type PlanInput } from "./plan";
import type { PlanUniverse } from "./plan-universe";
import { validateNewAcl } from "./validate";

// ---- brute force ---------------------------------------------------------------------

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function bruteForce(
  before: readonly AclBinding[],
  after: readonly AclBinding[],
  universe: PlanUniverse,
  config: AuthorizerConfig,
): AclDecisionChange[] {
  const bi = AclIndex.build(before);
  const ai = AclIndex.build(after);
  const principals = [...new Set(universe.principals)].sort(cmp);
  const hosts = [...new Set(universe.hosts)].sort(cmp);
  const resources = [
    ...new Map(universe.resources.map((r) => [`${r.resourceType}\u0000${r.resourceName}`, r])).values(),
  ].sort(
    (a, b) =>
      RESOURCE_TYPES.indexOf(a.resourceType) - RESOURCE_TYPES.indexOf(b.resourceType) ||
      cmp(a.resourceName, b.resourceName),
  );
  const out: AclDecisionChange[] = [];
  for (const { resourceType, resourceName } of resources) {
    for (const principal of principals) {
      for (const host of hosts) {
        for (const operation of SUPPORTED_OPERATIONS[resourceType]) {
          const request = { principal, host, operation, resourceType, resourceName };
          const was = authorize(bi, request, config).decision;
          const is = authorize(ai, request, config).decision;
          if (was !== is) out.push({ principal, host, resourceType, resourceName, operation, before: was, after: is });
        }
      }
    }
  }
  return out;
}

// ---- generators ----------------------------------------------------------------------

const nameArb = fc
  .array(fc.constantFrom("a", "b", "ab", "*", "!", "-x"), { maxLength: 3 })
  .map((parts) => parts.join(""));
const typeArb = fc.constantFrom<ResourceType>("TOPIC", "GROUP", "TOPIC", "CLUSTER", "USER");
const aclPrincipalArb = fc.constantFrom(
  "User:alice",
  "User:bob",
  "User:*",
  "User:*",
  "Group:*",
  "Service:alice",
  "bob",
);
const hostArb = fc.constantFrom("*", "*", "10.0.0.1", "10.0.0.2");

/** Mostly operations the type supports (so that many decisions can change), some it does not. */
const aclArb: fc.Arbitrary<AclBinding> = typeArb.chain((resourceType) =>
  fc.record({
    resourceType: fc.constant(resourceType),
    resourceName: resourceType === "CLUSTER" ? fc.constantFrom("kafka-cluster", "kafka-cluster", "*") : nameArb,
    patternType: fc.constantFrom<PatternType>("LITERAL", "LITERAL", "PREFIXED"),
    principal: aclPrincipalArb,
    host: hostArb,
    operation: fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom<AclOperation>(...SUPPORTED_OPERATIONS[resourceType]) },
      { weight: 1, arbitrary: fc.constantFrom<AclOperation>(...OPERATIONS) },
    ),
    permissionType: fc.constantFrom("ALLOW" as const, "DENY" as const),
  }),
);

const universeArb: fc.Arbitrary<PlanUniverse> = fc.record({
  principals: fc.subarray(
    ["User:alice", "User:bob", "Service:alice", "User:carol", "Group:*", "User:*", "User:alice"],
    { minLength: 1 },
  ),
  hosts: fc.subarray(["10.0.0.1", "10.0.0.2", "10.0.0.3", "*"], { minLength: 1 }),
  resources: fc.array(
    typeArb.chain((resourceType) =>
      fc.record({
        resourceType: fc.constant(resourceType),
        resourceName: resourceType === "CLUSTER" ? fc.constant("kafka-cluster") : nameArb,
      }),
    ),
    { minLength: 1, maxLength: 10 },
  ),
});

const configArb: fc.Arbitrary<AuthorizerConfig> = fc.record({
  superUsers: fc.subarray(["User:bob", "Service:alice"], { maxLength: 1 }),
  allowEveryoneIfNoAclFound: fc.boolean(),
});

/** A change: lists (creates, some already held; deletes, some not held) or desired + mode + scope. */
function changeArb(current: AclBinding[]): fc.Arbitrary<Omit<PlanInput, "current">> {
  const held = current.length > 0 ? fc.constantFrom(...current) : aclArb;
  const some = fc.array(fc.oneof({ weight: 3, arbitrary: aclArb }, { weight: 1, arbitrary: held }), { maxLength: 4 });
  const lists = fc.record({
    create: some,
    delete: fc.array(fc.oneof({ weight: 3, arbitrary: held }, { weight: 1, arbitrary: aclArb }), { maxLength: 4 }),
  });
  const desired = fc.record({
    desired: fc
      .tuple(fc.subarray(current), fc.array(aclArb, { maxLength: 3 }))
      .map(([kept, extra]) => [...kept, ...extra]),
    mode: fc.constantFrom<"add-only" | "sync">("add-only", "sync", "sync"),
    scope: fc.option(
      fc.record({
        principals: fc.option(fc.subarray(["User:alice", "User:*", "bob", "Group:*"]), { nil: undefined }),
        resourcePrefix: fc.option(fc.constantFrom("a", "", "*", "ab", "kafka"), { nil: undefined }),
      }),
      { nil: undefined },
    ),
  });
  return fc.oneof(lists, desired);
}

const scenarioArb = fc
  .array(aclArb, { maxLength: 25 })
  .chain((current) =>
    fc.record({ current: fc.constant(current), change: changeArb(current), universe: universeArb, config: configArb }),
  );

const RUNS = 1500;

// ---- properties ------------------------------------------------------------------------

describe("blast radius — equals brute force", () => {
  it(
    "plan + blastRadius: decisionChanges are exactly the universe requests whose authorize decision " +
      "differs, in order",
    () => {
      fc.assert(
        fc.property(scenarioArb, ({ current, change, universe, config }) => {
          const { plan, blast } = planWithBlastRadius({ current, ...change, universe, config });
          const after = applyPlan(current, plan);
          const expected = bruteForce(current, after, universe, config);
          expect(blast.all()).toEqual(expected);
          expect(blast.total).toBe(expected.length);
          // From a prebuilt index of the whole set (the list path indexes only what the change touches).
          expect(blastRadius({ before: AclIndex.build(current), change: plan, universe, config }).all()).toEqual(
            expected,
          );
          expect(blast.checked).toBeLessThanOrEqual(blast.universeRequests);
        }),
        { numRuns: RUNS },
      );
    },
  );

  it("given the whole ACL set after (instead of the change), from a list or an index, the answer is the same", () => {
    fc.assert(
      fc.property(
        fc.array(aclArb, { maxLength: 25 }),
        fc.array(aclArb, { maxLength: 25 }),
        universeArb,
        configArb,
        (before, after, universe, config) => {
          const expected = bruteForce(before, after, universe, config);
          expect(blastRadius({ before, after, universe, config }).all()).toEqual(expected);
          expect(blastRadius({ before: AclIndex.build(before), after, universe, config }).all()).toEqual(expected);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("pages, walking and the summary agree with the full list", () => {
    fc.assert(
      fc.property(scenarioArb, fc.integer({ min: 1, max: 7 }), ({ current, change, universe, config }, pageSize) => {
        const { blast } = planWithBlastRadius({ current, ...change, universe, config });
        const all = blast.all();
        const paged: AclDecisionChange[] = [];
        for (let offset = 0; offset < blast.total; offset += pageSize) paged.push(...blast.page(offset, pageSize));
        expect(paged).toEqual(all);
        expect([...blast]).toEqual(all);
        const walked: AclDecisionChange[] = [];
        blast.forEach((r) => walked.push(r));
        expect(walked).toEqual(all);
        expect(blast.page(blast.total, 5)).toEqual([]);

        const s = blast.summary();
        const gainedRows = all.filter((r) => r.after === "ALLOWED");
        expect(s.changes).toBe(all.length);
        expect(s.gained).toBe(gainedRows.length);
        expect(s.lost).toBe(all.length - gainedRows.length);
        const byPrincipal = new Map<string, { gained: number; lost: number }>();
        const byResource = new Map<string, { gained: number; lost: number }>();
        for (const r of all) {
          const p = byPrincipal.get(r.principal) ?? { gained: 0, lost: 0 };
          const k = `${r.resourceType} ${r.resourceName}`;
          const q = byResource.get(k) ?? { gained: 0, lost: 0 };
          const field = r.after === "ALLOWED" ? "gained" : "lost";
          p[field]++;
          q[field]++;
          byPrincipal.set(r.principal, p);
          byResource.set(k, q);
        }
        expect(s.byPrincipal).toEqual(
          [...byPrincipal].sort(([a], [b]) => cmp(a, b)).map(([principal, c]) => ({ principal, ...c })),
        );
        expect(
          s.byResource.map((r) => [`${r.resourceType} ${r.resourceName}`, { gained: r.gained, lost: r.lost }]),
        ).toEqual([...byResource]);
        expect(s.principals).toBe(byPrincipal.size);
        expect(s.resources).toBe(byResource.size);
      }),
      { numRuns: 500 },
    );
  });
});

describe("plan — creates and deletes", () => {
  const keys = (bs: readonly AclBinding[]) => bs.map(bindingKey);

  it(
    "add-only and sync: create = valid desired not held; delete = held, in scope, not desired (sync with a " +
      "narrowing scope only)",
    () => {
      fc.assert(
        fc.property(scenarioArb, ({ current, change }) => {
          fc.pre(change.desired !== undefined);
          const plan = computePlan({ current, ...change });
          const desired = change.desired as AclBinding[];
          const valid = desired.filter((b) => validateNewAcl(b).ok);
          const held = new Set(keys(current));
          expect(keys(plan.create)).toEqual([...new Set(keys(valid).filter((k) => !held.has(k)))]);
          expect(plan.invalid.map((i) => i.binding)).toEqual(
            desired.filter((b, i) => !validateNewAcl(b).ok && keys(desired).indexOf(bindingKey(b)) === i),
          );
          const scope = change.scope;
          const narrows =
            scope !== undefined && ((scope.principals?.length ?? 0) > 0 || (scope.resourcePrefix ?? "").length > 0);
          if (change.mode !== "sync") {
            expect(plan.delete).toEqual([]);
            expect(plan.refused).toBeUndefined();
          } else if (!narrows || valid.length === 0) {
            expect(plan.delete).toEqual([]);
            expect(plan.refused?.code).toBe(narrows ? "SYNC_WITHOUT_DESIRED" : "SYNC_WITHOUT_SCOPE");
          } else {
            const wanted = new Set(keys(desired));
            const expected = [
              ...new Set(keys(current.filter((b) => inPlanScope(b, scope) && !wanted.has(bindingKey(b))))),
            ];
            expect(keys(plan.delete)).toEqual(expected);
            for (const b of plan.delete) {
              if (scope.principals !== undefined && scope.principals.length > 0)
                expect(scope.principals).toContain(b.principal);
              expect(b.resourceName.startsWith(scope.resourcePrefix ?? "")).toBe(true);
            }
            expect(plan.refused).toBeUndefined();
          }
        }),
        { numRuns: RUNS },
      );
    },
  );

  it("lists: creates not held, deletes held, a binding in both lists neither; each once", () => {
    fc.assert(
      fc.property(scenarioArb, ({ current, change }) => {
        fc.pre(change.desired === undefined);
        const plan = computePlan({ current, ...change });
        const create = (change.create ?? []) as AclBinding[];
        const del = change.delete ?? [];
        const held = new Set(keys(current));
        const both = new Set(keys(create).filter((k) => keys(del).includes(k)));
        const validCreates = create.filter((b) => validateNewAcl(b).ok);
        expect(keys(plan.create)).toEqual([...new Set(keys(validCreates).filter((k) => !held.has(k) && !both.has(k)))]);
        expect(keys(plan.delete)).toEqual([...new Set(keys(del).filter((k) => held.has(k) && !both.has(k)))]);
        expect(plan.exceedsMaxDeletes).toBe(false);
        // What the plan does is what applying it does.
        const after = new Set(keys(applyPlan(current, plan)));
        for (const k of keys(plan.create)) expect(after.has(k)).toBe(true);
        for (const k of keys(plan.delete)) expect(after.has(k)).toBe(false);
      }),
      { numRuns: RUNS },
    );
  });
});
