import Link from "@/components/link";
import { clusterHref, clusterHrefOn, currentClusterId, getViewerOn, requireViewer } from "@/lib/auth/current";
import { clusterById, clusters } from "@/lib/clusters";
import { fieldErrorsOf } from "@/lib/schemas/result";
import { firstValue, type SearchParams } from "@/lib/search-params";
import { compareQuerySchema } from "@/lib/schemas/cluster-compare";
import { compareClusters, type AclComparisonRow, type CompareSide } from "@/lib/services/cluster-compare";
import { quotaEditHref } from "@/lib/services/quota-view";
import { Alert } from "@/components/ui/alert";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { Field, FormActions, FormGrid } from "@/components/ui/field";
import { GetForm } from "@/components/ui/get-form";
import { PageHeader } from "@/components/ui/page-header";
import { SubmitButton } from "@/components/ui/submit-button";
import { previewComparePlanAction } from "./actions";

export const metadata = { title: "Compare clusters" };
export const dynamic = "force-dynamic";

/** At most this many ACL rows are listed (the counts and the plan cover all of them). */
const MAX_ROWS = 2000;

/**
 * Two clusters side by side: the ACLs and quotas of a principal, or under a resource-name
 * prefix, here and on another cluster, and the plan (on the other cluster) that makes it
 * like this one (lib/services/cluster-compare.ts).
 */
export default async function ComparePage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const viewer = await requireViewer();
  const hereId = await currentClusterId();
  const here = clusterById(hereId);
  const others = clusters().filter((c) => c.id !== hereId);
  const search = await searchParams;
  const raw = Object.fromEntries(
    ["other", "principal", "prefix", "planError"].map((k) => [k, firstValue(search[k])]),
  ) as Partial<Record<"other" | "principal" | "prefix" | "planError", string>>;
  const asked = raw.other !== undefined;
  const query = asked
    ? compareQuerySchema.safeParse({ other: raw.other, principal: raw.principal ?? "", prefix: raw.prefix ?? "" })
    : null;
  const errors = query && !query.success ? fieldErrorsOf(query.error.issues) : {};
  const other = query?.success ? others.find((c) => c.id === query.data.other) : undefined;
  const there = other ? await getViewerOn(other.id) : null;
  const compared = query?.success && there ? await compareClusters(viewer, there, query.data) : null;
  const comparePath = other
    ? `/compare?${new URLSearchParams({ other: other.id, principal: raw.principal ?? "", prefix: raw.prefix ?? "" })}`
    : null;
  const signInThere =
    other && comparePath
      ? `/sign-in?${new URLSearchParams({ cluster: other.id, next: await clusterHref(comparePath) })}`
      : null;
  // The principal and prefix fields that scope the comparison.
  const scopeField = (name: "principal" | "prefix", label: string, hint: string, placeholder: string) => (
    <Field id={`compare-${name}`} label={label} hint={hint} errors={errors[name]}>
      <input name={name} defaultValue={raw[name] ?? ""} placeholder={placeholder} />
    </Field>
  );

  return (
    <>
      <PageHeader
        title="Compare clusters"
        lead={
          `The ACLs and quotas of a principal, or under a resource-name prefix, on ${here.displayName} and ` +
          `another cluster, with the plan that makes the other like this one.`
        }
        details={
          <p>
            Each side is read with your own session on that cluster, so it shows what Kafka lets you see there. The plan
            is an import in sync mode on the other cluster: it creates what this cluster has and deletes, inside the
            principal and prefix given, what it lacks. Its preview shows every decision that changes there before
            anything is applied.
          </p>
        }
      />
      {others.length === 0 ? (
        <EmptyState>Comparing needs a second cluster: name several in the clusters file (CLUSTERS_FILE).</EmptyState>
      ) : (
        <GetForm action="/compare" label="Compare clusters" className="card">
          <FormGrid>
            <Field id="compare-other" label="Compare with" errors={errors.other}>
              <select name="other" defaultValue={raw.other ?? others[0]!.id}>
                {others.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.displayName}
                  </option>
                ))}
              </select>
            </Field>
            {scopeField("principal", "Principal", "User:alice (optional if a prefix is given)", "User:svc-orders")}
            {scopeField("prefix", "Resource-name prefix", "orders. (optional if a principal is given)", "orders.")}
            <FormActions>
              <SubmitButton pendingLabel="Comparing…">Compare</SubmitButton>
            </FormActions>
          </FormGrid>
        </GetForm>
      )}
      {raw.planError !== undefined && (
        <Alert tone="error" testId="compare-plan-error">
          {raw.planError}
        </Alert>
      )}
      {other && !there && (
        <Alert tone="warn" testId="compare-sign-in">
          You have no session on {other.displayName}. <a href={signInThere!}>Sign in to {other.displayName}</a> to
          compare; you come back here after.
        </Alert>
      )}
      {compared && !compared.ok && (
        <Alert tone="error" testId="compare-error">
          {compared.message}
        </Alert>
      )}
      {compared?.ok && other && query?.success && (
        <>
          {compared.data.problems.map((p) => (
            <Alert key={p} tone="warn">
              {p}
            </Alert>
          ))}
          <h2>ACLs</h2>
          <p data-testid="compare-counts">
            {compared.data.counts.here} here, {compared.data.counts.there} on {other.displayName},{" "}
            {compared.data.counts.both} on both.
          </p>
          {compared.data.aclPlan === null ? (
            <Alert tone="success" testId="compare-same">
              The ACLs agree: {other.displayName} has exactly these.
            </Alert>
          ) : (
            <form action={previewComparePlanAction} className="card" aria-label="Make the other cluster like this one">
              <input type="hidden" name="other" value={other.id} />
              <input type="hidden" name="principal" value={query.data.principal ?? ""} />
              <input type="hidden" name="prefix" value={query.data.prefix ?? ""} />
              <p>
                {compared.data.acls.filter((r) => r.side === "here").length} to create on {other.displayName},{" "}
                {compared.data.acls.filter((r) => r.side === "there").length} to delete there.
              </p>
              <SubmitButton pendingLabel="Making the plan…">Preview the plan on {other.displayName}</SubmitButton>
            </form>
          )}
          <AclRows rows={compared.data.acls} otherName={other.displayName} hereName={here.displayName} />
          <h2>Quotas</h2>
          {compared.data.quotas.length === 0 ? (
            <EmptyState>No quota names these users or client ids on either cluster.</EmptyState>
          ) : (
            <DataTable
              label="Quotas on both clusters"
              rows={compared.data.quotas}
              rowKey={(q) => `${q.entityLabel}|${q.key}`}
              columns={[
                { key: "entity", header: "Entity", cell: (q) => q.entityLabel, className: "mono" },
                { key: "key", header: "Quota", cell: (q) => q.key, className: "mono" },
                { key: "here", header: here.displayName, cell: (q) => q.here ?? "—" },
                { key: "there", header: other.displayName, cell: (q) => q.there ?? "—" },
                {
                  key: "action",
                  header: <span className="sr-only">Action</span>,
                  cell: (q) =>
                    q.here === q.there ? (
                      "same"
                    ) : (
                      <a href={clusterHrefOn(other.id, quotaEditHref(q.entity, q.key, q.here))}>
                        {q.here === null ? `Remove on ${other.displayName}` : `Set on ${other.displayName}`}
                      </a>
                    ),
                },
              ]}
            />
          )}
        </>
      )}
    </>
  );
}

