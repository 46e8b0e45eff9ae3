import Link from "@/components/link";
import { redirect } from "next/navigation";
import { clusterHref, requireViewer } from "@/lib/auth/current";
import { firstValues, type SearchParams } from "@/lib/search-params";
import { fieldErrorsOf } from "@/lib/schemas/result";
import { RESOURCE_TYPES, SUPPORTED_OPERATIONS, WILDCARD_PRINCIPAL } from "@/lib/policy";
import {
  effectivePermissionsQuerySchema,
  principalHref,
  principalParamSchema,
  type EffectiveExport,
  type EffectiveRow,
  type PermissionCell,
} from "@/lib/schemas/effective-permissions";
import { describeRule } from "@/lib/services/access-check-explain";
import { unnamedHost } from "@/lib/services/effective-permissions";
import { UNNAMED_HOST_WORDS } from "@/lib/schemas/access-check";
import { effectivePermissionsExport, knownPrincipals } from "@/lib/services/effective-permissions-read";
import { aclSuggestions } from "@/lib/services/acl-suggestions";
import { Alert } from "@/components/ui/alert";
import { Combobox } from "@/components/ui/combobox";
import { ResourceNameField } from "@/components/ui/resource-name-field";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { Field, FormActions, FormGrid } from "@/components/ui/field";
import { GetForm } from "@/components/ui/get-form";
import { MoreInfo, PageHeader } from "@/components/ui/page-header";
import { Select } from "@/components/ui/select";
import { SubmitButton } from "@/components/ui/submit-button";
import { decisionColumns, PrincipalLink, principalStyles as styles } from "@/components/principals/decision-cell";

export const metadata = { title: "Principals" };
export const dynamic = "force-dynamic";

/** The "who can" form's name fields: one resource, or every known name under a prefix. */
const WHO_NAME_FIELDS = [
  { id: "who-name", name: "resourceName", hint: "One resource (CLUSTER: empty)", placeholder: "audit-log" },
  {
    id: "who-prefix",
    name: "prefix",
    label: "or a name prefix",
    hint: "Every known name starting with it",
    placeholder: "payments-",
  },
] as const;

/** Resources a prefix answer shows on the page; the export has every one. */
const SHOWN_RESOURCES = 100;

