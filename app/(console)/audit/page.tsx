import Link from "next/link";
import { requireViewer } from "@/lib/auth/current";
import { AUDIT_CATEGORIES, AUDIT_OUTCOMES, auditQuerySchema } from "@/lib/schemas/audit";
import { listAuditFor } from "@/lib/services/audit-view";
import { fieldErrorsOf } from "@/lib/actions/result";

export const metadata = { title: "Audit" };
export const dynamic = "force-dynamic";

type Search = Record<string, string | string[] | undefined>;

function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

function pretty(value: unknown): string {
  if (value === null || value === undefined) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

export default async function AuditPage({ searchParams }: { searchParams: Promise<Search> }) {
  const viewer = await requireViewer();
  const raw = Object.fromEntries(Object.entries(await searchParams).map(([k, v]) => [k, first(v)]));
  const parsed = auditQuerySchema.safeParse(raw);
  const errors = parsed.success ? {} : fieldErrorsOf(parsed.error.issues);
  const filters = parsed.success ? parsed.data : auditQuerySchema.parse({});
  const { format: _format, ...listFilters } = filters;
  let result = await listAuditFor(viewer, listFilters);
  // A stale or hand-edited cursor: show the first page rather than an error.
  if (!result.ok && result.fieldErrors?.cursor) result = await listAuditFor(viewer, { ...listFilters, cursor: undefined });

  const exportParams = new URLSearchParams();
  for (const key of ["principal", "action", "outcome", "category", "from", "to"] as const) {
    const v = raw[key];
    if (v) exportParams.set(key, v);
  }
  const nextParams = new URLSearchParams(exportParams);
  if (result.ok && result.data.nextCursor) nextParams.set("cursor", result.data.nextCursor);
  exportParams.set("format", "csv");
  exportParams.set("limit", "1000");

  return (
    <>
      <h1>Audit</h1>
      <p className="lead">
        Every change made through the console: who, as which principal, what, and what Kafka answered. You see the events Kafka would let you
        see: your own, and those about what you may describe.
      </p>
      {result.ok && (
        <details className="card" data-testid="audit-visibility">
          <summary>What you can see here</summary>
          <ul>
            {result.data.visibility.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </details>
      )}
      {result.ok && result.data.problems.length > 0 && (
        <div role="alert" className="alert error" data-testid="audit-problems">
          Kafka could not be asked what you may see, so only what is certain is shown: {result.data.problems.join(" ")}
        </div>
      )}
      <form className="inline card" method="get" aria-label="Audit filters">
        <label className="field">
          Principal
          <input name="principal" defaultValue={raw.principal ?? ""} placeholder="User:alice" />
        </label>
        <label className="field">
          Action
          <input name="action" defaultValue={raw.action ?? ""} placeholder="acl.create" />
        </label>
        <label className="field">
          Outcome
          <select name="outcome" defaultValue={raw.outcome ?? ""}>
            <option value="">any</option>
            {AUDIT_OUTCOMES.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          Category
          <select name="category" defaultValue={raw.category ?? ""}>
            <option value="">any</option>
            {AUDIT_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          From
          <input name="from" type="date" defaultValue={raw.from ?? ""} />
          {errors.from?.map((m) => <span key={m} className="field-error">{m}</span>)}
        </label>
        <label className="field">
          To
          <input name="to" type="date" defaultValue={raw.to ?? ""} />
          {errors.to?.map((m) => <span key={m} className="field-error">{m}</span>)}
        </label>
        <button className="btn" type="submit">
          Filter
        </button>
        <a className="btn secondary" href={`/api/v1/audit?${exportParams}`} download>
          Export CSV
        </a>
      </form>
      {!result.ok ? (
        <div role="alert" className="alert error" data-testid="audit-error">
          {result.message}
        </div>
      ) : result.data.events.length === 0 ? (
        <div className="empty">No audit events match these filters.</div>
      ) : (
        <table className="data" aria-label="Audit events">
          <thead>
            <tr>
              <th>Time (UTC)</th>
              <th>Principal</th>
              <th>Action</th>
              <th>Target</th>
              <th>Outcome</th>
              <th>Details</th>
            </tr>
          </thead>
          <tbody>
            {result.data.events.map((e) => (
              <tr key={String(e.id)}>
                <td className="mono nowrap">{new Date(e.at).toISOString().replace("T", " ").slice(0, 19)}</td>
                <td className="mono">{e.principal}</td>
                <td className="mono">{e.action}</td>
                <td className="mono">{e.target}</td>
                <td>
                  <span className={`badge ${e.outcome}`}>{e.outcome}</span>
                </td>
                <td>
                  {e.kafkaError && <div className="mono">{e.kafkaError}</div>}
                  {e.message && <div>{e.message}</div>}
                  {e.request != null && <div className="mono muted">{pretty(e.request)}</div>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {result.ok && result.data.nextCursor && (
        <p>
          <Link href={`/audit?${nextParams}`}>Older events →</Link>
        </p>
      )}
    </>
  );
}
