import { OlderLink } from "@/components/ui/older-link";
import Link from "@/components/link";
import { requireViewer } from "@/lib/auth/current";
import { AUDIT_ACTIONS, AUDIT_CATEGORIES, AUDIT_OUTCOMES, auditQuerySchema } from "@/lib/schemas/audit";
import { listAuditFor } from "@/lib/services/audit-view";
import { fieldErrorsOf } from "@/lib/schemas/result";
import { VisibilityNote } from "@/components/ui/visibility-note";
import { PageHeader } from "@/components/ui/page-header";
import { Alert } from "@/components/ui/alert";
import { EmptyState } from "@/components/ui/empty-state";
import { Field, FormActions, FormGrid } from "@/components/ui/field";
import { GetForm } from "@/components/ui/get-form";
import { Select } from "@/components/ui/select";
import { Combobox } from "@/components/ui/combobox";
import { aclSuggestions } from "@/lib/services/acl-suggestions";
import { SubmitButton } from "@/components/ui/submit-button";
import { AuditTable } from "@/components/audit/audit-table";
import { describeMatch } from "@/components/audit/audit-change";
import styles from "@/components/audit/audit.module.css";
import { objectTitle, titleFromSearch } from "@/lib/page-title";
import { firstValues, type SearchParams } from "@/lib/search-params";

export const generateMetadata = titleFromSearch((q) => objectTitle("Audit", q.principal, q.action));
export const dynamic = "force-dynamic";

const FILTERS = ["principal", "action", "outcome", "category", "from", "to"] as const;
const ANY = { value: "", label: "any" };

export default async function AuditPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const viewer = await requireViewer();
  const raw = firstValues(await searchParams);
  const parsed = auditQuerySchema.safeParse(raw);
  const errors = parsed.success ? {} : fieldErrorsOf(parsed.error.issues);
  const filters = parsed.success ? parsed.data : auditQuerySchema.parse({});
  const { format: _format, ...listFilters } = filters;
  const [listed, suggestions] = await Promise.all([listAuditFor(viewer, listFilters), aclSuggestions(viewer)]);
  let result = listed;
  // A stale or hand-edited cursor: show the first page rather than an error.
  if (!result.ok && result.fieldErrors?.cursor)
    result = await listAuditFor(viewer, { ...listFilters, cursor: undefined });
  const foldSignIns = raw.signIns !== "show";

  const filterParams = new URLSearchParams();
  for (const key of FILTERS) {
    const v = raw[key];
    if (v) filterParams.set(key, v);
  }
  const nextParams = new URLSearchParams(filterParams);
  if (!foldSignIns) nextParams.set("signIns", "show");
  const toggleParams = new URLSearchParams(
    raw.cursor ? { ...Object.fromEntries(filterParams), cursor: raw.cursor } : filterParams,
  );
  if (foldSignIns) toggleParams.set("signIns", "show");
  const exportParams = new URLSearchParams(filterParams);
  exportParams.set("format", "csv");
  exportParams.set("limit", "1000");

  const actions: { action: string; label: string }[] = [...AUDIT_ACTIONS];
  if (raw.action && !actions.some((a) => a.action === raw.action))
    actions.push({ action: raw.action, label: "as given" });

  return (
    <>
      <PageHeader
        title="Audit"
        lead="Every change made through the console: who, what changed, and what Kafka answered."
        details={
          <p>
            Each change is shown as a diff: the ACL bindings created and deleted, or the fields added, removed and
            changed. You see the events Kafka would let you see: your own, and those about what you may describe. Failed
            sign-ins are folded into one line per client and hour.
          </p>
        }
      />
      {result.ok && (
        <VisibilityNote visibility={result.data.visibility} problems={result.data.problems} testId="audit" />
      )}
      <GetForm action="/audit" label="Audit filters" className="card">
        <FormGrid>
          <Field id="audit-principal" label="Actor" hint="The principal who acted, e.g. User:alice">
            <Combobox
              name="principal"
              defaultValue={raw.principal ?? ""}
              placeholder="User:alice"
              // Yourself, the actors on this page, then the principals the cluster's ACLs name.
              suggestions={[
                viewer.principal,
                ...(result.ok ? result.data.events.map((e) => e.principal) : []),
                ...suggestions.principals,
              ]}
            />
          </Field>
          <Field id="audit-action" label="Action">
            <Select
              name="action"
              defaultValue={raw.action ?? ""}
              options={[ANY, ...actions.map((a) => ({ value: a.action, label: `${a.action} — ${a.label}` }))]}
            />
          </Field>
          <Field id="audit-outcome" label="Outcome">
            <Select name="outcome" defaultValue={raw.outcome ?? ""} options={[ANY, ...AUDIT_OUTCOMES]} />
          </Field>
          <Field id="audit-category" label="Category">
            <Select name="category" defaultValue={raw.category ?? ""} options={[ANY, ...AUDIT_CATEGORIES]} />
          </Field>
          <Field id="audit-from" label="From" errors={errors.from}>
            <input name="from" type="date" defaultValue={raw.from ?? ""} />
          </Field>
          <Field id="audit-to" label="To" hint="Included" errors={errors.to}>
            <input name="to" type="date" defaultValue={raw.to ?? ""} />
          </Field>
          {!foldSignIns && <input type="hidden" name="signIns" value="show" />}
          <FormActions>
            <SubmitButton pendingLabel="Filtering…">Filter</SubmitButton>
            <a className="btn secondary" href={`/api/v1/audit?${exportParams}`} download>
              Export CSV
            </a>
            {filterParams.size > 0 && <Link href="/audit">Clear filters</Link>}
          </FormActions>
        </FormGrid>
      </GetForm>
      {!result.ok ? (
        <Alert tone="error" testId="audit-error">
          {result.message}
        </Alert>
      ) : (
        <>
          <p className={styles.match} data-testid="audit-match" aria-live="polite">
            {describeMatch(
              parsed.success ? filters : {},
              result.data.events.length,
              result.data.nextCursor !== null,
              Boolean(raw.cursor),
            )}
          </p>
          <p className={styles.toggle}>
            {foldSignIns
              ? "Failed sign-ins are folded per client and hour. "
              : "Every failed sign-in is shown on its own row. "}
            <Link href={`/audit?${toggleParams}`} data-testid="sign-in-toggle">
              {foldSignIns ? "Show each one" : "Fold them"}
            </Link>
          </p>
          {result.data.events.length === 0 ? (
            <EmptyState>No audit events match these filters.</EmptyState>
          ) : (
            <AuditTable events={result.data.events} foldSignIns={foldSignIns} />
          )}
          <OlderLink path="/audit" params={nextParams} cursor={result.data.nextCursor}>
            Older events
          </OlderLink>
        </>
      )}
    </>
  );
}
