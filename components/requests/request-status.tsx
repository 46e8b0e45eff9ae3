import { formatRelative } from "@/lib/services/token-view";
import type { Tone } from "@/components/ui/badge";
import type { RequestView } from "@/lib/schemas/requests";
import type { TokenRequestView } from "@/lib/schemas/tokens";

/** A request's status as a badge tone: waiting is a warning, applied is good, the other ends are bad. */
export const STATUS_TONE: Record<RequestView["status"], Tone> = {
  PENDING: "warn",
  APPROVING: "warn",
  APPLIED: "ok",
  DENIED: "bad",
  CANCELLED: "neutral",
  TIMED_OUT: "bad",
};

/** Kafka-style status words as shown: APPLIED, TIMED OUT. */
export const statusLabel = (status: RequestView["status"]) => status.replace("_", " ");

/** "5 min ago": when a request was filed, from now. */
export function filedAgo(createdAt: string): string {
  return formatRelative(Date.parse(createdAt), Date.now());
}

/** A delegation-token request's status as a badge tone (as on the Token requests page). */
export const TOKEN_STATUS_TONE: Record<TokenRequestView["status"], Tone> = {
  PENDING: "warn",
  APPROVING: "warn",
  APPROVED: "ok",
  RETRIEVED: "ok",
  DENIED: "bad",
  EXPIRED_UNRETRIEVED: "bad",
};

/** What kind of request a listed one is, in words: "Delegation token", "ACL change", "Quota change", "SCRAM change". */
export function kindLabel(kind: string): string {
  if (kind === "token") return "Delegation token";
  if (kind === "quota.alter") return "Quota change";
  if (kind === "acl.import") return "ACL import";
  if (kind === "scram.change") return "SCRAM change";
  return "ACL change";
}
