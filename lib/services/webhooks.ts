/**
 * A cluster's webhook (#19): notifications of requests and grants, as Slack-compatible JSON
 * (a `text` line, plus the event's fields), signed with HMAC-SHA256:
 *
 *   X-KSC-Timestamp: <unix seconds>
 *   X-KSC-Signature-256: sha256=<hex of HMAC(secret, "<timestamp>.<body>")>
 *
 * Events: request.filed, request.approved (one approval of several), request.applied,
 * request.denied, grant.expiring (15 minutes before), grant.expired, drift.found (a background
 * read found changes made outside the console: journal.ts). A notification names
 * requests, principals and resources; never a secret (no password, HMAC, token or the
 * webhook's own secret). Delivery runs on the job queue (retried with backoff); each failed
 * attempt is an audit row (webhook.deliver, category other). Where it may point:
 * webhook-target.ts, checked when it is set and again at every delivery.
 */
import "server-only";
import { createHmac } from "node:crypto";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import type { Viewer } from "@/lib/auth/sign-in";
import { decryptSecret, encryptSecret } from "@/lib/auth/crypto";
import { clusterById, clusterIdOf } from "@/lib/clusters";
import { recordAudit } from "@/lib/db/audit";
import { getPrisma } from "@/lib/db/client";
import { env } from "@/lib/env";
import type { Prisma } from "@/lib/generated/prisma/client";
import { sendJob } from "@/lib/jobs/queue";
import type { ActionResult } from "@/lib/schemas/result";
import { checkWebhookTarget, type Resolver, type WebhookTargetSettings } from "./webhook-target";

