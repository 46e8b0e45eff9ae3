/**
 * Ending a session whose credential stopped working: Kafka refused its password
 * (lib/auth/sign-in.ts) or the identity provider its refresh (lib/auth/oidc-session.ts).
 */
import { recordAudit } from "@/lib/db/audit";
import { deleteSession, type Session } from "@/lib/db/session";
import { closeConnectionsFor } from "@/lib/kafka";

/** Deletes the session, closes its user's connections, and audits `session.revoked` (once, if it still existed). */
export async function endSessionAsRevoked(sessionId: string, session: Session, message: string): Promise<void> {
  const ended = await deleteSession(sessionId);
  await closeConnectionsFor(session);
  if (!ended) return;
  await recordAudit({
    principal: session.principal,
    action: "session.revoked",
    target: session.principal,
    outcome: "denied",
    category: "session",
    clusterId: session.clusterId,
    message,
  });
}
