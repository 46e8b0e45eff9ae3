import { describe, expect, it } from "vitest";
import { auditQuerySchema } from "./audit";

describe("auditQuerySchema", () => {
  it("includes the whole `to` day and starts `from` at midnight", () => {
    const q = auditQuerySchema.parse({ from: "2026-11-30", to: "2026-11-30" });
    expect(q.from?.toISOString()).toBe("2026-11-30T00:00:00.000Z");
    expect(q.to?.toISOString()).toBe("2026-11-30T23:59:59.999Z");
  });

  it("rejects a date it cannot read, naming the field", () => {
    const r = auditQuerySchema.safeParse({ from: "yesterday" });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(["from"]);
  });

  it("treats empty filters from the form as absent and rejects unknown outcomes", () => {
    expect(auditQuerySchema.parse({ principal: "", outcome: "" })).toMatchObject({
      principal: undefined,
      outcome: undefined,
      limit: 100,
    });
    expect(auditQuerySchema.safeParse({ outcome: "maybe" }).success).toBe(false);
  });
});
