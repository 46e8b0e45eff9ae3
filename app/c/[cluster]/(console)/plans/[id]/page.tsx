import { utcText } from "@/lib/utc-text";
import { firstValue, type PageProps } from "@/lib/search-params";
import Link from "@/components/link";
import { requireViewer } from "@/lib/auth/current";
import { AclPlanPreview, DecisionRowsTable } from "@/components/plans/acl-plan-view";
import { PLAN_ROWS_PAGE_SIZE, aclPlanPageViewSchema, planPageQuerySchema } from "@/lib/schemas/plans";
import { getPlanView } from "@/lib/services/plans";
import { Alert } from "@/components/ui/alert";
import { clusterOf } from "@/lib/clusters";
import { ApplyPlanForm } from "./apply-plan-form";
import { canEndPlan } from "@/lib/schemas/requests";
import { BreakGlassForm } from "./break-glass-form";
import { getBreakGlass } from "@/lib/services/break-glass";
import { titleFromId } from "@/lib/page-title";

export const generateMetadata = titleFromId("Plan");
export const dynamic = "force-dynamic";

/** One sealed plan: what it changes, every decision change (paged), the CLI, and Apply while it is open. */
export default async function PlanPage({ params, searchParams }: PageProps<{ id: string }>) {
  const viewer = await requireViewer();
  const { id } = await params;
  const search = await searchParams;
  const parsed = planPageQuerySchema.safeParse({ page: firstValue(search.page), pageSize: PLAN_ROWS_PAGE_SIZE });
  const page = parsed.success ? parsed.data.page : 1;
  const view = await getPlanView(viewer, id, { page, pageSize: PLAN_ROWS_PAGE_SIZE });

  if (!view.ok) {
    return (
      <>
        <h1>Plan</h1>
        <Alert tone="error" testId="plan-error">
          {view.message}
        </Alert>
        <Link href="/acls">Back to ACLs</Link>
      </>
    );
  }
  const acl = aclPlanPageViewSchema.safeParse(view.data);
  if (!acl.success) {
    return (
      <>
        <h1>Plan {id.slice(0, 8)}</h1>
        <p className="lead">
          A {view.data.kind} plan, {view.data.status.toLowerCase()}.
        </p>
      </>
    );
  }
  const plan = acl.data;
  const rows = plan.changes;
  const changes = plan.create.length + plan.delete.length;
  const cluster = clusterOf(viewer.credential);
  const breakGlass =
    plan.principal === viewer.principal &&
    cluster.requests.approvals > 0 &&
    cluster.authorizer.superUsers.includes(viewer.principal);
  // A plan applied on a cluster that needs approvals went through a request or a break-glass: say which.
  const glass = cluster.requests.approvals > 0 && plan.status !== "OPEN" ? await getBreakGlass(viewer, plan.id) : null;
  return (
    <>
      <h1>Plan {plan.id.slice(0, 8)}</h1>
      <p className="lead" data-testid="plan-status">
        A {plan.kind} plan made by {plan.principal} at {utcText(plan.createdAt)}: <strong>{plan.status}</strong>
        {plan.appliedAt ? ` (${utcText(plan.appliedAt)})` : ""}.
      </p>
      {plan.applicable && (
        <ApplyPlanForm
          planId={plan.id}
          canEnd={canEndPlan(plan)}
          label={`Apply: ${changes} ACL change${changes === 1 ? "" : "s"}`}
        />
      )}
      {breakGlass && (
        <BreakGlassForm
          planId={plan.id}
          approvals={cluster.requests.approvals}
          open={plan.status === "OPEN" && changes > 0}
        />
      )}
      {glass?.ok && (
        <Alert tone={glass.data.review === null ? "warn" : "info"} testId="plan-break-glass">
          Applied by break-glass by {glass.data.appliedBy}
          {glass.data.reason !== null && ` (reason: ${glass.data.reason})`}.{" "}
          {glass.data.review === null
            ? "Not reviewed yet: the dashboard flags it until someone else reviews it after the fact. "
            : `Reviewed after the fact by ${glass.data.review.reviewer}: ${glass.data.review.comment}. `}
          <Link href={`/plans/${plan.id}/break-glass`}>The break-glass apply</Link>
        </Alert>
      )}
      <AclPlanPreview plan={plan} showFirstRows={false} />
      {rows && rows.total > 0 && (
        <section className="card" aria-label="Every decision change">
          <h2>
            Every decision change ({rows.total.toLocaleString("en")}), page {rows.page} of {rows.pages}
          </h2>
          {rows.note && <Alert tone="warn">{rows.note}</Alert>}
          <DecisionRowsTable rows={rows.rows} otherHost={plan.otherHost} label="All decisions that change" />
          <nav className="row" aria-label="Pages">
            {rows.page > 1 && <Link href={`/plans/${plan.id}?page=${rows.page - 1}`}>← Previous</Link>}
            {rows.complete && rows.page < rows.pages && (
              <Link href={`/plans/${plan.id}?page=${rows.page + 1}`}>Next →</Link>
            )}
          </nav>
        </section>
      )}
      <p>
        <Link href="/acls">Back to ACLs</Link>
      </p>
    </>
  );
}
