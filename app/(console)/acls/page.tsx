import Link from "next/link";
import { requireViewer } from "@/lib/auth/current";
import { fieldErrorsOf } from "@/lib/actions/result";
import { CLUSTER_RESOURCE_NAME, OPERATIONS, PATTERN_TYPES, PERMISSION_TYPES, RESOURCE_TYPES, type Finding } from "@/lib/policy";
import { aclListQuerySchema, type AclListQuery, type AclListResult } from "@/lib/schemas/acls";
import { LINT_ON_LOAD_LIMIT, aclOverview } from "@/lib/services/acls";
import { AclTable } from "./acl-table";
import { BindingCells, BindingHeaders } from "./change-views";
import { CreateAclForm } from "./create-acl-form";
import { AclExportLinks } from "@/components/acls/acl-export-links";

export const metadata = { title: "ACLs" };

type Search = Record<string, string | string[] | undefined>;

function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

export default async function AclsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const viewer = await requireViewer();
  const raw = Object.fromEntries(Object.entries(await searchParams).map(([k, v]) => [k, first(v)]));
  const parsed = aclListQuerySchema.safeParse(raw);
  const errors = parsed.success ? {} : fieldErrorsOf(parsed.error.issues);
  const query = parsed.success ? parsed.data : aclListQuerySchema.parse({});
  const overview = await aclOverview(viewer, query, { lint: raw.lint === "1" });

  return (
    <>
      <h1>ACLs</h1>
      <p className="lead">
        Every ACL Kafka lets you ({viewer.principal}) describe, with lint findings; create and delete ACLs through sealed plans: the preview shows every decision
        the change flips across the cluster, and Apply carries out exactly that plan. Changes are made as you and recorded in the audit trail.
      </p>
      <AclExportLinks />

      <FilterForm query={query} raw={raw} errors={errors} />

      {!overview.ok ? (
        <>
          <div role="alert" className="alert error" data-testid="acls-error">
            {overview.message}
          </div>
          {overview.code === "DENIED" && (
            <p className="muted">
              Listing ACLs needs DESCRIBE on CLUSTER {CLUSTER_RESOURCE_NAME}; creating and deleting them needs ALTER on it. Ask for the permission, or ask someone who has it.
            </p>
          )}
        </>
      ) : (
        <>
          <LintPanel findings={overview.data.findings} lintHref={pageHref(query, overview.data.list.page, { lint: "1" })} />
          <Summary list={overview.data.list} query={query} />
          {/* Always mounted, so the result of a deletion stays on screen when the page it emptied re-renders. */}
          <AclTable acls={overview.data.list.acls} />
        </>
      )}

      <CreateAclForm />
    </>
  );
}

function FilterForm({ query, raw, errors }: { query: AclListQuery; raw: Record<string, string | undefined>; errors: Record<string, string[]> }) {
  const value = (k: keyof AclListQuery) => raw[k] ?? String(query[k]);
  const select = (name: keyof AclListQuery, label: string, options: readonly string[]) => (
    <label className="field">
      {label}
      <select name={name} defaultValue={value(name)} aria-invalid={!!errors[name]}>
        {["ANY", ...options].map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
      {errors[name] && <span className="field-error">{errors[name].join(" ")}</span>}
    </label>
  );
  return (
    <form className="card access-form" method="get" aria-label="Filter ACLs">
      <label className="field">
        Principal
        <input name="principal" defaultValue={raw.principal ?? ""} placeholder="User:alice" />
      </label>
      <label className="field">
        Principal match
        <select name="principalMatch" defaultValue={value("principalMatch")}>
          <option value="exact">exact</option>
          <option value="contains">contains</option>
        </select>
      </label>
      {select("resourceType", "Resource type", RESOURCE_TYPES)}
      <label className="field">
        Resource name
        <input name="resourceName" defaultValue={raw.resourceName ?? ""} placeholder="exact name, e.g. orders" />
      </label>
      {select("patternType", "Pattern type", PATTERN_TYPES)}
      {select("operation", "Operation", OPERATIONS)}
      {select("permissionType", "Permission", PERMISSION_TYPES)}
      <div className="actions">
        <button className="btn" type="submit">
          Filter
        </button>
        <Link href="/acls" className="btn secondary">
          Clear
        </Link>
        {errors.page && <span className="field-error">{errors.page.join(" ")}</span>}
      </div>
    </form>
  );
}

function pageHref(query: AclListQuery, page: number, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (k === "page" || v === "" || v === "ANY" || (k === "principalMatch" && v === "exact")) continue;
    params.set(k, String(v));
  }
  if (page > 1) params.set("page", String(page));
  for (const [k, v] of Object.entries(extra)) params.set(k, v);
  const qs = params.toString();
  return qs ? `/acls?${qs}` : "/acls";
}

function Summary({ list, query }: { list: AclListResult; query: AclListQuery }) {
  const from = list.matching === 0 ? 0 : (list.page - 1) * list.pageSize + 1;
  const to = Math.min(list.page * list.pageSize, list.matching);
  return (
    <div className="row acl-summary">
      <span data-testid="acl-count">
        {list.matching === 0 ? "0" : `${from}–${to}`} of {list.matching} matching ({list.total} ACLs in all)
      </span>
      {list.pages > 1 && (
        <nav className="row" aria-label="Pages">
          {list.page > 1 && <Link href={pageHref(query, list.page - 1)}>← Previous</Link>}
          <span>
            Page {list.page} of {list.pages}
          </span>
          {list.page < list.pages && <Link href={pageHref(query, list.page + 1)}>Next →</Link>}
        </nav>
      )}
    </div>
  );
}

const SHOWN_FINDINGS = 200;

function LintPanel({ findings, lintHref }: { findings: Finding[] | null; lintHref: string }) {
  if (findings === null) {
    return (
      <div className="card lint" data-testid="acl-lint">
        Lint: not run automatically above {LINT_ON_LOAD_LIMIT.toLocaleString("en")} ACLs. <Link href={lintHref}>Run lint over all ACLs</Link>
      </div>
    );
  }
  const count = (s: Finding["severity"]) => findings.filter((f) => f.severity === s).length;
  return (
    <details className="card lint" data-testid="acl-lint">
      <summary>
        Lint: {findings.length === 0 ? "no findings" : `${count("error")} errors, ${count("warning")} warnings, ${count("info")} info`}
      </summary>
      {findings.length > SHOWN_FINDINGS && <p className="muted">The first {SHOWN_FINDINGS} findings of {findings.length}, most severe first.</p>}
      {findings.slice(0, SHOWN_FINDINGS).map((f, i) => (
        <div key={`${f.code}-${i}`} className="finding">
          <div className="row">
            <span className={`badge lint-${f.severity}`}>{f.severity}</span>
            <code>{f.code}</code>
            <span>{f.message}</span>
          </div>
          <table className="data" aria-label={`ACLs of finding ${f.code}`}>
            <thead>
              <tr>
                <BindingHeaders />
              </tr>
            </thead>
            <tbody>
              {f.acls.map((a, j) => (
                <tr key={j}>
                  <BindingCells acl={a} />
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
    </details>
  );
}
