/**
 * Parity of the policy core's quota module with Apache Kafka's own classes (the jars the dev
 * broker runs, from .kafka/lib): thousands of random cases per run through
 *  - ClientQuotaControlManager#alterClientQuotas (AlterClientQuotas validation and messages),
 *  - ClientQuotasImage#describe (DescribeClientQuotas filters, strict, error codes),
 *  - ClientQuotaManager (the 8-level precedence, quota bound and metric tags),
 * driven by scripts/policy/QuotaParity.java. A failure prints the seed and the first cases
 * that differ. Needs Java 17+ (javac) and the jars (`bash scripts/kafka.sh jars`).
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { compileJavaAgainstKafka, ROOT } from "../java-harness";
import { validateQuotaAlteration } from "../../lib/policy/quota/alter";
import { describeClientQuotas } from "../../lib/policy/quota/filter";
import { resolveClientQuota } from "../../lib/policy/quota/resolve";
import type { ConfiguredQuota, QuotaEntity } from "../../lib/policy/types";

const SOURCE = path.join(ROOT, "scripts", "policy", "QuotaParity.java");
const CLASSES = path.join(ROOT, ".kafka", "quota-parity");
const RUNS = Number(process.env.QUOTA_PARITY_RUNS ?? 1500);
const SEED = Number(process.env.QUOTA_PARITY_SEED ?? Date.now() % 2 ** 31);

let classpath = "";

beforeAll(() => {
  classpath = compileJavaAgainstKafka(SOURCE, CLASSES).classpath;
}, 180_000);

/** Runs every case through Kafka in one JVM; one JSON answer per case. */
function kafka(mode: "alter" | "describe" | "resolve", cases: unknown[]): unknown[] {
  const r = spawnSync("java", ["-cp", classpath, "QuotaParity", mode], {
    input: cases.map((c) => JSON.stringify(c)).join("\n") + "\n",
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`QuotaParity ${mode} failed: ${r.stderr}`);
  return r.stdout
    .split("\n")
    .filter((l) => l.startsWith("{") || l.startsWith("["))
    .map((l) => JSON.parse(l) as unknown);
}

function compare<C>(cases: C[], ours: unknown[], theirs: unknown[]): void {
  expect(theirs).toHaveLength(cases.length);
  const diffs = cases
    .map((c, i) => ({ c, ours: ours[i], kafka: theirs[i] }))
    .filter((d) => JSON.stringify(d.ours) !== JSON.stringify(d.kafka))
    .slice(0, 5);
  expect(diffs, `seed ${SEED}: first cases where the policy core and Kafka differ`).toEqual([]);
}

const sample = <T>(arb: fc.Arbitrary<T>, offset: number) => fc.sample(arb, { numRuns: RUNS, seed: SEED + offset });

describe("quota parity with Kafka", () => {
  it("AlterClientQuotas validation: same verdict, same error, same message", () => {
    const name = fc.constantFrom<string | null>("a", "user-1", "", null, "a b", "<default>");
    // IP names stay within literals and names that never resolve, so DNS cannot decide.
    const ipName = fc.constantFrom<string | null>(
      "1.2.3.4",
      "::1",
      "1.2.3",
      "0:0:0:0:0:0:0:1",
      "",
      null,
      "example.invalid",
      "256.1.1.1",
      "1.2.3.4.",
      "::ffff:10.0.0.1",
    );
    const entry = fc
      .constantFrom("user", "client-id", "ip", "foo", "")
      .chain((t) => (t === "ip" ? ipName : name).map((n) => [t, n] as [string, string | null]));
    const entity = fc.uniqueArray(entry, { maxLength: 3, selector: ([t]) => t });
    const key = fc.constantFrom<string | null>(
      "producer_byte_rate",
      "consumer_byte_rate",
      "request_percentage",
      "controller_mutation_rate",
      "connection_creation_rate",
      "bad",
      null,
    );
    const value = fc.oneof(
      fc.constantFrom<number | null>(
        null,
        0,
        -1,
        1,
        1.5,
        99.9,
        1235.0000001,
        0.9999999,
        2147483647,
        2147483648,
        1e19,
        2 ** 63,
      ),
      fc.double({ min: -10, max: 1e12, noNaN: true }),
    );
    // A null key cannot travel over the wire (the protocol's Key is a non-nullable string); Kafka's
    // unit test still asks for it with a value. Removing a null key makes Kafka 4.1 throw an NPE.
    const op = fc.tuple(key, value).filter(([k, v]) => k !== null || v !== null);
    const cases = sample(fc.record({ entity, ops: fc.array(op, { maxLength: 4 }) }), 1);
    const ours = cases.map((c) =>
      validateQuotaAlteration(
        Object.fromEntries(c.entity),
        c.ops.map(([k, v]) => ({ key: k, value: v })),
      ),
    );
    compare(cases, ours, kafka("alter", cases));
  }, 120_000);

  it("DescribeClientQuotas filters: same entities or the same error", () => {
    const name = fc.constantFrom<string | null>("a", "b", "<default>", null);
    const entityArb = fc.oneof(
      fc.record({ user: name }),
      fc.record({ "client-id": name }),
      fc.record({ user: name, "client-id": name }),
      fc.record({ ip: fc.constantFrom<string | null>("1.2.3.4", null) }),
    );
    const component = fc.tuple(
      fc.constantFrom("user", "client-id", "ip", "user", "client-id", "other", ""),
      fc.oneof(fc.integer({ min: 0, max: 2 }), fc.constant(5)),
      fc.constantFrom<string | null>("a", "b", "<default>", "1.2.3.4", null, null),
    );
    const cases = sample(
      fc.record({
        entities: fc.uniqueArray(entityArb, { maxLength: 8, selector: (e) => JSON.stringify(e) }),
        components: fc.array(component, { maxLength: 3 }),
        strict: fc.boolean(),
      }),
      2,
    );
    const ours = cases.map((c) => {
      const configured: ConfiguredQuota[] = c.entities.map((entity) => ({
        entity,
        key: "request_percentage",
        value: 1,
      }));
      const r = describeClientQuotas(configured, {
        components: c.components.map(([entityType, matchType, match]) => ({ entityType, matchType, match })),
        strict: c.strict,
      });
      if (!r.ok) return { error: `${r.error}: ${r.message}` };
      const shown = r.entries.map(
        (e) =>
          "{" +
          Object.entries(e.entity)
            .sort(([a], [b]) => (a < b ? -1 : 1))
            .map(([t, n]) => `${t}=${n ?? "<null>"}`)
            .join(", ") +
          "}",
      );
      return { entities: shown.sort() };
    });
    compare(cases, ours, kafka("describe", cases));
  }, 120_000);

  it("quota precedence: same bound and same metric tags (bucket) for every request", () => {
    const user = fc.constantFrom("a", "b", "a b", "u*");
    const client = fc.constantFrom("x", "y", "<default>");
    const quota = fc.oneof(
      fc.record({ user: fc.option(user), value: fc.integer({ min: 1, max: 1000 }) }),
      fc.record({ client: fc.option(client), value: fc.integer({ min: 1, max: 1000 }) }),
      fc.record({ user: fc.option(user), client: fc.option(client), value: fc.integer({ min: 1, max: 1000 }) }),
    );
    const request = fc.tuple(
      fc.constantFrom("a", "b", "a b", "u*", "c", ""),
      fc.constantFrom("x", "y", "<default>", "z", ""),
    );
    const cases = sample(
      fc.record({
        configured: fc.array(quota, { maxLength: 6 }),
        requests: fc.array(request, { minLength: 1, maxLength: 4 }),
      }),
      3,
    );
    const ours = cases.map((c) => {
      const configured: ConfiguredQuota[] = c.configured.map((q) => {
        const entity: QuotaEntity = {};
        if ("user" in q) entity.user = q.user;
        if ("client" in q) entity["client-id"] = q.client;
        return { entity, key: "producer_byte_rate", value: q.value };
      });
      return c.requests.map(([u, cl]) => {
        const r = resolveClientQuota(configured, u, cl, "producer_byte_rate");
        return { value: r.value, user: r.metricTags.user, "client-id": r.metricTags["client-id"] };
      });
    });
    compare(cases, ours, kafka("resolve", cases));
  }, 120_000);
});
