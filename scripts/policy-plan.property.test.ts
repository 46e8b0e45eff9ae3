/**
 * The policy CLI's `plan` command against brute force through the CLI's own `authorize`
 * command, in process (spawning per case would allow a few dozen cases; this runs
 * hundreds): random current ACL sets, random changes (lists, add-only, sync with a scope),
 * random universes and authorizer settings, as JSON documents. Brute force: every
 * principal x host x resource x operation kafka-acls.sh allows on the type, decided by
 * `authorize` over `current` and over current - delete + create.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { JsonAnswer, PolicyInputError, aclJsonCommands } from "./policy-acl";

interface Binding {
  resourceType: string;
  resourceName: string;
  patternType: string;
  principal: string;
  host: string;
  operation: string;
  permissionType: string;
}

interface Change {
  principal: string;
  host: string;
  resourceType: string;
  resourceName: string;
  operation: string;
  before: string;
  after: string;
}

/** kafka-acls.sh's operations per resource type (ALL excluded), as docs/policy-cli.md states them. */
const OPS: Record<string, string[]> = {
  TOPIC: ["READ", "WRITE", "CREATE", "DESCRIBE", "DELETE", "ALTER", "DESCRIBE_CONFIGS", "ALTER_CONFIGS"],
  GROUP: ["READ", "DESCRIBE", "DELETE", "DESCRIBE_CONFIGS", "ALTER_CONFIGS"],
  TRANSACTIONAL_ID: ["DESCRIBE", "WRITE"],
};

const key = (b: Binding) =>
  [b.resourceType, b.resourceName, b.patternType, b.principal, b.host, b.operation, b.permissionType].join("|");

const nameArb = fc.array(fc.constantFrom("o", "or", "orders", "-dlq", "*"), { maxLength: 3 }).map((p) => p.join(""));
const typeArb = fc.constantFrom("TOPIC", "TOPIC", "GROUP", "TRANSACTIONAL_ID");
const bindingArb: fc.Arbitrary<Binding> = typeArb.chain((resourceType) =>
  fc.record({
    resourceType: fc.constant(resourceType),
    resourceName: nameArb,
    patternType: fc.constantFrom("LITERAL", "LITERAL", "PREFIXED"),
    principal: fc.constantFrom("User:svc-orders", "User:alice", "User:*", "User:*", "Group:ops"),
    host: fc.constantFrom("*", "*", "10.0.0.1"),
    operation: fc.constantFrom("ALL", ...OPS[resourceType]!),
    permissionType: fc.constantFrom("ALLOW", "ALLOW", "DENY"),
  }),
);

const docArb = fc.array(bindingArb, { maxLength: 20 }).chain((current) =>
  fc.record({
    current: fc.constant(current),
    change: fc.oneof(
      fc.record({
        create: fc.array(bindingArb, { maxLength: 3 }),
        delete:
          current.length === 0 ? fc.constant([]) : fc.subarray(current, { maxLength: Math.min(3, current.length) }),
      }),
      fc.record({
        desired: fc.tuple(fc.subarray(current), fc.array(bindingArb, { maxLength: 2 })).map(([a, b]) => [...a, ...b]),
        mode: fc.constantFrom("add-only", "sync"),
        scope: fc.constantFrom(
          { resourcePrefix: "or" },
          { principals: ["User:*"] },
          { principals: ["User:alice"], resourcePrefix: "o" },
        ),
      }),
    ),
    universe: fc.record({
      principals: fc.subarray(["User:svc-orders", "User:alice", "User:bob", "Group:ops", "User:admin"], {
        minLength: 1,
      }),
      hosts: fc.subarray(["10.0.0.1", "10.0.0.2"], { minLength: 1 }),
      resources: fc.uniqueArray(
        fc.record({ resourceType: typeArb, resourceName: nameArb.filter((n) => n.length > 0) }),
        {
          minLength: 1,
          maxLength: 8,
          selector: (r) => `${r.resourceType}|${r.resourceName}`,
        },
      ),
    }),
    superUsers: fc.constantFrom([], ["User:admin"]),
    allowEveryoneIfNoAclFound: fc.boolean(),
  }),
);

