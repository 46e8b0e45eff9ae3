/**
 * The password of an approved SCRAM request (#19, four-eyes): the approver applies the
 * scram.change plan, which generates it; it is kept encrypted for the requester's one retrieval,
 * never shown to the approver, audited or notified.
 */
import "server-only";
import type { Viewer } from "@/lib/auth/sign-in";
import { decryptSecret, encryptSecret } from "@/lib/auth/crypto";
import { clusterIdOf } from "@/lib/clusters";
import { getRequest, holdRequestSecret, takeRequestSecret, type StoredRequest } from "@/lib/db/change-request";
import type { RequestPassword } from "@/lib/schemas/requests";
import type { ActionResult } from "@/lib/schemas/result";
import type { ScramChangeResult } from "@/lib/schemas/scram-users";
import { auditRequest, NO_SUCH_REQUEST, type Failure } from "./request-change";
import { utcText } from "@/lib/utc-text";

/** How long the requester may retrieve the password an approved SCRAM request generated (as a token's HMAC). */
export const REQUEST_SECRET_WINDOW_MS = 24 * 60 * 60_000;

/**
 * A SCRAM request's generated password, kept encrypted for its requester's single retrieval
 * (the approver applied it, but the password is the requester's: it is never in the approver's
 * answer, the audit trail or a notification). Says where the requester finds it.
 */
export async function holdGeneratedPassword(r: StoredRequest, applied: unknown): Promise<string> {
  const password = (applied as Partial<ScramChangeResult>).generatedPassword;
  if (password === undefined) return "";
  const deadline = new Date(Date.now() + REQUEST_SECRET_WINDOW_MS);
  try {
    await holdRequestSecret(r.id, encryptSecret(password), deadline);
  } catch (error) {
    console.error(
      `[console] keeping request ${r.id}'s password: ${error instanceof Error ? error.message : String(error)}`,
    );
    return (
      ` The password Kafka now holds could not be kept for ${r.requester} (the console's database failed): ` +
      `they need to ask for a new one.`
    );
  }
  return (
    ` The new password is kept, encrypted, for ${r.requester} to see once on the request's page until ` +
    `${utcText(deadline)}.`
  );
}

/**
 * The requester's one retrieval of the password their approved SCRAM request generated:
 * erased from the console as it is answered; audited without it.
 */
export async function retrieveRequestPassword(viewer: Viewer, id: string): Promise<ActionResult<RequestPassword>> {
  const clusterId = clusterIdOf(viewer.credential);
  const taken = await takeRequestSecret(id, viewer.principal, clusterId);
  if (!taken.ok) {
    const refusals: Record<typeof taken.error, Failure> = {
      NOT_FOUND: NO_SUCH_REQUEST,
      NOT_REQUESTER: { ok: false, code: "DENIED", message: "Only the requester may see the password of this request." },
      ALREADY_RETRIEVED: {
        ok: false,
        code: "CONFLICT",
        message: "The password was shown once already and is no longer kept. Ask for a new one if it is lost.",
      },
      EXPIRED: {
        ok: false,
        code: "CONFLICT",
        message: "The password was not retrieved in time and was erased. Ask for a new one.",
      },
      NONE: {
        ok: false,
        code: "CONFLICT",
        message: "This request has no password to show (not an approved SCRAM set).",
      },
    };
    return refusals[taken.error];
  }
  const r = await getRequest(id);
  const input = (r?.input ?? {}) as { user?: string; mechanism?: string };
  if (r !== null)
    await auditRequest(viewer, r, "request.retrieve", "success", "The generated password was shown once.");
  return {
    ok: true,
    data: {
      requestId: id,
      user: input.user ?? "",
      mechanism: input.mechanism ?? "SCRAM-SHA-512",
      password: decryptSecret(taken.encrypted),
      message: "Shown once: the console no longer keeps it. Store it now.",
    },
  };
}
