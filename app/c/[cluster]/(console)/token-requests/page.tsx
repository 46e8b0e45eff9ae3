import Link from "@/components/link";
import { requireViewer } from "@/lib/auth/current";
import { listTokenRequests } from "@/lib/services/token-requests";
import { aclSuggestions, userPrincipals } from "@/lib/services/acl-suggestions";
import { APPEARS_ENTITLED, formatLifetime, formatRelative } from "@/lib/services/token-view";
import type { DecidableRequest, TokenRequestView } from "@/lib/schemas/tokens";
import { PageHeader, MoreInfo } from "@/components/ui/page-header";
import { Alert } from "@/components/ui/alert";
import { Badge, type Tone } from "@/components/ui/badge";
import { TOKEN_STATUS_TONE } from "@/components/requests/request-status";
import { DataTable, type Column } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { DecideForms, RetrieveButton, TokenRequestForm } from "./request-forms";

export const metadata = { title: "Token requests" };
export const dynamic = "force-dynamic";

const none = <span className="muted">none</span>;

/** The columns both lists share: what the token was asked for, and why. */
const WHAT_WAS_ASKED: Column<TokenRequestView>[] = [
  { key: "owner", header: "Owner", className: "mono", cell: (r) => r.owner },
  { key: "renewers", header: "Renewers", className: "mono", cell: (r) => r.renewers.join(", ") || none },
  { key: "lifetime", header: "Max lifetime", cell: (r) => formatLifetime(r.maxLifetimeMs) },
  { key: "reason", header: "Reason", cell: (r) => r.reason },
];

export default async function TokenRequestsPage() {
  const viewer = await requireViewer();
  const [lists, suggestions] = await Promise.all([listTokenRequests(viewer), aclSuggestions(viewer)]);
  const now = lists.ok ? lists.data.now : 0;
  return (
    <>
      <PageHeader
        title="Token requests"
        lead={
          "Ask for a delegation token for an owner you cannot create for; someone entitled approves it, and you " +
          "retrieve its HMAC once."
        }
        details={
          <p>
            Whoever Kafka lets create tokens for that owner (the owner, a super user, or whoever has CREATE_TOKENS on
            USER:&lt;owner&gt;) can approve: the console then creates the token as them. For yourself, or for an owner
            you have CREATE_TOKENS on, <Link href="/tokens">create the token directly</Link>.
          </p>
        }
      />

      <h2>Request a token</h2>
      <TokenRequestForm principals={userPrincipals(suggestions.principals)} />

      {!lists.ok ? (
        <Alert tone="error" testId="token-requests-error">
          {lists.message}
        </Alert>
      ) : (
        <>
          <h2 id="mine">My requests</h2>
          <MyRequests requests={lists.data.mine} now={now} />

          <h2 id="decide">Requests I can decide</h2>
          <MoreInfo summary="Which requests are listed">
            <p data-testid="decide-scope">
              Open requests for owners you appear entitled to create tokens for (you are the owner, a super user, you
              have CREATE_TOKENS on USER:&lt;owner&gt;, or Kafka shows tokens you created for that owner), and your own.
              Nobody else sees a request or its reason.{" "}
              {lists.data.approverCheck.by === "you"
                ? "Judged from the ACLs Kafka shows you; Kafka decides when you approve."
                : lists.data.approverCheck.by === "servicePrincipal"
                  ? `Kafka does not let you describe ACLs (that needs DESCRIBE on CLUSTER), so the console's ` +
                    `service principal ${lists.data.approverCheck.principal} reads them to tell whether you may ` +
                    `approve (each read is audited; the ACLs are not shown); Kafka decides when you approve.`
                  : "Kafka does not let you describe ACLs (that needs DESCRIBE on CLUSTER); Kafka decides when " +
                    "you approve."}
            </p>
          </MoreInfo>
          {lists.data.approverCheck.by === "nobody" && (
            <Alert tone="info" testId="approvers-limited">
              Only super users, the owner and those Kafka shows tokens they created for that owner see a request here:
              the console cannot read the ACLs as you (that needs DESCRIBE on CLUSTER) and{" "}
              {lists.data.approverCheck.reason}. Someone with CREATE_TOKENS on USER:&lt;owner&gt; may approve, but is
              not shown the request.
            </Alert>
          )}
          <PendingRequests requests={lists.data.pending} now={now} />
        </>
      )}
    </>
  );
}