describe("policy plan — agrees with brute force through authorize", () => {
  it(
    "decisionChanges = the universe requests whose authorize answer differs before and after the plan's " +
      "creates and deletes",
    () => {
      fc.assert(
        fc.property(docArb, ({ current, change, universe, superUsers, allowEveryoneIfNoAclFound }) => {
          const out = aclJsonCommands.plan({ current, ...change, universe, superUsers, allowEveryoneIfNoAclFound }) as {
            create: Binding[];
            delete: Binding[];
            decisionChanges: Change[];
          };
          const gone = new Set(out.delete.map(key));
          const after = [...current.filter((b) => !gone.has(key(b))), ...out.create];
          const requests = universe.resources.flatMap((r) =>
            universe.principals.flatMap((principal) =>
              universe.hosts.flatMap((host) =>
                OPS[r.resourceType]!.map((operation) => ({ principal, host, operation, ...r })),
              ),
            ),
          );
          const decide = (acls: Binding[]) =>
            (
              aclJsonCommands.authorize({ acls, requests, superUsers, allowEveryoneIfNoAclFound }) as {
                results: { decision: string }[];
              }
            ).results.map((r) => r.decision);
          const was = decide(current);
          const is = decide(after);
          const expected = requests.flatMap((r, i) =>
            was[i] === is[i]
              ? []
              : [
                  {
                    principal: r.principal,
                    host: r.host,
                    resourceType: r.resourceType,
                    resourceName: r.resourceName,
                    operation: r.operation,
                    before: was[i]!,
                    after: is[i]!,
                  },
                ],
          );
          const order = (c: Change) =>
            JSON.stringify([c.resourceType, c.resourceName, c.principal, c.host, c.operation]);
          expect(out.decisionChanges.map(order).sort()).toEqual(expected.map(order).sort());
          expect(new Set(out.decisionChanges.map((c) => JSON.stringify(c)))).toEqual(
            new Set(expected.map((c) => JSON.stringify(c))),
          );
        }),
        { numRuns: 400 },
      );
    },
  );
});

describe("policy plan — input the CLI refuses (exit 2) and the maxDeletes answer (exit 1)", () => {
  const universe = {
    principals: ["User:alice"],
    hosts: ["::1"],
    resources: [{ resourceType: "TOPIC", resourceName: "t" }],
  };
  const readT = {
    resourceType: "TOPIC",
    resourceName: "t",
    patternType: "LITERAL",
    principal: "User:alice",
    host: "*",
    operation: "READ",
    permissionType: "ALLOW",
  };

  it.each([
    [
      { current: [], universe: { ...universe, principals: ["alice"] } },
      'universe.principals[0] must be a principal in the form Type:name (for example User:alice), got "alice"',
    ],
    [
      { current: [], universe: { ...universe, resources: [{ resourceType: "ANY", resourceName: "t" }] } },
      "universe.resources[0].resourceType must be one of",
    ],
    [{ current: [], universe: { ...universe, extra: [] } }, 'universe: unknown field "extra"'],
    [{ current: [], universe, desired: [], mode: "mirror" }, 'mode must be "add-only" or "sync", got "mirror"'],
    [{ current: [], universe, mode: "sync" }, "mode applies to desired, which is missing"],
    [{ current: [], universe, desired: [], scope: { prefix: "t" } }, 'scope: unknown field "prefix"'],
    [{ current: [], universe, delete: [{ resourceType: "TOPIC" }] }, "delete[0].resourceName must be a string"],
    [{ current: [], universe, maxDeletes: 1.5 }, "maxDeletes must be a non-negative integer, got 1.5"],
    [{ current: [], universe, maxDelete: 1 }, 'the input: unknown field "maxDelete"'],
  ])("%j", (doc, message) => {
    expect(() => aclJsonCommands.plan(doc)).toThrow(PolicyInputError);
    expect(() => aclJsonCommands.plan(doc)).toThrow(message);
  });

  it("null counts as absent; client addresses are read the way the broker prints them", () => {
    const out = aclJsonCommands.plan({
      current: [],
      create: [readT],
      delete: null,
      desired: null,
      mode: null,
      scope: null,
      maxDeletes: null,
      universe,
    }) as { decisionChanges: { host: string }[] };
    expect(out.decisionChanges.map((c) => c.host)).toEqual(["0:0:0:0:0:0:0:1", "0:0:0:0:0:0:0:1"]);
  });

  it("more deletes than maxDeletes: the whole answer, exit code 1 and the reason", () => {
    const answer = aclJsonCommands.plan({ current: [readT], delete: [readT], universe, maxDeletes: 0 });
    expect(answer).toBeInstanceOf(JsonAnswer);
    const { output, exitCode, message } = answer as JsonAnswer;
    expect(exitCode).toBe(1);
    expect(message).toBe("the plan deletes 1 binding, more than maxDeletes (0)");
    expect(output).toMatchObject({
      delete: [readT],
      decisionChanges: [{ operation: "READ", before: "ALLOWED", after: "DENIED" }, { operation: "DESCRIBE" }],
    });
    expect(aclJsonCommands.plan({ current: [readT], delete: [readT], universe, maxDeletes: 1 })).not.toBeInstanceOf(
      JsonAnswer,
    );
  });
});
