import Link from "@/components/link";
import { requireViewer } from "@/lib/auth/current";
import { listRequestViews } from "@/lib/services/requests";
import type { RequestListFilter, RequestView } from "@/lib/schemas/requests";
import { PageHeader } from "@/components/ui/page-header";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { STATUS_TONE, filedAgo, statusLabel } from "@/components/requests/request-status";
import { NewRequestForm } from "./new-request-form";

export const metadata = { title: "Requests" };
export const dynamic = "force-dynamic";

const FILTERS: { value: Exclude<RequestListFilter, "all">; label: string; empty: string }[] = [
  { value: "waiting", label: "Waiting", empty: "No request waits for a decision." },
  { value: "mine", label: "Mine", empty: "You have filed no request." },
  { value: "decided", label: "Decided", empty: "No request has been decided yet." },
];

type Search = Record<string, string | string[] | undefined>;

/** Requests for changes: the waiting ones first, a reviewer opens one to review it. */
export default async function RequestsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const viewer = await requireViewer();
  const asked = (await searchParams).filter;
  const filter = FILTERS.find((f) => f.value === asked) ?? FILTERS[0]!;
  const list = await listRequestViews(viewer, filter.value);
  return (
    <>
      <PageHeader
        title="Requests"
        lead="Changes asked for instead of applied: a reviewer previews each as themselves, then approves or denies it."
        details={
          <p>
            Anyone may file a change with a reason: on the ACLs and Quotas pages, preview it and choose Request
            approval, or file one ACL binding below. A reviewer opens the request and reviews it: the console makes its
            plan as the reviewer (Kafka decides what they may read and change), and Approve applies exactly that plan. A
            request with &quot;Ends after&quot; becomes a grant: the ACLs it created are removed by themselves.
          </p>
        }
      />
      <nav className="row" aria-label="Which requests">
        {FILTERS.map((f) => (
          <Link
            key={f.value}
            href={`/requests?filter=${f.value}`}
            aria-current={f.value === filter.value ? "page" : undefined}
            className={f.value === filter.value ? "btn small" : "btn secondary small"}
          >
            {f.label}
            {f.value === "waiting" && list.ok ? ` (${list.data.pending})` : ""}
          </Link>
        ))}
      </nav>
      {!list.ok ? (
        <Alert tone="error" testId="requests-error">
          {list.message}
        </Alert>
      ) : list.data.requests.length === 0 ? (
        <EmptyState testId="requests-empty">{filter.empty}</EmptyState>
      ) : (
        <RequestTable requests={list.data.requests} label={`${filter.label} requests`} />
      )}
      <h2>New request</h2>
      <NewRequestForm />
    </>
  );
}

function RequestTable({ requests, label }: { requests: RequestView[]; label: string }) {
  return (
    <DataTable
      label={label}
      rowProps={(r) => ({ "data-request-id": r.id })}
      rowKey={(r) => r.id}
      rows={requests}
      columns={[
        {
          key: "summary",
          header: "Change",
          rowHeader: true,
          cell: (r) => <Link href={`/requests/${r.id}`}>{r.summary}</Link>,
        },
        { key: "requester", header: "Requester", className: "mono", cell: (r) => r.requester },
        { key: "reason", header: "Reason", cell: (r) => r.reason },
        {
          key: "status",
          header: "Status",
          cell: (r) => <Badge tone={STATUS_TONE[r.status]}>{statusLabel(r.status)}</Badge>,
        },
        { key: "age", header: "Filed", cell: (r) => filedAgo(r.createdAt) },
        { key: "approvals", header: "Approvals", cell: (r) => `${r.approvals.length} of ${r.approvalsNeeded}` },
        {
          key: "grant",
          header: "Ends after",
          cell: (r) => (r.grantMinutes === null ? <span className="muted">stays</span> : `${r.grantMinutes} min`),
        },
      ]}
    />
  );
}
