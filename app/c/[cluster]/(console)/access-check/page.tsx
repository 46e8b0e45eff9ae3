import { requireViewer } from "@/lib/auth/current";
import { fieldErrorsOf } from "@/lib/schemas/result";
import { CLUSTER_RESOURCE_NAME, RESOURCE_TYPES, SUPPORTED_OPERATIONS, type ResourceType } from "@/lib/policy";
import {
  UNNAMED_HOST_WORDS,
  accessCheckQueryFieldsSchema,
  accessCheckQuerySchema,
  type AccessCheckAssumptions,
  type AccessCheckResult,
} from "@/lib/schemas/access-check";
import { explainAccess } from "@/lib/services/access-check";
import { aclSentence } from "@/lib/services/access-check-explain";
import { clusterOf } from "@/lib/clusters";
import { aclSuggestions } from "@/lib/services/acl-suggestions";
import { AsOfField } from "@/components/ui/as-of-field";
import { Field, FormActions, FormGrid } from "@/components/ui/field";
import { Select } from "@/components/ui/select";
import { OperationSelect } from "@/components/ui/operation-select";
import { Combobox } from "@/components/ui/combobox";
import { ResourceNameField } from "@/components/ui/resource-name-field";
import { Alert, ResultPanel } from "@/components/ui/alert";
import { Badge, decisionTone } from "@/components/ui/badge";
import { DataTable, type Column } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { aclColumns } from "@/components/acls/acl-row";
import { PageHeader } from "@/components/ui/page-header";
import { GetForm } from "@/components/ui/get-form";
import { SubmitButton } from "@/components/ui/submit-button";
import { accessCheckLink, DecisionLink } from "@/components/principals/decision-cell";
import { objectTitle, titleFromSearch } from "@/lib/page-title";
import { firstValues, type SearchParams } from "@/lib/search-params";

export const generateMetadata = titleFromSearch((q) =>
  objectTitle("Access check", q.principal, q.operation, q.resourceName),
);

const FIELDS = Object.keys(accessCheckQueryFieldsSchema.shape) as (keyof typeof accessCheckQueryFieldsSchema.shape)[];

type ApplicableAcl = AccessCheckResult["acls"][number];

/** The binding columns but the resource type (the question names it), then what each ACL does here. */
const APPLICABLE_ACL_COLUMNS: Column<ApplicableAcl>[] = [
  ...aclColumns((a: ApplicableAcl) => a).filter((c) => c.key !== "resourceType"),
  {
    key: "match",
    header: "For this request",
    cell: (a) => (
      <>
        <strong>{MATCH_LABEL[a.match]}</strong>
        <div className="muted">{a.detail}</div>
      </>
    ),
  },
];

const RESOURCE_TYPE_COLUMNS: Column<ResourceType>[] = [
  { key: "type", header: "Resource type", rowHeader: true, className: "mono", cell: (t) => t },
  { key: "name", header: "Name", cell: (t) => RESOURCE_NAME_HINT[t] },
  { key: "operations", header: "Operations", className: "mono", cell: (t) => SUPPORTED_OPERATIONS[t].join(", ") },
];

const MATCH_LABEL: Record<AccessCheckResult["acls"][number]["match"], string> = {
  decides: "decides",
  matches: "matches",
  otherPrincipal: "other principal",
  otherHost: "other host",
  otherOperation: "other operation",
  skipped: "skipped by Kafka",
};

const RESOURCE_NAME_HINT: Record<ResourceType, string> = {
  TOPIC: "the topic name, e.g. orders",
  GROUP: "the consumer group id, e.g. orders-service",
  CLUSTER: `always ${CLUSTER_RESOURCE_NAME}`,
  TRANSACTIONAL_ID: "the producer's transactional.id, e.g. orders-tx-1",
  DELEGATION_TOKEN: "the token id",
  USER: "the token owner's principal, e.g. User:svc-orders",
};

