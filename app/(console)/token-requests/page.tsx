import Link from "next/link";
import { requireViewer } from "@/lib/auth/current";
import { listTokenRequests } from "@/lib/services/token-requests";
import { APPEARS_ENTITLED, formatLifetime, formatRelative } from "@/lib/services/token-view";
import type { DecidableRequest, TokenRequestView } from "@/lib/schemas/tokens";
import { DecideForms, RetrieveButton, TokenRequestForm } from "./request-forms";

export const metadata = { title: "Token requests" };
export const dynamic = "force-dynamic";

const STATUS_BADGE: Record<TokenRequestView["status"], string> = {
  PENDING: "partial",
  APPROVING: "partial",
  APPROVED: "success",
  RETRIEVED: "success",
  DENIED: "failure",
  EXPIRED_UNRETRIEVED: "failure",
};

export default async function TokenRequestsPage() {
  const viewer = await requireViewer();
  const lists = await listTokenRequests(viewer);
  const now = lists.ok ? lists.data.now : 0;
  return (
    <>
      <h1>Token requests</h1>
      <p className="lead">
        Ask for a delegation token for an owner you cannot create for. Someone Kafka lets create tokens for that owner (the owner, a super user,
        or whoever has CREATE_TOKENS on USER:&lt;owner&gt;) approves it: the console then creates the token as them. You retrieve its HMAC once.
      </p>

      <h2>Request a token</h2>
      <TokenRequestForm />
      <p className="muted">
        For yourself, or for an owner you have CREATE_TOKENS on, <Link href="/tokens">create the token directly</Link>.
      </p>

      {!lists.ok ? (
        <div role="alert" className="alert error" data-testid="token-requests-error">
          {lists.message}
        </div>
      ) : (
        <>
          <h2>My requests</h2>
          {lists.data.mine.length === 0 ? <div className="empty">You have not requested a token.</div> : <MyRequests requests={lists.data.mine} now={now} />}

          <h2>Requests I can decide</h2>
          <p className="muted" data-testid="decide-scope">
            Open requests for owners you appear entitled to create tokens for (you are the owner, a super user, you have CREATE_TOKENS on
            USER:&lt;owner&gt;, or Kafka shows tokens you created for that owner), and your own. Nobody else sees a request or its reason.{" "}
            {lists.data.aclsReadable
              ? "Judged from the ACLs Kafka shows you; Kafka decides when you approve."
              : "The console cannot read the ACLs as you (that needs DESCRIBE on CLUSTER), so requests for owners it cannot tell you may create tokens for are not listed; Kafka decides when you approve."}
          </p>
          {lists.data.pending.length === 0 ? (
            <div className="empty">No pending request.</div>
          ) : (
            <PendingRequests requests={lists.data.pending} now={now} />
          )}
        </>
      )}
    </>
  );
}

function MyRequests({ requests, now }: { requests: TokenRequestView[]; now: number }) {
  return (
    <table className="data" aria-label="My requests">
      <thead>
        <tr>
          <th>Owner</th>
          <th>Renewers</th>
          <th>Max lifetime</th>
          <th>Reason</th>
          <th>Status</th>
          <th>Decision</th>
          <th>Token</th>
        </tr>
      </thead>
      <tbody>
        {requests.map((r) => (
          <tr key={r.id} data-request-id={r.id}>
            <td className="mono">{r.owner}</td>
            <td className="mono">{r.renewers.join(", ") || <span className="muted">none</span>}</td>
            <td>{formatLifetime(r.maxLifetimeMs)}</td>
            <td>{r.reason}</td>
            <td>
              <span className={`badge ${STATUS_BADGE[r.status]}`} data-testid="request-status">
                {r.status}
              </span>
              <div className="muted">asked {formatRelative(Date.parse(r.createdAt), now)}</div>
              <Held request={r} now={now} />
            </td>
            <td>
              {r.approver && (
                <div>
                  {r.status === "DENIED" ? "Denied" : "Approved"} by <span className="mono">{r.approver}</span>
                </div>
              )}
              {r.decisionReason && <div data-testid="decision-reason">Reason: {r.decisionReason}</div>}
            </td>
            <td>
              {r.tokenId && <div className="mono">{r.tokenId}</div>}
              {r.retrievable && (
                <>
                  <RetrieveButton id={r.id} owner={r.owner} />
                  {r.hmacDeadline && <div className="muted">retrievable once, until {formatRelative(Date.parse(r.hmacDeadline), now)}</div>}
                </>
              )}
              {r.status === "RETRIEVED" && <div className="muted">retrieved; the console no longer has the HMAC</div>}
              {r.status === "EXPIRED_UNRETRIEVED" && <div className="muted">not retrieved in time; the HMAC was erased</div>}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function PendingRequests({ requests, now }: { requests: DecidableRequest[]; now: number }) {
  return (
    <table className="data" aria-label="Requests I can decide">
      <thead>
        <tr>
          <th>Requester</th>
          <th>Owner</th>
          <th>Renewers</th>
          <th>Max lifetime</th>
          <th>Reason</th>
          <th>You</th>
          <th>Decide</th>
        </tr>
      </thead>
      <tbody>
        {requests.map((r) => {
          const entitled = APPEARS_ENTITLED.has(r.entitlement);
          return (
            <tr key={r.id} data-request-id={r.id} data-entitled={entitled ? "yes" : r.entitlement}>
              <td className="mono">
                {r.requester}
                <div className="muted">{formatRelative(Date.parse(r.createdAt), now)}</div>
              </td>
              <td className="mono">{r.owner}</td>
              <td className="mono">{r.renewers.join(", ") || <span className="muted">none</span>}</td>
              <td>{formatLifetime(r.maxLifetimeMs)}</td>
              <td>{r.reason}</td>
              <td>
                <span className={`badge ${entitled ? "success" : r.entitlement === "unknown" ? "partial" : "failure"}`} data-testid="entitlement">
                  {entitled ? "you may approve" : r.entitlement === "ownRequest" ? "your request" : r.entitlement === "unknown" ? "unknown" : "not entitled"}
                </span>
                <div className="muted">{r.entitlementNote}</div>
              </td>
              <td>
                <Held request={r} now={now} />
                <DecideForms id={r.id} canDeny={entitled || r.entitlement === "ownRequest"} />
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** An approval under way (APPROVING): by whom and since when. */
function Held({ request, now }: { request: TokenRequestView; now: number }) {
  if (request.status !== "APPROVING" || !request.claimedBy) return null;
  return (
    <div className="muted" data-testid="request-held">
      being approved by <span className="mono">{request.claimedBy}</span>
      {request.claimedAt && <> since {formatRelative(Date.parse(request.claimedAt), now)}</>}
    </div>
  );
}
