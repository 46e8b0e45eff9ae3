/**
 * The index at 100,000 ACLs answers exactly what a scan of every ACL answers: MATCH
 * lookups, the effective matrix of a topic read by 2,000 principals, and authorization
 * decisions. How fast it answers is the bench's job, compared side by side in one run
 * (`npm run bench -- policy`: indexBuildMs, matchLookupUs, topicMatrixMs, and the
 * authorizer rows against Kafka's StandardAuthorizer), not a wall-clock bound here, which a
 * loaded machine fails for no fault of the code.
 */
import { describe, expect, it } from "vitest";
import type { AclBinding, AclOperation } from "../types";
import { AclIndex } from "./acl-index";
import { authorize } from "./authorize";
import { filterAcls } from "./filter";
import { effectiveForResource } from "./effective";
import { acl } from "@/test/policy/acl-helpers";

function syntheticAcls(n: number): AclBinding[] {
  const ops: AclOperation[] = ["READ", "WRITE", "DESCRIBE", "CREATE", "ALTER", "DESCRIBE_CONFIGS"];
  let seed = 7;
  const rand = (k: number) => (seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff) % k;
  const out: AclBinding[] = [];
  for (let i = 0; i < n; i++) {
    const team = `team${rand(200)}`;
    const kind = rand(10);
    const principal = rand(20) === 0 ? "User:*" : `User:svc-${rand(2000)}`;
    const host = rand(10) === 0 ? `10.0.${rand(10)}.${rand(250)}` : "*";
    const perm = rand(15) === 0 ? "DENY" : "ALLOW";
    if (kind < 6)
      out.push(acl("TOPIC", `${team}.orders.v${rand(2000)}`, "LITERAL", principal, host, ops[rand(6)]!, perm));
    else if (kind < 8) out.push(acl("TOPIC", `${team}.${rand(300)}`, "PREFIXED", principal, host, ops[rand(6)]!, perm));
    else
      out.push(
        acl("GROUP", `${team}-cg-${rand(500)}`, rand(2) ? "LITERAL" : "PREFIXED", principal, host, "READ", perm),
      );
  }
  // A hot topic every service may read.
  for (let s = 0; s < 2000; s++)
    out.push(acl("TOPIC", "shared.events", "LITERAL", `User:svc-${s}`, "*", "READ", "ALLOW"));
  return out;
}

describe("AclIndex at 100,000 ACLs", () => {
  const acls = syntheticAcls(100_000);
  const index = AclIndex.build(acls);
  const topicNames = acls
    .filter((a) => a.resourceType === "TOPIC" && a.patternType === "LITERAL")
    .map((a) => a.resourceName);

  it("holds every distinct binding once", () => {
    expect(index.size).toBe(new Set(acls.map((a) => JSON.stringify(a))).size);
    expect(index.size).toBeGreaterThan(90_000);
  });

  it("answers MATCH lookups (literal, prefixed and *) as the MATCH filter over the whole list does", () => {
    for (let i = 0; i < 120; i++) {
      const name = i % 10 === 0 ? `team${i % 200}.${i % 300}x` : topicNames[i * 400]!;
      const expected = filterAcls(index.acls, {
        resourceType: "TOPIC",
        resourceName: name,
        patternType: "MATCH",
        principal: null,
        host: null,
        operation: "ANY",
        permissionType: "ANY",
      });
      expect(index.matching("TOPIC", name)).toEqual(expected);
    }
  });

  it("computes the effective matrix of a topic with 2,000 principals, each decision the one authorize gives", () => {
    const view = effectiveForResource(index, "TOPIC", "shared.events");
    expect(view.rows.length).toBeGreaterThan(2000);
    expect(view.rows.find((r) => r.principal === "User:svc-7")!.operations[0]).toMatchObject({
      operation: "READ",
      decision: "ALLOWED",
    });
    for (const row of view.rows.slice(0, 300)) {
      if (row.principal === "User:*") continue;
      for (const cell of row.operations) {
        const decided = authorize(index, {
          principal: row.principal,
          host: "*",
          operation: cell.operation,
          resourceType: "TOPIC",
          resourceName: "shared.events",
        });
        expect([row.principal, cell.operation, cell.decision]).toEqual([
          row.principal,
          cell.operation,
          decided.decision,
        ]);
      }
    }
  });

  it(
    "authorizes as a scan of every matching ACL decides (a DENY that applies wins, else an ALLOW, else " + "denied)",
    () => {
      const seen = { ALLOWED: 0, DENIED: 0 };
      for (let i = 0; i < 150; i++) {
        const principal = `User:svc-${(i * 37) % 2000}`;
        const resourceName = i % 3 === 0 ? "shared.events" : `team${(i * 7) % 200}.orders.v${(i * 13) % 2000}`;
        const operation = (["READ", "WRITE", "DESCRIBE"] as const)[i % 3]!;
        const applying = filterAcls(index.acls, {
          resourceType: "TOPIC",
          resourceName,
          patternType: "MATCH",
          principal: null,
          host: null,
          operation: "ANY",
          permissionType: "ANY",
        }).filter(
          (a) =>
            (a.principal === principal || a.principal === "User:*") &&
            (a.host === "*" || a.host === "10.0.1.1") &&
            (a.operation === operation ||
              a.operation === "ALL" ||
              (operation === "DESCRIBE" && ["READ", "WRITE", "DELETE", "ALTER"].includes(a.operation))),
        );
        const expected = applying.some(
          (a) => a.permissionType === "DENY" && (a.operation === operation || a.operation === "ALL"),
        )
          ? "DENIED"
          : applying.some((a) => a.permissionType === "ALLOW")
            ? "ALLOWED"
            : "DENIED";
        seen[expected]++;
        expect([
          principal,
          resourceName,
          operation,
          authorize(index, { principal, host: "10.0.1.1", operation, resourceType: "TOPIC", resourceName }).decision,
        ]).toEqual([principal, resourceName, operation, expected]);
      }
      expect(seen.ALLOWED).toBeGreaterThan(10);
      expect(seen.DENIED).toBeGreaterThan(10);
    },
  );
});