const SIDE_LABEL: Record<CompareSide, (here: string, other: string) => string> = {
  both: () => "both",
  here: (here) => `only ${here}`,
  there: (_here, other) => `only ${other}`,
};

function AclRows({
  rows,
  hereName,
  otherName,
}: {
  rows: readonly AclComparisonRow[];
  hereName: string;
  otherName: string;
}) {
  if (rows.length === 0) return <EmptyState>No ACL in this scope on either cluster.</EmptyState>;
  // The differences first: they are what the plan changes.
  const ordered = [...rows.filter((r) => r.side !== "both"), ...rows.filter((r) => r.side === "both")];
  const shown = ordered.slice(0, MAX_ROWS);
  return (
    <>
      {shown.length < ordered.length && (
        <p className="hint">
          The first {MAX_ROWS} of {ordered.length} rows, differences first.
        </p>
      )}
      <DataTable
        label="ACLs on both clusters"
        rows={shown}
        rowKey={({ binding: b, side }) =>
          `${side}|${b.principal}|${b.resourceType}|${b.patternType}|${b.resourceName}|${b.operation}|` +
          `${b.permissionType}|${b.host}`
        }
        rowProps={({ side }) => ({ "data-side": side })}
        columns={[
          { key: "side", header: "On", cell: ({ side }) => SIDE_LABEL[side](hereName, otherName) },
          { key: "principal", header: "Principal", cell: ({ binding: b }) => b.principal, className: "mono" },
          {
            key: "resource",
            header: "Resource",
            cell: ({ binding: b }) => `${b.resourceType} ${b.resourceName}`,
            className: "mono",
          },
          { key: "pattern", header: "Pattern", cell: ({ binding: b }) => b.patternType },
          { key: "operation", header: "Operation", cell: ({ binding: b }) => b.operation },
          { key: "permission", header: "Permission", cell: ({ binding: b }) => b.permissionType },
          { key: "host", header: "Host", cell: ({ binding: b }) => b.host, className: "mono" },
        ]}
      />
      <p>
        <Link href="/acls">All ACLs here</Link>
      </p>
    </>
  );
}
