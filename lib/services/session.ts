/**
 * Sign-in and sign-out as used by both the server actions and /api/v1/session, each
 * written to the audit trail (category "session", never with the password). A successful
 * sign-in or a sign-out is one row each; refused sign-ins (wrong credentials, throttled)
 * are folded per client and username (lib/db/sign-in-audit.ts), so guessing cannot grow
 * the table without bound.
 */
import { recordAudit } from "@/lib/db/audit";
import { auditFailedSignIn, signIn, signOut } from "@/lib/auth/sign-in";
import { defaultClusterId } from "@/lib/clusters";
import type { SignInInput } from "@/lib/schemas/session";
import type { ActionResult } from "@/lib/schemas/result";

export async function signInAudited(
  input: SignInInput,
  clientAddress: string,
): Promise<ActionResult<{ sessionId: string; principal: string; expiresAt: Date }>> {
  const result = await signIn(input, clientAddress);
  if (result.ok) {
    await recordAudit({
      principal: result.data.principal,
      action: "session.sign-in",
      target: `User:${input.username}`,
      request: { username: input.username, mechanism: input.mechanism, client: clientAddress },
      outcome: "success",
      category: "session",
      clusterId: input.cluster || defaultClusterId(),
    });
  } else {
    await auditFailedSignIn(input, clientAddress, result);
  }
  return result;
}

export async function signOutAudited(sessionId: string, principal: string): Promise<void> {
  const clusterId = await signOut(sessionId);
  await recordAudit({
    principal,
    action: "session.sign-out",
    target: principal,
    outcome: "success",
    category: "session",
    ...(clusterId !== null ? { clusterId } : {}),
  });
}
