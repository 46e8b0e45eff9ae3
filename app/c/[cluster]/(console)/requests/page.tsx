import Link from "@/components/link";
import { requireViewer } from "@/lib/auth/current";
import { listRequestViews } from "@/lib/services/requests";
import {
  isTokenItem,
  type RequestListFilter,
  type RequestListItem,
  type RequestListKind,
  type TokenRequestItem,
} from "@/lib/schemas/requests";
import { PageHeader } from "@/components/ui/page-header";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { STATUS_TONE, TOKEN_STATUS_TONE, filedAgo, kindLabel, statusLabel } from "@/components/requests/request-status";
import { aclSuggestions } from "@/lib/services/acl-suggestions";
import { NewRequestForm } from "./new-request-form";

export const metadata = { title: "Requests" };
export const dynamic = "force-dynamic";

const FILTERS: { value: RequestListFilter; label: string; empty: string }[] = [
  { value: "waiting", label: "Waiting", empty: "No request waits for a decision." },
  { value: "mine", label: "Mine", empty: "You have filed no request." },
  { value: "decided", label: "Decided", empty: "No request has been decided yet." },
  { value: "all", label: "All", empty: "There is no request yet." },
];

const KINDS: { value: RequestListKind; label: string }[] = [
  { value: "all", label: "Every kind" },
  { value: "change", label: "Changes" },
  { value: "token", label: "Delegation tokens" },
];

type Search = Record<string, string | string[] | undefined>;

const listHref = (filter: RequestListFilter, kind: RequestListKind) =>
  `/requests?filter=${filter}${kind === "all" ? "" : `&kind=${kind}`}`;

/** Requests for changes and for delegation tokens: the waiting ones first, a reviewer opens one to decide it. */
export default async function RequestsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const viewer = await requireViewer();
  const search = await searchParams;
  const filter = FILTERS.find((f) => f.value === search.filter) ?? FILTERS[0]!;
  const kind = KINDS.find((k) => k.value === search.kind) ?? KINDS[0]!;
  const [list, { principals, byType, resourceNames }] = await Promise.all([
    listRequestViews(viewer, filter.value, 100, kind.value),
    aclSuggestions(viewer),
  ]);
  return (
    <>
      <PageHeader
        title="Requests"
        lead="Changes and delegation tokens asked for instead of made: someone entitled approves or denies each."
        details={
          <>
            <p>
              Anyone may file a change with a reason: on the ACLs and Quotas pages, preview it and choose Request
              approval, or file one ACL binding below. A reviewer opens the request and reviews it: the console makes
              its plan as the reviewer (Kafka decides what they may read and change), and Approve applies exactly that
              plan. A request with &quot;Ends after&quot; becomes a grant: the ACLs it created are removed by
              themselves.
            </p>
            <p>
              A delegation token for an owner you cannot create for is asked for on the{" "}
              <Link href="/token-requests">Token requests</Link> page; it is listed here too. Only its requester and
              those who appear entitled to create tokens for its owner see it, and it is approved, denied and retrieved
              there.
            </p>
          </>
        }
      />
      <Choices
        label="Which requests"
        options={FILTERS}
        current={filter.value}
        href={(f) => listHref(f, kind.value)}
        text={(f) => `${f.label}${f.value === "waiting" && list.ok ? ` (${list.data.pending})` : ""}`}
      />
      <Choices label="Which kinds" options={KINDS} current={kind.value} href={(k) => listHref(filter.value, k)} />
      {!list.ok ? (
        <Alert tone="error" testId="requests-error">
          {list.message}
        </Alert>
      ) : list.data.requests.length === 0 ? (
        <EmptyState testId="requests-empty">{filter.empty}</EmptyState>
      ) : (
        <RequestTable requests={list.data.requests} principal={viewer.principal} label={`${filter.label} requests`} />
      )}
      <h2>New request</h2>
      <NewRequestForm principal={viewer.principal} suggestions={{ principals, byType, resourceNames }} />
    </>
  );
}

/** Where a token request is decided or retrieved: its row on the Token requests page, or the audit trail. */
function tokenRequestHref(r: TokenRequestItem, principal: string): string {
  if (r.requester === principal) return `/token-requests#mine-${r.id}`;
  if (r.status === "PENDING" || r.status === "APPROVING") return `/token-requests#decide-${r.id}`;
  return "/audit?category=token-request";
}

const nothing = <span className="muted">–</span>;

function RequestTable({
  requests,
  principal,
  label,
}: {
  requests: RequestListItem[];
  principal: string;
  label: string;
}) {
  return (
    <DataTable
      label={label}
      rowProps={(r) => ({ "data-request-id": r.id, "data-kind": isTokenItem(r) ? "token" : "change" })}
      rowKey={(r) => r.id}
      rows={requests}
      columns={[
        {
          key: "summary",
          header: "Request",
          rowHeader: true,
          cell: (r) => (
            <>
              <Link href={isTokenItem(r) ? tokenRequestHref(r, principal) : `/requests/${r.id}`}>{r.summary}</Link>
              {isTokenItem(r) && r.retrievable && r.requester === principal && (
                <div className="muted" data-testid="request-retrievable">
                  approved: retrieve its HMAC once
                </div>
              )}
            </>
          ),
        },
        {
          key: "kind",
          header: "Kind",
          cell: (r) => <span data-testid="request-kind">{kindLabel(r.kind)}</span>,
        },
        { key: "requester", header: "Requester", className: "mono", cell: (r) => r.requester },
        { key: "reason", header: "Reason", cell: (r) => r.reason },
        {
          key: "status",
          header: "Status",
          cell: (r) =>
            isTokenItem(r) ? (
              <Badge tone={TOKEN_STATUS_TONE[r.status]}>{r.status.replace("_", " ")}</Badge>
            ) : (
              <Badge tone={STATUS_TONE[r.status]}>{statusLabel(r.status)}</Badge>
            ),
        },
        { key: "age", header: "Filed", cell: (r) => filedAgo(r.createdAt) },
        {
          key: "approvals",
          header: "Approvals",
          cell: (r) =>
            isTokenItem(r) ? (
              r.you.mayDecide ? (
                <span title={r.you.why ?? undefined}>you may approve</span>
              ) : (
                nothing
              )
            ) : (
              `${r.approvals.length} of ${r.approvalsNeeded}`
            ),
        },
        {
          key: "grant",
          header: "Ends after",
          cell: (r) =>
            isTokenItem(r) ? (
              nothing
            ) : r.grantMinutes === null ? (
              <span className="muted">stays</span>
            ) : (
              `${r.grantMinutes} min`
            ),
        },
      ]}
    />
  );
}

/** A row of links choosing one of a list's views; the current one is marked (aria-current) and filled. */
function Choices<V extends string, O extends { value: V; label: string }>({
  label,
  options,
  current,
  href,
  text = (o) => o.label,
}: {
  label: string;
  options: readonly O[];
  current: V;
  href: (value: V) => string;
  text?: (option: O) => string;
}) {
  return (
    <nav className="row" aria-label={label}>
      {options.map((o) => (
        <Link
          key={o.value}
          href={href(o.value)}
          aria-current={o.value === current ? "page" : undefined}
          className={o.value === current ? "btn small" : "btn secondary small"}
        >
          {text(o)}
        </Link>
      ))}
    </nav>
  );
}
