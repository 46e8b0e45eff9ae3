/**
 * Shared setup for the integration tests of requests, four-eyes and grants (#19), against
 * the dev broker and PostgreSQL: viewers for the demo users, ACL bindings on this run's
 * topics, reading and removing this run's ACLs, the dev service principal, and audit rows.
 *
 * Import it after `vi.mock("server-only", ...)` (it loads the Kafka adapter).
 */
import type { Viewer } from "@/lib/auth/sign-in";
import { getPrisma } from "@/lib/db/client";
import { resetClustersForTests } from "@/lib/clusters";
import { closeAllConnections, describeAcls } from "@/lib/kafka";
import type { KafkaCredential } from "@/lib/kafka/types";
import { createAcls, deleteAcls } from "@/lib/kafka/writes";
import { ANY_ACL_FILTER } from "@/lib/policy";
import type { AclBinding } from "@/lib/policy/types";
import { ensureDevServicePrincipal } from "@/scripts/seed/service-principal";
import { ADMIN } from "@/test/kafka/fixtures";

export const viewerOf = (credential: KafkaCredential): Viewer => ({
  sessionId: null,
  principal: `User:${credential.username}`,
  credential,
});

/** A demo user of the seeded dev broker (scripts/seed/demo-data.ts: password `<name>-secret`). */
export const demoViewer = (name: string): Viewer =>
  viewerOf({ username: name, password: `${name}-secret`, mechanism: "SCRAM-SHA-512" });

export const admin = viewerOf(ADMIN);

/** ALLOW `operation` on the literal topic for `principal`, from any host. */
export function topicAcl(topic: string, principal: string, operation: AclBinding["operation"] = "WRITE"): AclBinding {
  return {
    resourceType: "TOPIC",
    resourceName: topic,
    patternType: "LITERAL",
    principal,
    host: "*",
    operation,
    permissionType: "ALLOW",
  };
}

/** ALLOW `operation` on the cluster for `principal`. */
export function clusterAcl(principal: string, operation: AclBinding["operation"]): AclBinding {
  return { ...topicAcl("kafka-cluster", principal, operation), resourceType: "CLUSTER" };
}

/** Every ACL (as the admin sees them) on a resource whose name starts with `mark`. */
export async function aclsMarked(mark: string): Promise<AclBinding[]> {
  const all = await describeAcls(ADMIN, ANY_ACL_FILTER);
  return all.filter((a) => a.resourceName.startsWith(mark));
}

export async function addAcls(bindings: readonly AclBinding[]): Promise<void> {
  const results = await createAcls(ADMIN, [...bindings]);
  const failed = results.find((r) => r.error);
  if (failed?.error) throw new Error(`creating a test ACL: ${failed.error.message}`);
}

export async function removeAcls(bindings: readonly AclBinding[]): Promise<void> {
  if (bindings.length > 0) await deleteAcls(ADMIN, [...bindings]);
}

/** The run's ACLs removed (afterAll). */
export async function removeMarkedAcls(mark: string): Promise<void> {
  await removeAcls(await aclsMarked(mark));
}

/**
 * The dev service principal (`console-service`, DESCRIBE+ALTER on the cluster, its
 * credentials in KAFKA_STATE_DIR/console-service.json) made sure of, and handed to the
 * console as KAFKA_SERVICE_CREDENTIALS_FILE; answers its principal.
 */
export async function useDevServicePrincipal(): Promise<{ file: string; principal: string }> {
  const file = await ensureDevServicePrincipal();
  process.env.KAFKA_SERVICE_CREDENTIALS_FILE = file;
  const { clusterById } = await import("@/lib/clusters");
  const principal = clusterById().servicePrincipal?.principal;
  if (!principal) throw new Error("the dev service principal is not configured");
  return { file, principal };
}

/** Audit rows, oldest first, as [action, outcome, principal, planId] for compact comparisons. */
export async function auditRows(where: { planId?: string; action?: string; targetContains?: string }) {
  const rows = await getPrisma().auditEvent.findMany({
    where: {
      ...(where.planId !== undefined ? { planId: where.planId } : {}),
      ...(where.action !== undefined ? { action: where.action } : {}),
      ...(where.targetContains !== undefined ? { target: { contains: where.targetContains } } : {}),
    },
    orderBy: [{ at: "asc" }, { id: "asc" }],
  });
  return rows;
}

/** Sets (or, with undefined, removes) environment variables; answers a function that restores them. */
export function setEnv(values: Record<string, string | undefined>): () => void {
  const before = Object.fromEntries(Object.keys(values).map((k) => [k, process.env[k]]));
  const apply = (v: Record<string, string | undefined>) => {
    for (const [k, value] of Object.entries(v)) {
      if (value === undefined) delete process.env[k];
      else process.env[k] = value;
    }
  };
  apply(values);
  return () => apply(before);
}

/** A new topic name under `mark` at each call. */
export function topicNames(mark: string): () => string {
  let count = 0;
  return () => `${mark}-t${++count}`;
}

/**
 * What each of these suites does last: its ACLs removed, its settings restored, connections
 * closed, database dropped.
 */
export async function cleanUp(mark: string, restoreEnv: () => void, db?: { teardown(): Promise<void> }): Promise<void> {
  await removeMarkedAcls(mark);
  restoreEnv();
  resetClustersForTests();
  await closeAllConnections();
  await db?.teardown();
}
