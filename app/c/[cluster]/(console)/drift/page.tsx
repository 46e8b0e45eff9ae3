import { utcText } from "@/lib/utc-text";
import { OlderLink } from "@/components/ui/older-link";
import Link from "@/components/link";
import { requireViewer } from "@/lib/auth/current";
import { driftListQuerySchema, type DriftEntry } from "@/lib/schemas/drift";
import { listDriftFor } from "@/lib/services/drift";
import { principalHref } from "@/lib/schemas/effective-permissions";
import { VisibilityNote } from "@/components/ui/visibility-note";
import { PageHeader } from "@/components/ui/page-header";
import { Alert, ResultPanel } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { DataTable } from "@/components/ui/data-table";
import { firstValues, type SearchParams } from "@/lib/search-params";
import { KeepForm, RevertForm } from "./drift-forms";

export const metadata = { title: "Drift" };
export const dynamic = "force-dynamic";

function Status({ entry }: { entry: DriftEntry }) {
  if (entry.revert?.status === "APPLIED")
    return (
      <Badge tone="ok">
        reverted by <Link href={`/plans/${entry.revert.planId}`}>plan</Link> ({entry.revert.by})
      </Badge>
    );
  if (entry.acknowledged)
    return (
      <Badge tone="info" title={entry.acknowledged.comment}>
        kept by {entry.acknowledged.by}: {entry.acknowledged.comment}
      </Badge>
    );
  if (entry.revert?.status === "OPEN")
    return (
      <Badge tone="warn">
        revert <Link href={`/plans/${entry.revert.planId}`}>planned</Link>, not applied
      </Badge>
    );
  return <Badge tone="warn">open</Badge>;
}

/** The principal's Access history over the read's window: the decisions this change set flipped for it. */
function flippedHref(principal: string, g: { from: string; to: string }): string {
  // From the window's start (the state the previous read saw), to its end: the changes found in it.
  return `${principalHref(principal)}/history?${new URLSearchParams({ from: g.from, to: g.to })}`;
}

const isOpen = (e: DriftEntry) => e.acknowledged === null && e.revert?.status !== "APPLIED";

export default async function DriftPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const viewer = await requireViewer();
  const raw = firstValues(await searchParams);
  const parsed = driftListQuerySchema.safeParse(raw);
  const query = parsed.success ? parsed.data : {};
  const result = await listDriftFor(viewer, query);
  const status = query.status ?? "all";
  const next = new URLSearchParams();
  if (query.status) next.set("status", query.status);
  const mayDecide = result.ok && result.data.mayDecide;

  return (
    <>
      <PageHeader
        title="Drift"
        lead="Changes of ACLs, quotas and SCRAM users made outside the console, found by its background read."
        details={
          <>
            <p>
              The console reads the cluster as its service principal at an interval and compares each read with the
              last: what changed in between was done elsewhere (kafka-acls.sh, Terraform, another console). Each change
              is shown with the window in which it happened. Keep it (with a comment, recorded in the audit trail) or
              revert it: a sealed plan restoring the state before, applied through the normal plan flow and, where the
              cluster asks for it, its approvals.
            </p>
            <p>You see the changes of what you may describe today, as on the Audit page.</p>
          </>
        }
      />
      <section className="card" aria-labelledby="drift-blind">
        <h2 id="drift-blind">What the journal cannot see</h2>
        <ul data-testid="drift-blind-spots">
          {(result.ok ? result.data.blindSpots : []).map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
        {result.ok && !result.data.reading.servicePrincipal && (
          <Alert tone="warn" testId="drift-no-reader">
            This cluster has no service principal: the console does not read it in the background, so no outside change
            is found.
          </Alert>
        )}
        {result.ok && result.data.reading.servicePrincipal && (
          <p>
            {result.data.reading.intervalSeconds === 0
              ? "The background read is off on this cluster (history.intervalSeconds is 0)."
              : `The cluster is read every ${result.data.reading.intervalSeconds} seconds.`}{" "}
            {result.data.reading.since === null
              ? "The journal has not begun yet: the first read records what the cluster holds, not changes."
              : `The journal began at ${utcText(result.data.reading.since)}: ` + "nothing earlier is known."}
          </p>
        )}
      </section>
      <ResultPanel result={result} testId="drift" />
      {result.ok && (
        <>
          <VisibilityNote visibility={result.data.visibility} problems={result.data.problems} testId="drift" />
          <p data-testid="drift-open" aria-live="polite">
            {result.data.open}
            {result.data.openMore ? "+" : ""} outside change{result.data.open === 1 ? "" : "s"} neither kept nor
            reverted.{" "}
            {status === "open" ? (
              <Link href="/drift">Show all</Link>
            ) : (
              <Link href="/drift?status=open">Show only those</Link>
            )}
          </p>
          {result.data.groups.length === 0 ? (
            <EmptyState>No outside change {status === "open" ? "left open" : "found"}.</EmptyState>
          ) : (
            result.data.groups.map((g) => {
              const open = g.entries.filter(isOpen).map((e) => e.id);
              const revertable = g.entries.filter((e) => isOpen(e) && e.notRevertable === null && e.kind === "acl");
              return (
                <section
                  key={`${g.from}-${g.to}-${g.entries[0]!.id}`}
                  className="card"
                  aria-label={`Changes ${g.window}`}
                  data-testid="drift-group"
                >
                  <h2>
                    {g.origin === "observed" ? "Found after a gap in reading, " : "Changed "}
                    {g.window}
                  </h2>
                  <DataTable
                    label={`Outside changes ${g.window}`}
                    rows={g.entries}
                    rowKey={(e) => e.id}
                    rowProps={(e) => ({ "data-testid": "drift-entry", "data-entry-id": e.id })}
                    columns={[
                      { key: "what", header: "What", cell: (e) => e.what },
                      { key: "change", header: "Change", cell: (e) => e.summary },
                      { key: "resources", header: "Resources", cell: (e) => e.resources.join(", ") || "—" },
                      {
                        key: "principals",
                        header: "Principals",
                        cell: (e) =>
                          e.principals.length === 0
                            ? "—"
                            : e.principals.map((p) => (
                                <span key={p} className="mono">
                                  {p}
                                  {e.kind === "acl" && p !== "User:*" && (
                                    <>
                                      {" "}
                                      (<Link href={flippedHref(p, g)}>decisions it flipped</Link>)
                                    </>
                                  )}{" "}
                                </span>
                              )),
                      },
                      { key: "status", header: "Status", cell: (e) => <Status entry={e} /> },
                      {
                        key: "decide",
                        header: "Decide",
                        cell: (e) => (
                          <>
                            {isOpen(e) && e.notRevertable === null && (
                              <RevertForm entryIds={[e.id]} label={`Revert change ${e.id}`} />
                            )}
                            {isOpen(e) && e.notRevertable !== null && <small>{e.notRevertable}</small>}
                            {isOpen(e) && mayDecide && <KeepForm entryIds={[e.id]} label={`Keep change ${e.id}`} />}
                          </>
                        ),
                      },
                    ]}
                  />
                  {open.length > 1 && (
                    <div>
                      {result.data.mayDecide && <KeepForm entryIds={open} label="Keep every change of this read" />}
                      {revertable.length > 1 && (
                        <RevertForm
                          entryIds={revertable.map((e) => e.id)}
                          label="Revert every ACL change of this read"
                        />
                      )}
                    </div>
                  )}
                </section>
              );
            })
          )}
          <OlderLink path="/drift" params={next} cursor={result.data.nextCursor}>
            Older changes
          </OlderLink>
        </>
      )}
    </>
  );
}
