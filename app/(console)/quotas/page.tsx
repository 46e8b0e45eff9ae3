import { requireViewer } from "@/lib/auth/current";
import { fieldErrorsOf } from "@/lib/actions/result";
import { appliedQuotaQueryFieldsSchema, appliedQuotaQuerySchema, type AppliedQuotaView, type QuotasOverview } from "@/lib/schemas/quotas";
import { explainAppliedQuota, listQuotas } from "@/lib/services/quotas";
import { KIP55_RULE_LABEL, editFormInitial, editLinkParams } from "@/lib/services/quota-view";
import { BudgetTable } from "@/components/quotas/budget-table";
import { QuotaEditForm } from "./quota-edit-form";

export const metadata = { title: "Quotas" };

type Search = Record<string, string | string[] | undefined>;

const FIELDS = Object.keys(appliedQuotaQueryFieldsSchema.shape) as (keyof typeof appliedQuotaQueryFieldsSchema.shape)[];

function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

export default async function QuotasPage({ searchParams }: { searchParams: Promise<Search> }) {
  const viewer = await requireViewer();
  const raw = Object.fromEntries(Object.entries(await searchParams).map(([k, v]) => [k, first(v)]));
  const submitted = FIELDS.some((f) => raw[f] !== undefined);
  const parsed = submitted ? appliedQuotaQuerySchema.safeParse(raw) : null;
  const errors = parsed && !parsed.success ? fieldErrorsOf(parsed.error.issues) : {};
  const initial = editFormInitial(raw);
  const [overview, applied] = await Promise.all([listQuotas(viewer), parsed?.success ? explainAppliedQuota(viewer, parsed.data) : null]);

  return (
    <>
      <h1>Quotas</h1>
      <p className="lead">
        User, client-id, user+client-id, default and IP quotas as Kafka holds them (read as you, {viewer.principal}); the KIP-55 budget of each
        user&apos;s client sub-quotas; and which quota Kafka actually applies to a connection.
      </p>

      {!overview.ok ? (
        <>
          <div role="alert" className="alert error" data-testid="quotas-error">
            {overview.message}
          </div>
          {overview.code === "DENIED" && (
            <p className="muted">
              Reading client quotas needs DESCRIBE_CONFIGS on CLUSTER (and changing them ALTER_CONFIGS on CLUSTER). Ask for that permission, or ask
              someone who has it.
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
      <p className="muted">
        Kafka resolves each key on its own through eight levels, most specific first; the first entity that sets the key wins. IP addresses have
        their own connection-rate quota.
      </p>
      <form className="inline card quota-applied-form" method="get" action="/quotas#applied" aria-label="Which quota applies" noValidate>
        <label className="field">
          User
          <input name="user" defaultValue={raw.user ?? ""} placeholder="svc-orders" aria-invalid={errors.user ? true : undefined} />
          {errors.user && <span className="field-error">{errors.user.join(" ")}</span>}
        </label>
        <label className="field">
          Client id
          <input name="clientId" defaultValue={raw.clientId ?? ""} placeholder="orders-api" />
        </label>
        <label className="field">
          or IP
          <input name="ip" defaultValue={raw.ip ?? ""} placeholder="203.0.113.10" aria-invalid={errors.ip ? true : undefined} />
          {errors.ip && <span className="field-error">{errors.ip.join(" ")}</span>}
        </label>
        <button className="btn" type="submit">
          Show
        </button>
      </form>
      {applied && !applied.ok && (
        <div role="alert" className="alert error" data-testid="applied-error">
          {applied.message}
        </div>
      )}
      {applied?.ok && <Applied view={applied.data} />}

      <h2 id="edit">Change a quota</h2>
      <p className="muted">
        Preview first: Kafka&apos;s own validation, the console&apos;s KIP-55 budget rule, and for every client the console knows the quota Kafka
        applies and the user&apos;s budget before and after. The preview is kept as a plan; Apply sends exactly it to Kafka as you (refused if the
        quotas it depends on change first) and writes it to the audit trail.
      </p>
      <QuotaEditForm key={JSON.stringify(initial)} rule={KIP55_RULE_LABEL} initial={initial} />
    </>
  );
}

function Configured({ overview }: { overview: QuotasOverview }) {
  return (
    <>
      <h2>Configured quotas</h2>
      {overview.groups.every((g) => g.entities.length === 0) && <div className="empty">No client quota is configured: every client is unlimited.</div>}
      {overview.groups
        .filter((g) => g.entities.length > 0)
        .map((g) => (
          <section key={g.group} className="quota-group">
            <h3>{g.title}</h3>
            <table className="data" aria-label={g.title}>
              <thead>
                <tr>
                  <th>Entity</th>
                  <th>Key</th>
                  <th>Value</th>
                  <th>Raw</th>
                  <th>
                    <span className="sr-only">Change</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {g.entities.flatMap((e) =>
                  e.values.map((v, i) => (
                    <tr key={`${e.label}|${v.key}`} data-entity={e.label}>
                      <td className="mono">{i === 0 ? e.label : ""}</td>
                      <td className="mono">{v.key}</td>
                      <td>{v.display}</td>
                      <td className="mono">{v.value}</td>
                      <td>
                        <a className="btn small secondary" href={`/quotas?${editLinkParams(e.entity, v.key, v.value)}#edit`} aria-label={`Change ${v.key} of ${e.label}`}>
                          Change
                        </a>
                      </td>
                    </tr>
                  )),
                )}
              </tbody>
            </table>
          </section>
        ))}
    </>
  );
}

function Budgets({ overview }: { overview: QuotasOverview }) {
  const { violations, warnings, rule } = overview.findings;
  return (
    <>
      <h2>KIP-55 budget</h2>
      <p className="muted">
        A {rule}: the explicit client sub-quotas of a user should not sum past the user&apos;s total. What is left goes to the user&apos;s clients
        without a sub-quota.
      </p>
      {violations.map((v) => (
        <div key={`${v.user}|${v.key}`} role="alert" className="alert error" data-testid="budget-finding">
          <strong>Finding ({rule}):</strong> {v.message}
        </div>
      ))}
      {warnings.map((w) => (
        <div key={`${w.user}|${w.key}`} className="alert warn" data-testid="budget-warning">
          {w.message}
        </div>
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

function Applied({ view }: { view: AppliedQuotaView }) {
  const q = view.query;
  return (
    <div className="side-by-side">
      <section aria-label="What Kafka applies">
        <h3>
          What Kafka applies to{" "}
          <span className="mono">{q.kind === "ip" ? `ip ${q.ip}` : `user ${q.user}, client id ${q.clientId === "" ? '""' : q.clientId}`}</span>
        </h3>
        <table className="data quota-rows" aria-label="Applied quota">
          <thead>
            <tr>
              <th>Key</th>
              <th>Applied</th>
              <th>Decided by</th>
              <th>Bucket</th>
            </tr>
          </thead>
          <tbody>
            {view.keys.map((k) => (
              <tr key={k.key} data-key={k.key}>
                <th scope="row" className="mono">
                  {k.key}
                </th>
                <td>
                  <strong>{k.display}</strong>
                  {k.value !== null && <div className="muted mono">{k.value}</div>}
                </td>
                <td>
                  {k.entityLabel === null ? (
                    <span className="muted">nothing configured</span>
                  ) : (
                    <>
                      {k.level !== null && <span className="badge partial">level {k.level}</span>} <span className="mono">{k.levelLabel}</span>
                      <div className="mono">{k.entityLabel}</div>
                    </>
                  )}
                  <div className="muted">{k.levelMeaning}</div>
                </td>
                <td>{k.sharedWith}</td>
              </tr>
            ))}
          </tbody>
        </table>
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
