/**
 * Sign-in and sign-out as used by both the server actions and /api/v1/session, each
 * written to the audit trail (never with the password).
 */
import { recordAudit } from "@/lib/db/audit";
import { signIn, signOut } from "@/lib/auth/sign-in";
import type { SignInInput } from "@/lib/schemas/session";
import type { ActionResult } from "@/lib/actions/result";

export async function signInAudited(
  input: SignInInput,
  clientAddress: string,
): Promise<ActionResult<{ sessionId: string; principal: string; expiresAt: Date }>> {
  const result = await signIn(input, clientAddress);
  if (result.ok || result.code === "INVALID_CREDENTIALS" || result.code === "THROTTLED") {
    await recordAudit({
      principal: result.ok ? result.data.principal : `User:${input.username}`,
      action: "session.sign-in",
      target: `User:${input.username}`,
      request: { username: input.username, mechanism: input.mechanism, client: clientAddress },
      outcome: result.ok ? "success" : "denied",
      message: result.ok ? undefined : result.message,
    });
  }
  return result;
}

export async function signOutAudited(sessionId: string, principal: string): Promise<void> {
  await signOut(sessionId);
  await recordAudit({ principal, action: "session.sign-out", target: principal, outcome: "success" });
}