export default async function PrincipalsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const viewer = await requireViewer();
  const raw = firstValues(await searchParams);

  // "What can P do": the principal's own page.
  let principalErrors: string[] | undefined;
  if (raw.principal !== undefined) {
    const p = principalParamSchema.safeParse(raw.principal);
    if (p.success) redirect(await clusterHref(principalHref(p.data)));
    principalErrors = Object.values(fieldErrorsOf(p.error.issues)).flat();
  }

  const asked = raw.resourceType !== undefined;
  const parsed = asked
    ? effectivePermissionsQuerySchema.safeParse({ ...raw, principal: undefined, format: "json" })
    : null;
  const whoErrors = parsed && !parsed.success ? fieldErrorsOf(parsed.error.issues) : {};
  const [principals, answer, suggestions] = await Promise.all([
    knownPrincipals(viewer),
    parsed?.success ? effectivePermissionsExport(viewer, parsed.data) : Promise.resolve(null),
    aclSuggestions(viewer),
  ]);
  const exportQuery = new URLSearchParams(
    Object.entries({
      resourceType: raw.resourceType ?? "",
      resourceName: raw.resourceName ?? "",
      prefix: raw.prefix ?? "",
      host: raw.host ?? "",
    }).filter(([, v]) => v !== ""),
  );

  return (
    <>
      <PageHeader
        title="Principals"
        lead={
          "What a principal can do, and who can do what on a resource or under a name prefix: from one ACL " +
          "snapshot, exportable as CSV and JSON."
        }
        details={
          <p>
            Decisions are Kafka&apos;s (StandardAuthorizer), computed by the console&apos;s policy core from the ACLs as
            Kafka gives them to you (DESCRIBE on CLUSTER). &quot;Who can&quot; lists the super users, every principal an
            ACL on the resource names, and <code>User:*</code>, which stands for every principal no ACL names. For a
            prefix, the last block is any other name starting with it (names not yet created).
          </p>
        }
      />

      <h2>What can a principal do</h2>
      <GetForm action="/principals" label="What can a principal do" className="card">
        <FormGrid>
          <Field id="principal" label="Principal" hint="User:alice, or just alice" errors={principalErrors}>
            <Combobox
              name="principal"
              suggestions={principals.ok ? principals.data : []}
              defaultValue={raw.principal ?? ""}
              placeholder="User:svc-orders"
            />
          </Field>
          <FormActions>
            <SubmitButton pendingLabel="Opening…">Show</SubmitButton>
          </FormActions>
        </FormGrid>
      </GetForm>

      <h2>Who can do what</h2>
      <GetForm action="/principals" label="Who can do what" className="card" scroll={false}>
        <FormGrid>
          <Field id="who-type" label="Resource type" errors={whoErrors.resourceType}>
            <Select
              name="resourceType"
              options={RESOURCE_TYPES}
              defaultValue={raw.resourceType?.toUpperCase() ?? "TOPIC"}
            />
          </Field>
          {WHO_NAME_FIELDS.map(({ name, ...field }) => (
            <ResourceNameField
              key={name}
              {...field}
              name={name}
              errors={whoErrors[name]}
              defaultValue={raw[name] ?? ""}
              suggestions={suggestions}
            />
          ))}
          <Field id="who-host" label="Client host" hint={`Empty: ${UNNAMED_HOST_WORDS}`} errors={whoErrors.host}>
            <input name="host" defaultValue={raw.host ?? ""} placeholder={UNNAMED_HOST_WORDS} />
          </Field>
          <FormActions>
            <SubmitButton pendingLabel="Deciding…">Who can</SubmitButton>
          </FormActions>
        </FormGrid>
      </GetForm>
      {answer !== null &&
        (answer.ok ? (
          <WhoCan answer={answer.data} exportQuery={exportQuery} />
        ) : (
          <Alert tone="error" testId="who-can-error">
            {answer.message}
          </Alert>
        ))}

      <h2>Principals named in ACLs</h2>
      {principals.ok ? (
        principals.data.length === 0 ? (
          <EmptyState>No ACL names a principal.</EmptyState>
        ) : (
          <ul className="row plain" aria-label="Principals named in ACLs">
            {principals.data.map((p) => (
              <li key={p}>
                <PrincipalLink principal={p} />
              </li>
            ))}
          </ul>
        )
      ) : (
        <Alert tone="warn" testId="principals-unavailable">
          {principals.message}
        </Alert>
      )}
    </>
  );
}

/** A row of a "who can do what" matrix: a principal and its decision per operation. */
type PrincipalRow = [principal: string, cells: Map<string, PermissionCell>];

interface Block {
  key: string;
  resourceType: EffectiveRow["resourceType"];
  resourceName: string;
  resource: EffectiveRow["resource"];
  principals: Map<string, Map<string, PermissionCell>>;
}

/** The export rows back into one table per resource: a row per principal, a column per operation. */
function blocksOf(rows: readonly EffectiveRow[], host: string | null): Block[] {
  const blocks = new Map<string, Block>();
  for (const r of rows) {
    const key = `${r.resourceType}\u0000${r.resourceName}\u0000${r.resource}`;
    let block = blocks.get(key);
    if (block === undefined) {
      block = {
        key,
        resourceType: r.resourceType,
        resourceName: r.resourceName,
        resource: r.resource,
        principals: new Map(),
      };
      blocks.set(key, block);
    }
    let cells = block.principals.get(r.principal);
    if (cells === undefined) {
      cells = new Map();
      block.principals.set(r.principal, cells);
    }
    if (r.host === host)
      cells.set(r.operation, {
        operation: r.operation,
        decision: r.decision,
        rule: r.rule,
        via: r.via,
        otherHosts: cells.get(r.operation)?.otherHosts ?? [],
      });
    else {
      const cell = cells.get(r.operation);
      if (cell !== undefined)
        cell.otherHosts.push({ host: r.host ?? "", decision: r.decision, rule: r.rule, via: r.via });
    }
  }
  return [...blocks.values()];
}

