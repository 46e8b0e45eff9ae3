import Link from "@/components/link";
import { requireViewer } from "@/lib/auth/current";
import { fieldErrorsOf } from "@/lib/schemas/result";
import { CLUSTER_RESOURCE_NAME, WILDCARD_PRINCIPAL, type AclBinding, type ResourceType } from "@/lib/policy";
import {
  resourceDetailQuerySchema,
  resourceIndexQuerySchema,
  type ResourceDetail,
  type ResourceIndex,
  type ResourceIndexQuery,
} from "@/lib/schemas/resources";
import { resourceDetail, resourceIndex } from "@/lib/services/resources";
import { WILDCARD_ROW_MEANING, matrixLinkHost, resourceHref } from "@/lib/services/resources-view";
import { UNNAMED_HOST_WORDS } from "@/lib/schemas/access-check";
import { isResourceListed } from "@/lib/services/effective-permissions-read";
import { decisionColumns, PrincipalLink, principalStyles } from "@/components/principals/decision-cell";
import { aclColumns, bindingRowKey } from "@/components/acls/acl-row";
import { Alert } from "@/components/ui/alert";
import { DataTable, type Column } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { FilterButtons } from "@/components/ui/filter-buttons";
import { objectTitle, titleFromSearch } from "@/lib/page-title";
import { firstValues, type SearchParams } from "@/lib/search-params";

export const generateMetadata = titleFromSearch((q) =>
  q.type !== undefined || q.name !== undefined ? objectTitle("Resource", q.type, q.name) : "Resources",
);

const SECTION_TITLE: Record<ResourceType, string> = {
  TOPIC: "Topics",
  GROUP: "Consumer groups",
  TRANSACTIONAL_ID: "Transactional ids",
  CLUSTER: "Cluster",
  USER: "Users",
  DELEGATION_TOKEN: "Delegation tokens",
};

const SECTION_NOTE: Partial<Record<ResourceType, string>> = {
  USER: "The USER resources named in ACLs (token owners others may create or describe tokens for).",
  DELEGATION_TOKEN: "The token ids Kafka lets you describe.",
};

export default async function ResourcesPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const viewer = await requireViewer();
  const raw = firstValues(await searchParams);

  if (raw.type !== undefined || raw.name !== undefined) {
    const parsed = resourceDetailQuerySchema.safeParse(raw);
    if (!parsed.success) {
      const errors = fieldErrorsOf(parsed.error.issues);
      return (
        <>
          <h1>Resources</h1>
          <Alert tone="error">{Object.values(errors).flat().join(" ")}</Alert>
          <Link href="/resources">← All resources</Link>
        </>
      );
    }
    const [detail, listed] = await Promise.all([
      resourceDetail(viewer, parsed.data),
      isResourceListed(viewer, parsed.data.type, parsed.data.name),
    ]);
    return (
      <>
        <p>
          <Link href="/resources">← All resources</Link>
        </p>
        <h1>
          {parsed.data.type} <span className="mono">{parsed.data.name}</span>
        </h1>
        {listed.ok && !listed.data && (
          <Alert tone="warn" testId="resource-not-listed">
            Kafka does not list a {parsed.data.type} named <span className="mono">{parsed.data.name}</span> to you (
            {viewer.principal}): it does not exist, or you may not describe it. The ACLs below are those that would
            apply to it.
          </Alert>
        )}
        {detail.ok ? (
          <Detail detail={detail.data} />
        ) : (
          <>
            <Alert tone="error" testId="resource-error">
              {detail.message}
            </Alert>
            {detail.code === "DENIED" && (
              <p className="muted">
                The ACLs that apply are read as you ({viewer.principal}), which Kafka allows only with DESCRIBE on
                CLUSTER {CLUSTER_RESOURCE_NAME}.
              </p>
            )}
          </>
        )}
      </>
    );
  }

  const parsed = resourceIndexQuerySchema.safeParse(raw);
  const query = parsed.success ? parsed.data : resourceIndexQuerySchema.parse({});
  const index = await resourceIndex(viewer, query);
  return (
    <>
      <h1>Resources</h1>
      <p className="lead">
        Topics, consumer groups, transactional ids, the cluster, users and tokens you ({viewer.principal}) may see, with
        the ACLs that apply to each.
      </p>
      <FilterForm query={query} error={parsed.success ? undefined : fieldErrorsOf(parsed.error.issues).q} />
      {index.ok ? <IndexView index={index.data} /> : <Alert tone="error">{index.message}</Alert>}
    </>
  );
}

function FilterForm({ query, error }: { query: ResourceIndexQuery; error?: string[] }) {
  return (
    <form className="inline card resource-filter" method="get" aria-label="Filter resources">
      <label className="field">
        Name contains
        <input name="q" defaultValue={query.q} placeholder="e.g. payments" aria-invalid={!!error} />
        {error && <span className="field-error">{error.join(" ")}</span>}
      </label>
      <FilterButtons clearHref="/resources" />
    </form>
  );
}