export const WEBHOOK_JOB = "webhook";
export const WEBHOOK_EVENTS = [
  "request.filed",
  "request.approved",
  "request.applied",
  "request.denied",
  "grant.expiring",
  "grant.expired",
  "drift.found",
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

const TIMEOUT_MS = 10_000;

export interface WebhookView {
  configured: boolean;
  /** The URL's origin only (a Slack URL's path is itself a secret). */
  target: string | null;
  updatedBy: string | null;
  updatedAt: string | null;
}

function targetSettings(): WebhookTargetSettings {
  const e = env();
  const own = [...e.ALLOWED_ORIGINS, `http://127.0.0.1:${e.PORT}`, `http://localhost:${e.PORT}`];
  return { allowHttp: e.WEBHOOK_ALLOW_HTTP, allowedHosts: e.WEBHOOK_ALLOWED_HOSTS, ownOrigins: own };
}

function isSuperUser(viewer: Viewer): boolean {
  return clusterById(clusterIdOf(viewer.credential)).authorizer.superUsers.includes(viewer.principal);
}

const ONLY_SUPER_USERS: ActionResult<never> = {
  ok: false,
  code: "DENIED",
  message: "Only a super user of this cluster may see or change its webhook.",
};

export async function getWebhookView(viewer: Viewer): Promise<ActionResult<WebhookView>> {
  if (!isSuperUser(viewer)) return ONLY_SUPER_USERS;
  const row = await getPrisma().clusterWebhook.findUnique({ where: { clusterId: clusterIdOf(viewer.credential) } });
  return {
    ok: true,
    data: {
      configured: row !== null,
      target: row ? new URL(row.url).origin : null,
      updatedBy: row?.updatedBy ?? null,
      updatedAt: row?.updatedAt.toISOString() ?? null,
    },
  };
}

/** Sets the cluster's webhook (super users): the URL is checked now, the secret kept encrypted. */
export async function setWebhook(
  viewer: Viewer,
  input: { url: string; secret: string },
  resolve?: Resolver,
): Promise<ActionResult<WebhookView>> {
  if (!isSuperUser(viewer)) return ONLY_SUPER_USERS;
  const target = await checkWebhookTarget(input.url, targetSettings(), resolve);
  if (!target.ok)
    return { ok: false, code: "VALIDATION", message: target.message, fieldErrors: { url: [target.message] } };
  const clusterId = clusterIdOf(viewer.credential);
  const data = {
    url: target.url.toString(),
    encryptedSecret: encryptSecret(input.secret),
    updatedBy: viewer.principal,
  };
  await getPrisma().clusterWebhook.upsert({
    where: { clusterId },
    create: { clusterId, ...data },
    update: { ...data, updatedAt: new Date() },
  });
  await recordAudit({
    principal: viewer.principal,
    action: "webhook.set",
    category: "other",
    target: `webhook ${target.url.origin}`,
    request: { target: target.url.origin },
    outcome: "success",
    message: `Notifications of requests and grants go to ${target.url.origin}.`,
    clusterId,
  });
  return getWebhookView(viewer);
}

export async function deleteWebhook(viewer: Viewer): Promise<ActionResult<WebhookView>> {
  if (!isSuperUser(viewer)) return ONLY_SUPER_USERS;
  const clusterId = clusterIdOf(viewer.credential);
  const removed = await getPrisma().clusterWebhook.deleteMany({ where: { clusterId } });
  if (removed.count > 0)
    await recordAudit({
      principal: viewer.principal,
      action: "webhook.delete",
      category: "other",
      target: "webhook",
      outcome: "success",
      message: "Notifications are off.",
      clusterId,
    });
  return getWebhookView(viewer);
}

/**
 * Queues a notification when the cluster has a webhook. Never throws and never delays the
 * change it reports: a notification that cannot be queued is logged.
 */
export async function notify(
  clusterId: string,
  event: WebhookEvent,
  fields: Record<string, unknown>,
  text: string,
  options: { startAfter?: Date; id?: string } = {},
): Promise<void> {
  try {
    const hook = await getPrisma().clusterWebhook.findUnique({ where: { clusterId }, select: { clusterId: true } });
    if (hook === null) return;
    const data = { clusterId, event, fields, text, at: new Date().toISOString() };
    if (!(await sendJob(WEBHOOK_JOB, data, options))) {
      if (options.startAfter === undefined) void deliverWebhook(data).catch(() => undefined);
    }
  } catch (error) {
    console.error(
      `[console] queueing a ${event} notification: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/**
 * Queues a notification inside the caller's transaction `tx`: the job commits with what it
 * tells of, or not at all. Without a queue in this process (a script, a test of one module),
 * the answer is a delivery to run after the commit, as `notify` does. A failure to queue
 * fails the transaction: the caller records the change and its notification together.
 */
export async function notifyWithin(
  tx: Pick<Prisma.TransactionClient, "clusterWebhook" | "$queryRawUnsafe">,
  clusterId: string,
  event: WebhookEvent,
  fields: Record<string, unknown>,
  text: string,
): Promise<(() => void) | null> {
  const hook = await tx.clusterWebhook.findUnique({ where: { clusterId }, select: { clusterId: true } });
  if (hook === null) return null;
  const data = { clusterId, event, fields, text, at: new Date().toISOString() };
  const within = (sql: string, values: unknown[]) => tx.$queryRawUnsafe<unknown[]>(sql, ...values);
  if (await sendJob(WEBHOOK_JOB, data, { within })) return null;
  return () => void deliverWebhook(data).catch(() => undefined);
}

/** The body a notification sends: Slack's `text`, the event, the cluster and the event's fields. */
export function webhookBody(data: {
  clusterId: string;
  event: string;
  fields: Record<string, unknown>;
  text: string;
  at: string;
}) {
  const cluster = clusterById(data.clusterId);
  return JSON.stringify({
    text: `[${cluster.displayName}] ${data.text}`,
    event: data.event,
    cluster: cluster.id,
    at: data.at,
    ...data.fields,
  });
}

export function signature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

/** Posts one notification (the job's work); throws so the queue retries, after an audit row of the failure. */
export async function deliverWebhook(
  data: Record<string, unknown>,
  options: { resolve?: Resolver; settings?: WebhookTargetSettings } = {},
): Promise<void> {
  const job = data as { clusterId: string; event: string; fields: Record<string, unknown>; text: string; at: string };
  const hook = await getPrisma().clusterWebhook.findUnique({ where: { clusterId: job.clusterId } });
  if (hook === null) return;
  let failure: string | null = null;
  try {
    const target = await checkWebhookTarget(hook.url, options.settings ?? targetSettings(), options.resolve);
    if (!target.ok) throw new Error(target.message);
    const body = webhookBody(job);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const status = await post(target.url, target.address, target.family, body, {
      "X-KSC-Timestamp": timestamp,
      "X-KSC-Signature-256": signature(decryptSecret(hook.encryptedSecret), timestamp, body),
      "X-KSC-Event": job.event,
    });
    if (status >= 300 && status < 400) throw new Error(`it answered ${status}; redirects are not followed`);
    if (status < 200 || status >= 300) throw new Error(`it answered ${status}`);
  } catch (error) {
    failure = error instanceof Error ? error.message : String(error);
  }
  if (failure === null) return;
  await recordAudit({
    principal: "console",
    action: "webhook.deliver",
    category: "other",
    target: `webhook ${new URL(hook.url).origin}`,
    request: { event: job.event, at: job.at },
    outcome: "failure",
    message: `The ${job.event} notification was not delivered (retried): ${failure}`,
    clusterId: job.clusterId,
  }).catch(() => undefined);
  throw new Error(failure);
}

/** One POST to the checked address (no second DNS lookup), TLS named for the URL's host, no redirects. */
function post(
  url: URL,
  address: string,
  family: 4 | 6,
  body: string,
  headers: Record<string, string>,
): Promise<number> {
  const lookup: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      url,
      {
        method: "POST",
        lookup,
        timeout: TIMEOUT_MS,
        headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body), ...headers },
        ...(url.protocol === "https:" && isIP(url.hostname.replace(/^\[|\]$/g, "")) === 0
          ? { servername: url.hostname }
          : {}),
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)));
    req.on("error", reject);
    req.end(body);
  });
}