function MyRequests({ requests, now }: { requests: TokenRequestView[]; now: number }) {
  return (
    <DataTable
      label="My requests"
      rows={requests}
      rowKey={(r) => r.id}
      rowProps={(r) => ({ "data-request-id": r.id, id: `mine-${r.id}` })}
      empty={<EmptyState>You have not requested a token.</EmptyState>}
      columns={[
        ...WHAT_WAS_ASKED,
        {
          key: "status",
          header: "Status",
          cell: (r) => (
            <>
              <Badge tone={TOKEN_STATUS_TONE[r.status]} data-testid="request-status">
                {r.status}
              </Badge>
              <div className="muted">asked {formatRelative(Date.parse(r.createdAt), now)}</div>
              <Held request={r} now={now} />
            </>
          ),
        },
        {
          key: "decision",
          header: "Decision",
          cell: (r) => (
            <>
              {r.approver && (
                <div>
                  {r.status === "DENIED" ? (r.approver === r.requester ? "Withdrawn" : "Denied") : "Approved"} by{" "}
                  <span className="mono">{r.approver}</span>
                </div>
              )}
              {r.decisionReason && <div data-testid="decision-reason">Reason: {r.decisionReason}</div>}
            </>
          ),
        },
        {
          key: "token",
          header: "Token",
          cell: (r) => (
            <>
              {r.tokenId && <div className="mono">{r.tokenId}</div>}
              {r.retrievable && (
                <>
                  <RetrieveButton id={r.id} owner={r.owner} />
                  {r.hmacDeadline && (
                    <div className="muted">
                      retrievable once, until {formatRelative(Date.parse(r.hmacDeadline), now)}
                    </div>
                  )}
                </>
              )}
              {r.status === "RETRIEVED" && <div className="muted">retrieved; the console no longer has the HMAC</div>}
              {r.status === "EXPIRED_UNRETRIEVED" && (
                <div className="muted">not retrieved in time; the HMAC was erased</div>
              )}
            </>
          ),
        },
      ]}
    />
  );
}

function entitlementBadge(r: DecidableRequest): { tone: Tone; text: string } {
  if (APPEARS_ENTITLED.has(r.entitlement)) return { tone: "ok", text: "you may approve" };
  if (r.entitlement === "ownRequest") return { tone: "neutral", text: "your request" };
  if (r.entitlement === "unknown") return { tone: "warn", text: "unknown" };
  return { tone: "bad", text: "not entitled" };
}

function PendingRequests({ requests, now }: { requests: DecidableRequest[]; now: number }) {
  return (
    <DataTable
      label="Requests I can decide"
      rows={requests}
      rowKey={(r) => r.id}
      rowProps={(r) => ({
        "data-request-id": r.id,
        id: `decide-${r.id}`,
        "data-entitled": APPEARS_ENTITLED.has(r.entitlement) ? "yes" : r.entitlement,
      })}
      empty={<EmptyState>No pending request.</EmptyState>}
      columns={[
        {
          key: "requester",
          header: "Requester",
          className: "mono",
          cell: (r) => (
            <>
              {r.requester}
              <div className="muted">{formatRelative(Date.parse(r.createdAt), now)}</div>
            </>
          ),
        },
        ...WHAT_WAS_ASKED,
        {
          key: "you",
          header: "You",
          cell: (r) => {
            const badge = entitlementBadge(r);
            return (
              <>
                <Badge tone={badge.tone} data-testid="entitlement">
                  {badge.text}
                </Badge>
                <div className="muted">{r.entitlementNote}</div>
              </>
            );
          },
        },
        {
          key: "decide",
          header: "Decide",
          cell: (r) => (
            <>
              <Held request={r} now={now} />
              {r.status === "PENDING" && (
                <DecideForms
                  id={r.id}
                  canApprove={APPEARS_ENTITLED.has(r.entitlement)}
                  own={r.entitlement === "ownRequest"}
                />
              )}
            </>
          ),
        },
      ]}
    />
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
