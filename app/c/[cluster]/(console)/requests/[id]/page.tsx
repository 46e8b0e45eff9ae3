import { utcText } from "@/lib/utc-text";
import Link from "@/components/link";
import { requireViewer } from "@/lib/auth/current";
import { titleFromId } from "@/lib/page-title";
import { listLiveGrants } from "@/lib/services/grants";
import { getRequestView } from "@/lib/services/requests";
import { KIP55_RULE_LABEL } from "@/lib/services/quota-view";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { PageHeader } from "@/components/ui/page-header";
import { STATUS_TONE, statusLabel } from "@/components/requests/request-status";
import { EndGrantForm, ExtendGrantForm } from "./end-grant-form";
import { RequestPassword } from "./request-password";
import { RequestSteps } from "./request-steps";

export const generateMetadata = titleFromId("Request");
export const dynamic = "force-dynamic";

/** One request: what it asks for and why, where it stands, and the steps the viewer may take. */
export default async function RequestPage({ params }: { params: Promise<{ id: string }> }) {
  const viewer = await requireViewer();
  const { id } = await params;
  const found = await getRequestView(viewer, id);
  if (!found.ok) {
    const back = <Link href="/requests">Back to requests</Link>;
    return (
      <>
        <PageHeader title="Request" lead={back} />
        <Alert tone="error" testId="request-error">
          {found.message}
        </Alert>
      </>
    );
  }
  const r = found.data;
  const live = r.grantId === null ? null : await listLiveGrants(viewer, r.requester);
  const grant = live?.ok ? (live.data.grants.find((g) => g.id === r.grantId && g.status === "LIVE") ?? null) : null;
  return (
    <>
      <PageHeader title={`Request ${r.id.slice(0, 8)}`} lead={r.summary} />
      <section className="card" aria-label="The request">
        <dl className="facts">
          <dt>Status</dt>
          <dd data-testid="request-status">
            <Badge tone={STATUS_TONE[r.status]}>{statusLabel(r.status)}</Badge>
            {r.planId && (
              <>
                {" "}
                with <Link href={`/plans/${r.planId}`}>plan {r.planId}</Link>
              </>
            )}
          </dd>
          <dt>Requested by</dt>
          <dd className="mono">{r.requester}</dd>
          <dt>Reason</dt>
          <dd data-testid="request-reason">{r.reason}</dd>
          <dt>Filed</dt>
          <dd>{utcText(r.createdAt)}</dd>
          <dt>Waits until</dt>
          <dd>{utcText(r.timeoutAt)}</dd>
          <dt>Ends after</dt>
          <dd>{r.grantMinutes === null ? "never: the change stays" : `${r.grantMinutes} minutes once applied`}</dd>
          <dt>Approvals</dt>
          <dd data-testid="request-approvals">
            {r.approvals.length} of {r.approvalsNeeded}
            {r.approvals.length > 0 && `: ${r.approvals.map((a) => `${a.principal} (${utcText(a.at)})`).join(", ")}`}
          </dd>
          {r.decidedBy && (
            <>
              <dt>Decided by</dt>
              <dd data-testid="request-decision">
                <span className="mono">{r.decidedBy}</span>
                {r.decidedAt && ` at ${utcText(r.decidedAt)}`}
                {r.comment && `: ${r.comment}`}
              </dd>
            </>
          )}
        </dl>
        <details>
          <summary>The change as filed ({r.kind})</summary>
          <pre className="mono" aria-label="The change as JSON">
            {JSON.stringify(r.change, null, 2)}
          </pre>
        </details>
      </section>
      {grant && (
        <Alert tone="info" testId="request-grant">
          Its ACLs are removed by themselves at {utcText(grant.expiresAt)}.
          {(r.requester === viewer.principal || grant.approver === viewer.principal) && (
            <>
              <EndGrantForm grantId={grant.id} />
              <ExtendGrantForm grantId={grant.id} />
            </>
          )}
        </Alert>
      )}
      <RequestPassword request={r} />
      <RequestSteps request={r} quotaRule={KIP55_RULE_LABEL} />
      <p>
        <Link href="/requests">Back to requests</Link>
      </p>
    </>
  );
}
