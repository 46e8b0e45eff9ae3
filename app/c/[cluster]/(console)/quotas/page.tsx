import { requireViewer } from "@/lib/auth/current";
import { fieldErrorsOf } from "@/lib/schemas/result";
import {
  appliedQuotaQueryFieldsSchema,
  appliedQuotaQuerySchema,
  type AppliedQuotaView,
  type QuotasOverview,
} from "@/lib/schemas/quotas";
import { explainAppliedQuota, listQuotas } from "@/lib/services/quotas";
import { KIP55_RULE_LABEL, editFormInitial, editLinkParams } from "@/lib/services/quota-view";
import { BudgetTable } from "@/components/quotas/budget-table";
import { PageHeader, MoreInfo } from "@/components/ui/page-header";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { DataTable, type Column } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { FormActions, FormGrid } from "@/components/ui/field";
import { GetForm } from "@/components/ui/get-form";
import { SubmitButton } from "@/components/ui/submit-button";
import { QuotaEditForm } from "./quota-edit-form";
import { QuotaEntityField } from "./entity-field";
import { objectTitle, titleFromSearch } from "@/lib/page-title";
import { firstValues, type SearchParams } from "@/lib/search-params";

export const generateMetadata = titleFromSearch((q) => objectTitle("Quotas", q.user, q.clientId, q.ip));

const FIELDS = Object.keys(appliedQuotaQueryFieldsSchema.shape) as (keyof typeof appliedQuotaQueryFieldsSchema.shape)[];

export default async function QuotasPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const viewer = await requireViewer();
  const raw = firstValues(await searchParams);
  const submitted = FIELDS.some((f) => raw[f] !== undefined);
  const parsed = submitted ? appliedQuotaQuerySchema.safeParse(raw) : null;
  const errors = parsed && !parsed.success ? fieldErrorsOf(parsed.error.issues) : {};
  const initial = editFormInitial(raw);
  const [overview, applied] = await Promise.all([
    listQuotas(viewer),
    parsed?.success ? explainAppliedQuota(viewer, parsed.data) : null,
  ]);
  const names = overview.ok ? entityNames(overview.data) : { users: [], clientIds: [], ips: [] };

  return (
    <>
      <PageHeader
        title="Quotas"
        lead={
          <>
            Client quotas as Kafka holds them (read as you, {viewer.principal}), the KIP-55 budgets, and which quota
            Kafka applies.
          </>
        }
        details={
          <p>
            User, client-id, user+client-id, default and IP quotas; the KIP-55 budget of each user&apos;s client
            sub-quotas; and, for a user and client id (or an IP), which configured quota Kafka actually applies to the
            connection.
          </p>
        }
      />

      {!overview.ok ? (
        <>
          <Alert tone="error" testId="quotas-error">
            {overview.message}
          </Alert>
          {overview.code === "DENIED" && (
            <p className="muted">
              Reading client quotas needs DESCRIBE_CONFIGS on CLUSTER (and changing them ALTER_CONFIGS on CLUSTER). Ask
              for that permission, or ask someone who has it.
            </p>
          )}
        </>
      ) : (
        <>
          <Configured overview={overview.data} />
          <Budgets overview={overview.data} />
        </>
      )}

      <h2 id="applied">Which quota applies</h2>
      <MoreInfo summary="How Kafka picks it">
        <p>
          Kafka resolves each key on its own through eight levels, most specific first; the first entity that sets the
          key wins. IP addresses have their own connection-rate quota.
        </p>
      </MoreInfo>
      <GetForm action="/quotas" label="Which quota applies" className="card quota-applied-form" scroll={false}>
        <FormGrid>
          <QuotaEntityField entity="user" idPrefix="qa" values={raw} errors={errors} names={names} />
          <QuotaEntityField entity="clientId" idPrefix="qa" values={raw} errors={errors} names={names} />
          <QuotaEntityField entity="ip" idPrefix="qa" label="or IP" values={raw} errors={errors} names={names} />
          <FormActions>
            <SubmitButton pendingLabel="Showing…">Show</SubmitButton>
          </FormActions>
        </FormGrid>
      </GetForm>
      {applied && !applied.ok && (
        <Alert tone="error" testId="applied-error">
          {applied.message}
        </Alert>
      )}
      {applied?.ok && <Applied view={applied.data} />}

      <h2 id="edit">Change a quota</h2>
      <MoreInfo summary="Preview, then apply">
        <p>
          Preview first: Kafka&apos;s own validation, the console&apos;s KIP-55 budget rule, and for every client the
          console knows the quota Kafka applies and the user&apos;s budget before and after. The preview is kept as a
          plan; Apply sends exactly it to Kafka as you (refused if the quotas it depends on change first) and writes it
          to the audit trail.
        </p>
      </MoreInfo>
      <QuotaEditForm key={JSON.stringify(initial)} rule={KIP55_RULE_LABEL} initial={initial} suggestions={names} />
    </>
  );
}

