import { utcText } from "@/lib/utc-text";
import Link from "@/components/link";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { PageHeader } from "@/components/ui/page-header";
import { requireViewer } from "@/lib/auth/current";
import { titleFromId } from "@/lib/page-title";
import { getBreakGlass } from "@/lib/services/break-glass";
import { BreakGlassReviewForm } from "./review-form";

export const generateMetadata = titleFromId("Break-glass");
export const dynamic = "force-dynamic";

/**
 * A plan applied without approval (break-glass): who, when, why, what it did, and its
 * after-the-fact review, or the form for someone else entitled to make the change to give it.
 */
export default async function BreakGlassPage({ params }: { params: Promise<{ id: string }> }) {
  const viewer = await requireViewer();
  const { id } = await params;
  const found = await getBreakGlass(viewer, id);
  if (!found.ok)
    return (
      <>
        <PageHeader title="Break-glass apply" lead={<Link href="/">Back to the dashboard</Link>} />
        <Alert tone="error" testId="break-glass-error">
          {found.message}
        </Alert>
      </>
    );
  const b = found.data;
  return (
    <>
      <PageHeader
        title={`Break-glass apply of plan ${b.planId.slice(0, 8)}`}
        lead="Applied without approval on a cluster that needs approvals; flagged until someone else reviews it."
      />
      <section className="card" aria-label="The break-glass apply">
        <dl className="facts">
          <dt>Applied by</dt>
          <dd className="mono" data-testid="break-glass-applied-by">
            {b.appliedBy}
          </dd>
          <dt>At</dt>
          <dd>{utcText(b.at)}</dd>
          <dt>Reason</dt>
          <dd data-testid="break-glass-reason">{b.reason ?? "none recorded"}</dd>
          <dt>Review</dt>
          <dd data-testid="break-glass-review">
            {b.review === null ? (
              <Badge tone="bad">not reviewed yet</Badge>
            ) : (
              <>
                <Badge tone="ok">reviewed</Badge> by <span className="mono">{b.review.reviewer}</span> at{" "}
                {utcText(b.review.at)}: {b.review.comment}
              </>
            )}
          </dd>
        </dl>
      </section>
      <section className="card" aria-labelledby="break-glass-changes-title">
        <h2 id="break-glass-changes-title">What it did</h2>
        {b.changes.length === 0 ? (
          <p className="muted">The audit trail shows you no change made by this plan.</p>
        ) : (
          <ul data-testid="break-glass-changes">
            {b.changes.map((c, i) => (
              <li key={i}>
                <span className="mono">{c.action}</span> {c.target} <span className="muted">({c.outcome})</span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="card" aria-labelledby="break-glass-review-title">
        <h2 id="break-glass-review-title">Review after the fact</h2>
        {b.review !== null ? (
          <p className="muted">Reviewed: the dashboard no longer flags it.</p>
        ) : (
          !b.you.mayReview && (
            <p className="muted" data-testid="break-glass-review-why">
              {b.you.why}
            </p>
          )
        )}
        <BreakGlassReviewForm planId={b.planId} open={b.review === null && b.you.mayReview} />
      </section>
      <p>
        <Link href="/">Back to the dashboard</Link>
      </p>
    </>
  );
}
