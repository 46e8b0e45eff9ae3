import { describe, expect, it } from "vitest";
import { readinessProbe } from "./readiness";

describe("the readiness probe", () => {
  it("is ready only when both the database and Kafka answer, and says which failed (for the log)", async () => {
    const up = readinessProbe({ database: async () => 1, kafka: async () => undefined }, { cacheMs: 0 });
    expect(await up.check()).toEqual({ ready: true, problems: [] });
    const noKafka = readinessProbe(
      { database: async () => 1, kafka: () => Promise.reject(new Error("connect ECONNREFUSED")) },
      { cacheMs: 0 },
    );
    expect(await noKafka.check()).toEqual({ ready: false, problems: ["kafka: connect ECONNREFUSED"] });
    const noDatabase = readinessProbe(
      {
        database: () => {
          throw new Error("DATABASE_URL is not set");
        },
        kafka: async () => undefined,
      },
      { cacheMs: 0 },
    );
    expect(await noDatabase.check()).toEqual({ ready: false, problems: ["database: DATABASE_URL is not set"] });
  });

  it("gives up on a check that hangs after the timeout", async () => {
    const probe = readinessProbe(
      { database: () => new Promise(() => {}), kafka: async () => undefined },
      { cacheMs: 0, timeoutMs: 50 },
    );
    const started = Date.now();
    expect(await probe.check()).toEqual({ ready: false, problems: ["database: timed out"] });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it(
    "a probe storm costs one check per cache period: concurrent probes share one, later ones reuse " + "its answer",
    async () => {
      let now = 0;
      let checks = 0;
      const probe = readinessProbe(
        {
          database: async () => {
            checks += 1;
            await new Promise((r) => setTimeout(r, 20));
          },
          kafka: async () => undefined,
        },
        { cacheMs: 1_500, now: () => now },
      );
      const storm = await Promise.all(Array.from({ length: 200 }, () => probe.check()));
      expect(storm.every((r) => r.ready)).toBe(true);
      expect(checks).toBe(1);
      now = 1_000;
      await probe.check();
      expect(checks).toBe(1);
      now = 1_600;
      await probe.check();
      expect(checks).toBe(2);
      expect(probe.last()).toBe(true);
    },
  );
});