/** The users, client ids and IPs named by a configured quota: the forms' suggestions. */
function entityNames(overview: QuotasOverview): { users: string[]; clientIds: string[]; ips: string[] } {
  const sets = { users: new Set<string>(), clientIds: new Set<string>(), ips: new Set<string>() };
  for (const g of overview.groups) {
    for (const { entity } of g.entities) {
      if (entity.user) sets.users.add(entity.user);
      if (entity["client-id"]) sets.clientIds.add(entity["client-id"]);
      if (entity.ip) sets.ips.add(entity.ip);
    }
  }
  return { users: [...sets.users].sort(), clientIds: [...sets.clientIds].sort(), ips: [...sets.ips].sort() };
}

function Configured({ overview }: { overview: QuotasOverview }) {
  return (
    <>
      <h2>Configured quotas</h2>
      {overview.groups.every((g) => g.entities.length === 0) && (
        <EmptyState>No client quota is configured: every client is unlimited.</EmptyState>
      )}
      {overview.groups
        .filter((g) => g.entities.length > 0)
        .map((g) => (
          <section key={g.group} className="quota-group">
            <h3>{g.title}</h3>
            <DataTable
              label={g.title}
              rows={g.entities.flatMap((e) => e.values.map((v, i) => ({ e, v, first: i === 0 })))}
              rowKey={({ e, v }) => `${e.label}|${v.key}`}
              rowProps={({ e }) => ({ "data-entity": e.label })}
              columns={[
                { key: "entity", header: "Entity", className: "mono", cell: ({ e, first }) => (first ? e.label : "") },
                { key: "key", header: "Key", className: "mono", cell: ({ v }) => v.key },
                { key: "value", header: "Value", cell: ({ v }) => v.display },
                { key: "raw", header: "Raw", className: "mono", cell: ({ v }) => v.value },
                {
                  key: "change",
                  header: <span className="sr-only">Change</span>,
                  cell: ({ e, v }) => (
                    <a
                      className="btn small secondary"
                      href={`/quotas?${editLinkParams(e.entity, v.key, v.value)}#edit`}
                      aria-label={`Change ${v.key} of ${e.label}`}
                    >
                      Change
                    </a>
                  ),
                },
              ]}
            />
          </section>
        ))}
    </>
  );
}

function Budgets({ overview }: { overview: QuotasOverview }) {
  const { violations, warnings, rule } = overview.findings;
  return (
    <>
      <h2 id="kip55">KIP-55 budget</h2>
      <MoreInfo summary="The rule">
        <p>
          A {rule}: the explicit client sub-quotas of a user should not sum past the user&apos;s total. What is left
          goes to the user&apos;s clients without a sub-quota.
        </p>
      </MoreInfo>
      {violations.map((v) => (
        <Alert key={`${v.user}|${v.key}`} tone="error" title={`Finding (${rule}):`} testId="budget-finding">
          {v.message}
        </Alert>
      ))}
      {warnings.map((w) => (
        <Alert key={`${w.user}|${w.key}`} tone="warn" testId="budget-warning">
          {w.message}
        </Alert>
      ))}
      {overview.budgets.map((b) => (
        <section key={b.label} className="quota-group">
          <h3>
            User <span className="mono">{b.label}</span>
          </h3>
          <BudgetTable budget={b} rule={rule} />
        </section>
      ))}
    </>
  );
}

const APPLIED_COLUMNS: Column<AppliedQuotaView["keys"][number]>[] = [
  { key: "key", header: "Key", rowHeader: true, className: "mono", cell: (k) => k.key },
  {
    key: "applied",
    header: "Applied",
    cell: (k) => (
      <>
        <strong>{k.display}</strong>
        {k.value !== null && <div className="muted mono">{k.value}</div>}
      </>
    ),
  },
  {
    key: "level",
    header: "Decided by",
    cell: (k) => (
      <>
        {k.entityLabel === null ? (
          <span className="muted">nothing configured</span>
        ) : (
          <>
            {k.level !== null && <Badge tone="warn">level {k.level}</Badge>}{" "}
            <span className="mono">{k.levelLabel}</span>
            <div className="mono">{k.entityLabel}</div>
          </>
        )}
        <div className="muted">{k.levelMeaning}</div>
      </>
    ),
  },
  { key: "bucket", header: "Bucket", cell: (k) => k.sharedWith },
];

function Applied({ view }: { view: AppliedQuotaView }) {
  const q = view.query;
  return (
    <div className="side-by-side">
      <section aria-label="What Kafka applies">
        <h3>
          What Kafka applies to{" "}
          <span className="mono">
            {q.kind === "ip" ? `ip ${q.ip}` : `user ${q.user}, client id ${q.clientId === "" ? '""' : q.clientId}`}
          </span>
        </h3>
        <DataTable
          label="Applied quota"
          className="quota-rows"
          rows={view.keys}
          rowKey={(k) => k.key}
          rowProps={(k) => ({ "data-key": k.key })}
          columns={APPLIED_COLUMNS}
        />
      </section>
      {view.budget && (
        <section aria-label="KIP-55 budget for this user">
          <h3>
            KIP-55 budget of <span className="mono">{view.budget.label}</span>
          </h3>
          <BudgetTable budget={view.budget} rule={KIP55_RULE_LABEL} />
        </section>
      )}
    </div>
  );
}