function IndexView({ index }: { index: ResourceIndex }) {
  return (
    <>
      {index.aclsUnavailable !== null && (
        <Alert tone="info" testId="acl-counts-unavailable">
          ACL counts are not shown: {index.aclsUnavailable}
        </Alert>
      )}
      <nav className="row resource-tabs" aria-label="Resource types">
        {index.sections.map((s) => (
          <a key={s.resourceType} href={`#${s.resourceType}`}>
            {SECTION_TITLE[s.resourceType]} ({s.resources.length})
          </a>
        ))}
      </nav>
      {index.sections.map((s) => (
        <section
          key={s.resourceType}
          id={s.resourceType}
          aria-label={SECTION_TITLE[s.resourceType]}
          className="resource-section"
        >
          <h2>{SECTION_TITLE[s.resourceType]}</h2>
          {SECTION_NOTE[s.resourceType] && <p className="muted">{SECTION_NOTE[s.resourceType]}</p>}
          {s.note !== null && (
            <Alert tone="warn" testId="section-note">
              {s.note}
            </Alert>
          )}
          {s.error !== null ? (
            <Alert tone="error" testId="section-error">
              {s.error}
            </Alert>
          ) : s.resources.length === 0 ? (
            <EmptyState>None{s.resourceType === "USER" ? " named in ACLs" : ""}.</EmptyState>
          ) : (
            <DataTable
              label={`${SECTION_TITLE[s.resourceType]} list`}
              scroll={false}
              rows={s.resources}
              rowKey={(r) => r.name}
              columns={[
                {
                  key: "name",
                  header: "Name",
                  className: "mono",
                  cell: (r) => <Link href={resourceHref(s.resourceType, r.name)}>{r.name}</Link>,
                },
                ...(index.aclsUnavailable === null ? [aclCountColumn] : []),
              ]}
            />
          )}
        </section>
      ))}
    </>
  );
}

function Detail({ detail }: { detail: ResourceDetail }) {
  const linkHost = matrixLinkHost(detail);
  const count = detail.groups.reduce((n, g) => n + g.acls.length, 0);
  const su = detail.assumptions.superUsers.length > 0 ? detail.assumptions.superUsers.join(";") : "(none)";
  const resource = { resourceType: detail.resourceType, resourceName: detail.resourceName };
  return (
    <>
      <h2>ACLs that actually apply</h2>
      <p className="muted acl-scope">
        {count} ACL{count === 1 ? "" : "s"}: the exact LITERAL name, every PREFIXED pattern the name starts with, and
        LITERAL <code>*</code>, for every principal.
      </p>
      {detail.groups.length === 0 ? (
        <EmptyState>
          No ACL applies to this resource.{" "}
          <Link
            href={`/timeline?${new URLSearchParams({ ...resource, patternType: "LITERAL" })}`}
            data-testid="resource-timeline-link"
          >
            History of its ACLs
          </Link>
        </EmptyState>
      ) : (
        detail.groups.map((g) => (
          <section key={`${g.reason}|${g.pattern}`} className="apply-group" data-reason={g.reason} aria-label={g.label}>
            <h3>{g.label}</h3>
            <p className="muted small">
              <Link
                href={`/timeline?${new URLSearchParams({
                  resourceType: detail.resourceType,
                  resourceName: g.pattern,
                  patternType: g.reason === "prefixed" ? "PREFIXED" : "LITERAL",
                })}`}
                data-testid="resource-timeline-link"
              >
                History of these ACLs
              </Link>
              : when each appeared or went, and who or what changed it.
            </p>
            <DataTable
              label={`ACLs: ${g.label}`}
              scroll={false}
              rows={g.acls}
              rowKey={bindingRowKey}
              columns={aclColumns((a: AclBinding) => a, { linkPrincipal: true })}
            />
          </section>
        ))
      )}

      <h2>Effective permissions</h2>
      <p className="muted" data-testid="assumed-host">
        host: {UNNAMED_HOST_WORDS}. Where an ACL names a host and the answer from it differs, the cell gives that answer
        too.
      </p>
      <p className="muted assumptions" data-testid="matrix-assumptions">
        For clients connecting from a host no ACL names (only <code>*</code>-host ACLs count). {WILDCARD_ROW_NOTE}{" "}
        Assuming <code>super.users = {su}</code> and{" "}
        <code>allow.everyone.if.no.acl.found = {String(detail.assumptions.allowEveryoneIfNoAclFound)}</code> (
        {detail.assumptions.source}). Hover a cell for the rule; follow it for the full explanation in Access check
        (asked from {linkHost}, an address no ACL here names). Each principal opens what it can do everywhere.
      </p>
      <div className="matrix-wrap">
        <DataTable
          label="Effective permissions"
          className="matrix"
          scroll={false}
          rows={detail.rows}
          rowKey={(row) => row.principal}
          rowProps={(row) => ({
            "data-principal": row.principal,
            "data-super-user": row.superUser ? "true" : undefined,
          })}
          columns={[
            {
              key: "principal",
              header: "Principal",
              rowHeader: true,
              cell: (row) => (
                <>
                  <PrincipalLink principal={row.principal} />
                  {row.superUser && <span className={principalStyles.via}>super user</span>}
                  {row.principal === WILDCARD_PRINCIPAL && (
                    <span className={principalStyles.via}>{WILDCARD_ROW_MEANING}</span>
                  )}
                </>
              ),
            },
            ...decisionColumns(detail.operations, (row: MatrixRow, operation) => {
              const cell = row.cells.find((c) => c.operation === operation);
              return cell && { cell, principal: row.principal, ...resource, linkHost, title: cell.reason };
            }),
          ]}
        />
      </div>
    </>
  );
}

type ListedResource = ResourceIndex["sections"][number]["resources"][number];
type MatrixRow = ResourceDetail["rows"][number];

const aclCountColumn: Column<ListedResource> = {
  key: "acls",
  header: "ACLs that apply",
  cellProps: () => ({ "data-testid": "acl-count" }),
  cell: (r) => r.acls,
};

const WILDCARD_ROW_NOTE = `The User:* row stands for ${WILDCARD_ROW_MEANING}; each super user has its own row.`;
