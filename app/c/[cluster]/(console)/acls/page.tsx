import Link from "@/components/link";
import { requireViewer } from "@/lib/auth/current";
import { firstValues, type SearchParams } from "@/lib/search-params";
import { fieldErrorsOf } from "@/lib/schemas/result";
import { CLUSTER_RESOURCE_NAME, type Finding } from "@/lib/policy";
import { aclListQuerySchema } from "@/lib/schemas/acls";
import { LINT_ON_LOAD_LIMIT, aclOverview } from "@/lib/services/acls";
import { AclBindingsTable } from "@/components/acls/acl-row";
import { AclExportLinks } from "@/components/acls/acl-export-links";
import { aclListHref, listParams } from "@/components/acls/acl-list-params";
import { PageHeader } from "@/components/ui/page-header";
import { ResultPanel } from "@/components/ui/alert";
import { Badge, type Tone } from "@/components/ui/badge";
import { aclSuggestions } from "@/lib/services/acl-suggestions";
import { AclBrowser } from "./acl-browser";

export const metadata = { title: "ACLs" };

export default async function AclsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const viewer = await requireViewer();
  const raw = firstValues(await searchParams);
  const parsed = aclListQuerySchema.safeParse(raw);
  const errors = parsed.success ? {} : fieldErrorsOf(parsed.error.issues);
  const query = parsed.success ? parsed.data : aclListQuerySchema.parse({});
  const [overview, suggestions] = await Promise.all([
    aclOverview(viewer, query, { lint: raw.lint === "1" }),
    aclSuggestions(viewer),
  ]);
  // What the form shows: the address as typed, where it parsed; a field in error is shown as typed too.
  const params = listParams({
    ...listParams(query),
    ...Object.fromEntries(Object.keys(errors).map((k) => [k, raw[k] ?? ""])),
  });

  return (
    <>
      <PageHeader
        title="ACLs"
        lead={<>Every ACL Kafka lets you ({viewer.principal}) describe, with lint findings.</>}
        details={
          <p>
            Create and delete ACLs through sealed plans: the preview shows every decision the change flips across the
            cluster, and Apply carries out exactly that plan. Changes are made as you and recorded in the audit trail.
            The filters apply as you type; a resource type narrows the operations to those Kafka accepts on it.
          </p>
        }
      />
      <p className="row">
        <Link href="/acls/new" className="btn">
          Create ACLs
        </Link>
      </p>
      <AclExportLinks />

      {!overview.ok ? (
        <>
          <ResultPanel result={overview} testId="acls" />
          {overview.code === "DENIED" && (
            <p className="muted">
              Listing ACLs needs DESCRIBE on CLUSTER {CLUSTER_RESOURCE_NAME}; creating and deleting them needs ALTER on
              it. Ask for the permission, or ask someone who has it.
            </p>
          )}
        </>
      ) : (
        <>
          <LintPanel
            findings={overview.data.findings}
            lintHref={aclListHref(listParams(query), { lint: "1" })}
            code={query.lintCode === "ANY" ? null : query.lintCode}
          />
          {/* Keyed on the address: a navigation (Clear, a link) starts from the server's answer again. */}
          <AclBrowser
            key={JSON.stringify(params)}
            initialParams={params}
            initialList={overview.data.list}
            errors={errors}
            principals={suggestions.principals}
          />
        </>
      )}
    </>
  );
}

const SHOWN_FINDINGS = 200;

/** The colours lint findings had as `badge lint-*`. */
const LINT_TONE: Record<Finding["severity"], Tone> = { error: "bad", warning: "warn", info: "info" };

/** The lint findings; with a lint code filter, just that code's (open), whose ACLs the list below holds. */
function LintPanel({
  findings: all,
  lintHref,
  code,
}: {
  findings: Finding[] | null;
  lintHref: string;
  code: string | null;
}) {
  const findings = code === null || all === null ? all : all.filter((f) => f.code === code);
  if (findings === null) {
    return (
      <div className="card lint" data-testid="acl-lint">
        Lint: not run automatically above {LINT_ON_LOAD_LIMIT.toLocaleString("en")} ACLs.{" "}
        <Link href={lintHref}>Run lint over all ACLs</Link>
      </div>
    );
  }
  const count = (s: Finding["severity"]) => findings.filter((f) => f.severity === s).length;
  return (
    <details className="card lint" data-testid="acl-lint" open={code !== null || undefined}>
      <summary>
        Lint
        {code !== null && (
          <>
            {" "}
            (<code>{code}</code>)
          </>
        )}
        :{" "}
        {findings.length === 0
          ? "no findings"
          : `${count("error")} errors, ${count("warning")} warnings, ${count("info")} info`}
      </summary>
      {findings.length > SHOWN_FINDINGS && (
        <p className="muted">
          The first {SHOWN_FINDINGS} findings of {findings.length}, most severe first.
        </p>
      )}
      {findings.slice(0, SHOWN_FINDINGS).map((f, i) => (
        <div key={`${f.code}-${i}`} className="finding">
          <div className="row">
            <Badge tone={LINT_TONE[f.severity]}>{f.severity}</Badge>
            <code>{f.code}</code>
            <span>{f.message}</span>
          </div>
          {f.acls.length > 0 && <AclBindingsTable label={`ACLs of finding ${f.code}`} bindings={f.acls} />}
        </div>
      ))}
    </details>
  );
}
