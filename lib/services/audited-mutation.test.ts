import { beforeEach, describe, expect, it, vi } from "vitest";
import type { KafkaWriter } from "./audited-mutation";

vi.mock("server-only", () => ({}));

const audit = vi.hoisted(() => ({ recordIntent: vi.fn(), completeAudit: vi.fn() }));
vi.mock("@/lib/db/audit", () => audit);
const journal = vi.hoisted(() => ({ recordJournalIntent: vi.fn(), settleJournalIntent: vi.fn() }));
vi.mock("@/lib/db/journal", () => journal);

const { auditedMutation, AUDIT_UNAVAILABLE_MESSAGE, UNSAFE_TEXT_MESSAGE } = await import("./audited-mutation");
const { KafkaOperationError } = await import("@/lib/kafka/errors");
const { WRITER_CLOSED_MESSAGE } = await import("@/lib/kafka/writes");

const viewer = { principal: "User:alice" };
const spec = {
  viewer,
  action: "acl.create",
  category: "acl" as const,
  target: "TOPIC:orders",
  request: { bindings: [{ principal: "User:bob" }] },
};
const ok = { result: { ok: true as const, data: "done" }, audit: { outcome: "success" as const, message: "done" } };

let order: string[];

beforeEach(() => {
  vi.clearAllMocks();
  order = [];
  audit.recordIntent.mockImplementation(async () => (order.push("intent"), { id: "7" }));
  audit.completeAudit.mockImplementation(async () => void order.push("outcome"));
  journal.recordJournalIntent.mockImplementation(async () => (order.push("journal intent"), "j1"));
  journal.settleJournalIntent.mockImplementation(async () => (order.push("journal settled"), "recorded"));
  vi.spyOn(console, "error").mockImplementation(() => {});
});