export default async function AccessCheckPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const viewer = await requireViewer();
  const raw = firstValues(await searchParams);
  const submitted = FIELDS.some((f) => raw[f] !== undefined);
  // The form's one "client" box: a principal, or a certificate DN / Kerberos principal that the configured rules map
  // first.
  const who = raw.who === "certificateDn" || raw.who === "kerberosPrincipal" ? raw.who : "principal";
  const query = who === "principal" ? raw : { ...raw, principal: "", [who]: raw.principal ?? "" };
  const parsed = submitted ? accessCheckQuerySchema.safeParse(query) : null;
  const errors = parsed && !parsed.success ? fieldErrorsOf(parsed.error.issues) : {};
  if (!errors.principal && (errors.certificateDn ?? errors.kerberosPrincipal))
    errors.principal = errors.certificateDn ?? errors.kerberosPrincipal ?? [];
  const outcome = parsed?.success ? await explainAccess(viewer, parsed.data) : null;
  if (outcome && !outcome.ok && outcome.fieldErrors) {
    const mapped = outcome.fieldErrors.certificateDn ?? outcome.fieldErrors.kerberosPrincipal;
    if (mapped) errors.principal = mapped;
  }
  const assumptions = outcome?.ok ? outcome.data.assumptions : clusterOf(viewer.credential).authorizer;

  const value = (field: (typeof FIELDS)[number], fallback: string) => (submitted ? (raw[field] ?? "") : fallback);
  const hostValue = raw.host ?? "";
  const suggestions = await aclSuggestions(viewer);

  return (
    <>
      <PageHeader
        title="Access check"
        lead="Would Kafka let a principal do an operation on a resource from a host, and which rule decides?"
        details={
          <p>
            The answer comes from the ACLs Kafka holds for the resource, read as you, decided the way Kafka&apos;s
            StandardAuthorizer decides. The operation list shows the operations Kafka checks on the chosen resource
            type; the principal and resource name fields suggest what the cluster&apos;s ACLs already use.
          </p>
        }
      />

      <GetForm action="/access-check" label="Access check" className="card">
        <FormGrid>
          <Field id="access-who" label="Client given as">
            <Select
              name="who"
              defaultValue={who}
              options={[
                { value: "principal", label: "a principal" },
                { value: "certificateDn", label: "a client presenting certificate DN" },
                { value: "kerberosPrincipal", label: "a Kerberos principal" },
              ]}
            />
          </Field>
          <Field
            id="access-principal"
            label="Principal"
            hint="Type:name, e.g. User:alice; or the certificate DN / Kerberos name"
            errors={errors.principal}
          >
            <Combobox
              name="principal"
              defaultValue={value("principal", viewer.principal)}
              placeholder="User:alice"
              suggestions={suggestions.principals}
            />
          </Field>
          <Field id="access-resourceType" label="Resource type" errors={errors.resourceType}>
            <Select name="resourceType" options={RESOURCE_TYPES} defaultValue={value("resourceType", "TOPIC")} />
          </Field>
          <Field
            id="access-operation"
            label="Operation"
            hint="the operations Kafka checks on the resource type"
            errors={errors.operation}
          >
            <OperationSelect name="operation" withAll={false} defaultValue={value("operation", "READ")} />
          </Field>
          <ResourceNameField
            id="access-resourceName"
            hint={
              // From a PREFIXED ACL's "Check access": the prefix is checked as a name (it covers itself); say that any
              // name under it may be checked.
              raw.prefix && raw.resourceName === raw.prefix
                ? `Checked: the prefix ${raw.prefix} itself, a name its PREFIXED ACL covers. The ACL covers ` +
                  `every name that starts with it: type one to check that name.`
                : `CLUSTER: ${CLUSTER_RESOURCE_NAME}`
            }
            errors={errors.resourceName}
            defaultValue={value("resourceName", "")}
            placeholder="orders"
            suggestions={suggestions}
          />
          <Field
            id="access-host"
            label="Host"
            hint={
              <>
                empty: {UNNAMED_HOST_WORDS}, as on the principal and resource pages{" "}
                <span>
                  (only ACLs with host <code>*</code> count)
                </span>
                . Or the client&apos;s IP address, matched as an exact string (no host names, no ranges)
              </>
            }
            errors={errors.host}
          >
            <input name="host" defaultValue={hostValue} placeholder={UNNAMED_HOST_WORDS} />
          </Field>
          <AsOfField
            id="access-at"
            hint={
              <>
                empty: now, from Kafka. Or an instant (2026-11-03T14:00:00Z; no zone is UTC): the answer from the ACLs
                and settings the console&apos;s history journal holds for then
              </>
            }
            errors={errors.at}
            value={raw.at}
          />
          <FormActions>
            <SubmitButton pendingLabel="Checking…">Check</SubmitButton>
          </FormActions>
        </FormGrid>
      </GetForm>

      <Assumptions assumptions={assumptions} />

      {parsed && !parsed.success && (
        <ResultPanel
          result={{ ok: false, code: "VALIDATION", message: "Check the highlighted fields.", fieldErrors: errors }}
          shownFields={FIELDS}
        />
      )}
      {outcome && !outcome.ok && (
        <>
          <ResultPanel
            result={outcome}
            testId="access"
            shownFields={[...FIELDS, "certificateDn", "kerberosPrincipal"]}
          />
          {outcome.code === "DENIED" && (
            <p className="muted">
              The access check reads the ACLs that apply to the resource as you ({viewer.principal}), which Kafka allows
              only with DESCRIBE on CLUSTER {CLUSTER_RESOURCE_NAME}. Ask for that permission, or ask someone who has it
              to run the check.
            </p>
          )}
        </>
      )}
      {outcome?.ok && <Answer result={outcome.data} />}

      <details className="ops-reference">
        <summary>Resource types: names and operations</summary>
        <DataTable
          label="Resource types"
          scroll={false}
          rows={RESOURCE_TYPES}
          rowKey={(t) => t}
          columns={RESOURCE_TYPE_COLUMNS}
        />
      </details>
    </>
  );
}