function WhoCan({ answer, exportQuery }: { answer: EffectiveExport; exportQuery: URLSearchParams }) {
  const blocks = blocksOf(answer.rows, answer.host);
  const shown = blocks.slice(0, SHOWN_RESOURCES);
  const named = answer.rows
    .filter((r) => r.rule.kind === "acl")
    .map((r) => (r.rule.kind === "acl" ? r.rule.acl.host : "*"));
  const linkHost = answer.host ?? unnamedHost(named);
  const hostWords = answer.host ?? UNNAMED_HOST_WORDS;
  return (
    <section aria-label="Who can do what" data-testid="who-can">
      <p className={styles.snapshot} data-testid="who-can-snapshot">
        From the ACLs as of <time dateTime={answer.aclSnapshot.takenAt}>{answer.aclSnapshot.takenAt}</time> (
        {answer.aclSnapshot.size} ACLs).{" "}
        <span className={styles.exports}>
          Export:
          <a
            href={`/api/v1/effective-permissions?${exportQuery}&format=csv`}
            download
            aria-label="Export who can do what as CSV"
          >
            CSV
          </a>
          <a
            href={`/api/v1/effective-permissions?${exportQuery}&format=json`}
            download
            aria-label="Export who can do what as JSON"
          >
            JSON
          </a>
        </span>
      </p>
      <p className="muted" data-testid="assumed-host">
        host: {hostWords}
        {answer.host === null &&
          ". Where an ACL names a host and the answer from it differs, the cell gives that answer too."}
      </p>
      <MoreInfo summary="Notes">
        <ul className="notes">
          {answer.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      </MoreInfo>
      {blocks.length > shown.length && (
        <Alert tone="info">{blocks.length - shown.length} more resources are in the export.</Alert>
      )}
      {shown.map((b) => {
        const title =
          b.resource === "unseen"
            ? `Any other ${b.resourceType} starting with "${b.resourceName}"`
            : `${b.resourceType} ${b.resourceName}`;
        const operations = SUPPORTED_OPERATIONS[b.resourceType];
        return (
          <section key={b.key} aria-label={title} data-resource={b.resourceName} data-origin={b.resource}>
            <h3>
              {b.resource === "unseen" ? (
                title
              ) : (
                <Link
                  href={`/resources?${new URLSearchParams({ type: b.resourceType, name: b.resourceName })}`}
                  className="mono"
                >
                  {title}
                </Link>
              )}
              {b.resource === "acl" && (
                <span className="muted small"> (named in ACLs; Kafka does not list it to you)</span>
              )}
            </h3>
            <DataTable
              label={`Who can do what: ${title}`}
              className={styles.matrix}
              rows={[...b.principals]}
              rowKey={([principal]) => principal}
              rowProps={([principal]) => ({ "data-principal": principal })}
              columns={[
                {
                  key: "principal",
                  header: "Principal",
                  rowHeader: true,
                  cell: ([principal]) => (
                    <>
                      <PrincipalLink principal={principal} />
                      {principal === WILDCARD_PRINCIPAL && (
                        <span className={styles.via}>everyone no ACL here names</span>
                      )}
                    </>
                  ),
                },
                ...decisionColumns(operations, ([principal, cells]: PrincipalRow, op) => {
                  const cell = cells.get(op);
                  if (cell === undefined) return undefined;
                  const resource = { resourceType: b.resourceType, resourceName: b.resourceName };
                  const request = { principal, host: hostWords, operation: cell.operation, ...resource };
                  const title = describeRule(cell, request, answer.assumptions);
                  return { cell, principal, ...resource, linkHost, title };
                }),
              ]}
            />
          </section>
        );
      })}
    </section>
  );
}