describe("auditedMutation", () => {
  it("records the intent, then makes the change, then records the outcome on the intent's row", async () => {
    const r = await auditedMutation(spec, async () => (order.push("kafka"), ok));
    expect(r).toEqual({ ok: true, data: "done" });
    expect(order).toEqual(["intent", "kafka", "outcome"]);
    expect(audit.recordIntent).toHaveBeenCalledWith(
      expect.objectContaining({
        principal: "User:alice",
        action: "acl.create",
        category: "acl",
        target: "TOPIC:orders",
      }),
    );
    expect(audit.completeAudit).toHaveBeenCalledWith("7", ok.audit);
  });

  it("does not make the change when the intent cannot be written, and says nothing was changed", async () => {
    audit.recordIntent.mockRejectedValue(new Error("Can't reach database server"));
    const change = vi.fn(async () => ok);
    const r = await auditedMutation(spec, change);
    expect(change).not.toHaveBeenCalled();
    expect(r).toEqual({ ok: false, code: "INTERNAL", message: AUDIT_UNAVAILABLE_MESSAGE });
    expect(audit.completeAudit).not.toHaveBeenCalled();
  });

  it("reports a change whose outcome cannot be written (after one retry): the row stays pending", async () => {
    audit.completeAudit.mockRejectedValue(new Error("connection lost"));
    const r = await auditedMutation(spec, async () => ok);
    expect(r).toEqual({ ok: true, data: "done" });
    expect(audit.completeAudit).toHaveBeenCalledTimes(2);
    expect(String(vi.mocked(console.error).mock.calls[0]?.[0])).toContain('stays "pending"');
  });

  it(
    "refuses NUL, control characters and lone surrogates as field errors before the intent, keyed " +
      "like the request",
    async () => {
      const change = vi.fn(async () => ok);
      const r = await auditedMutation(
        { ...spec, request: { bindings: [{ principal: "User:b\u0000b", host: "\uD800" }] } },
        change,
      );
      expect(r).toMatchObject({ ok: false, code: "VALIDATION", message: UNSAFE_TEXT_MESSAGE });
      expect(r.ok ? {} : Object.keys(r.fieldErrors ?? {}).sort()).toEqual(["bindings.0.host", "bindings.0.principal"]);
      const subjects = await auditedMutation({ ...spec, request: {}, subjects: ["User:\u0007"] }, change);
      expect(subjects).toMatchObject({ ok: false, code: "VALIDATION", fieldErrors: { _: [expect.any(String)] } });
      expect(audit.recordIntent).not.toHaveBeenCalled();
      expect(change).not.toHaveBeenCalled();
    },
  );

  it(
    "turns a thrown Kafka refusal into a denied outcome, and anything else into unknown (it may have " +
      "reached Kafka)",
    async () => {
      const denied = await auditedMutation(spec, async () => {
        throw new KafkaOperationError({
          code: "CLUSTER_AUTHORIZATION_FAILED",
          api: "CreateAcls",
          message: "Kafka refused CreateAcls: User:alice needs ALTER on CLUSTER kafka-cluster.",
          kafkaMessage: null,
          missing: [],
        });
      });
      expect(denied).toMatchObject({ ok: false, code: "DENIED" });
      expect(audit.completeAudit).toHaveBeenLastCalledWith(
        "7",
        expect.objectContaining({ outcome: "denied", kafkaError: "CLUSTER_AUTHORIZATION_FAILED" }),
      );
      const unknown = await auditedMutation(spec, async () => {
        throw new Error("socket hang up");
      });
      expect(unknown).toMatchObject({ ok: false, code: "INTERNAL" });
      expect(audit.completeAudit).toHaveBeenLastCalledWith(
        "7",
        expect.objectContaining({ outcome: "unknown", kafkaError: null }),
      );
    },
  );

  it("names each subject once", async () => {
    await auditedMutation({ ...spec, subjects: ["User:o", "User:r", "User:o"] }, async () => ok);
    expect(audit.recordIntent).toHaveBeenCalledWith(expect.objectContaining({ subjects: ["User:o", "User:r"] }));
  });

  describe("the KafkaWriter it hands the change", () => {
    const cred = { username: "alice", password: "x", mechanism: "SCRAM-SHA-512" as const };

    it("journals a write: the journal intent before Kafka is asked, linked to the audit row and plan", async () => {
      journal.recordJournalIntent.mockRejectedValue(new Error("Can't reach database server"));
      const r = await auditedMutation({ ...spec, planId: "p1" }, async (kafka) => {
        await kafka.deleteScramCredential(cred, "bob", "SCRAM-SHA-256");
        return ok;
      });
      expect(journal.recordJournalIntent).toHaveBeenCalledWith(
        expect.objectContaining({ auditId: "7", planId: "p1", actor: "User:alice", clusterId: "default" }),
      );
      // Nothing was sent (no broker was asked): the write failed with the journal's reason.
      expect(r).toMatchObject({ ok: false });
      expect(audit.completeAudit).toHaveBeenCalledWith(
        "7",
        expect.objectContaining({ message: expect.stringMatching(/could not record the change in its journal/) }),
      );
      expect(journal.settleJournalIntent).not.toHaveBeenCalled();
    });

    it("is usable while the change runs (an empty batch reaches no broker)", async () => {
      let inside: unknown;
      const r = await auditedMutation(spec, async (kafka) => {
        expect(Object.isFrozen(kafka)).toBe(true);
        inside = await kafka.createAcls(cred, []);
        return ok;
      });
      expect(r).toEqual({ ok: true, data: "done" });
      expect(inside).toEqual([]);
    });

    it("refuses every write once the mutation ended, also after a failed change, before anything is sent", async () => {
      let kept: KafkaWriter | undefined;
      await auditedMutation(spec, async (kafka) => ((kept = kafka), ok));
      await expect(kept!.createAcls(cred, [])).rejects.toThrow(WRITER_CLOSED_MESSAGE);
      await expect(kept!.alterClientQuotas(cred, [])).rejects.toThrow("(alterClientQuotas)");
      let failed: KafkaWriter | undefined;
      await auditedMutation(spec, async (kafka) => {
        failed = kafka;
        throw new Error("socket hang up");
      });
      await expect(failed!.deleteAcls(cred, [])).rejects.toThrow(WRITER_CLOSED_MESSAGE);
      expect(kept).not.toBe(failed);
    });
  });
});