function Assumptions({ assumptions }: { assumptions: AccessCheckAssumptions }) {
  const su = assumptions.superUsers.length > 0 ? assumptions.superUsers.join(";") : "(none)";
  return (
    <>
      <p className="muted assumptions" data-testid="assumptions">
        Assuming <code>super.users = {su}</code> and{" "}
        <code>allow.everyone.if.no.acl.found = {String(assumptions.allowEveryoneIfNoAclFound)}</code> (
        {assumptions.source}). These are broker settings the console cannot read;{" "}
        <span>
          set <code>KAFKA_SUPER_USERS</code> and <code>KAFKA_ALLOW_EVERYONE_IF_NO_ACL_FOUND</code> to match your
          brokers.
        </span>
      </p>
      {assumptions.warnings.map((w) => (
        <Alert key={w} tone="warn">
          {w}
        </Alert>
      ))}
    </>
  );
}

function Answer({ result }: { result: AccessCheckResult }) {
  const r = result.request;
  const hostLink = (host: string) => accessCheckLink({ ...r, host });
  return (
    <>
      {result.asOf && (
        <Alert tone={result.asOf.vouch === "covered" ? "info" : "warn"} testId="as-of">
          {result.asOf.statement}
          {result.asOf.uncertain.length > 0 && (
            <>
              {" "}
              Changed outside the console in a window containing that instant, so not known to have held then (counted
              as before the window): {result.asOf.uncertain.map((acl) => aclSentence(acl)).join("; ")}.
            </>
          )}
        </Alert>
      )}
      <section className="card verdict" aria-label="Decision">
        <div className="row">
          <Badge tone={decisionTone(result.decision)} className="big" data-testid="decision">
            {result.decision}
          </Badge>
          <span className="mono">
            {r.principal} {r.operation} on {r.resourceType} {r.resourceName} from{" "}
            {result.hosts.assumed === "unnamed" ? UNNAMED_HOST_WORDS : r.host}
          </span>
        </div>
        <p className="muted" data-testid="assumed-host">
          {result.hosts.statement}
          {result.hosts.assumed === "unnamed" && (
            <> (asked as {r.host}, an address no ACL here names; type a host to ask from it)</>
          )}
        </p>
        {result.hosts.differing.length > 0 && (
          <ul className="plain" aria-label="Other answers from hosts the ACLs name" data-testid="differing-hosts">
            {result.hosts.differing.map((o) => (
              <li key={o.host} data-host={o.host}>
                from <span className="mono">{o.host}</span>:{" "}
                <DecisionLink decision={o.decision} href={hostLink(o.host)} title={o.reason} />{" "}
                <span className="muted small">{o.via.join(" · ")}</span>
              </li>
            ))}
          </ul>
        )}
        {result.mapping && (
          <p className="mapping" data-testid="mapping">
            <strong>Mapped first: </strong>
            {result.mapping.sentence}
          </p>
        )}
        <p className="reason" data-testid="reason">
          <strong>Why: </strong>
          {result.reason}
        </p>
      </section>

      <h2>
        ACLs that apply to {r.resourceType} <span className="mono">{r.resourceName}</span>
      </h2>
      <p className="muted acl-scope">
        The literal name, LITERAL <code>*</code> and every PREFIXED pattern the name starts with, for every principal.
      </p>
      {result.acls.length === 0 ? (
        <EmptyState>No ACL applies to this resource.</EmptyState>
      ) : (
        <DataTable
          label="Applicable ACLs"
          scroll={false}
          rows={result.acls}
          rowKey={(a) => [a.permissionType, a.principal, a.operation, a.patternType, a.resourceName, a.host].join("|")}
          rowProps={(a) => ({
            className: `acl-${a.match}`,
            "data-match": a.match,
            "aria-current": a.match === "decides" ? "true" : undefined,
          })}
          columns={APPLICABLE_ACL_COLUMNS}
        />
      )}

      {result.notes.length > 0 && (
        <>
          <h2>What follows</h2>
          <ul className="notes" aria-label="Notes">
            {result.notes.map((n) => (
              <li key={n}>{n}</li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}
