import Link from "@/components/link";
import { requireViewer } from "@/lib/auth/current";
import { firstValues, type PageProps } from "@/lib/search-params";
import { fieldErrorsOf } from "@/lib/schemas/result";
import { WILDCARD_HOST, type ResourceType } from "@/lib/policy";
import {
  principalHref,
  principalParamSchema,
  principalViewQuerySchema,
  type PrincipalPermissions,
  type PrincipalView,
} from "@/lib/schemas/effective-permissions";
import { UNNAMED_HOST_WORDS } from "@/lib/schemas/access-check";
import { describeRule } from "@/lib/services/access-check-explain";
import { unnamedHost } from "@/lib/services/effective-permissions";
import { principalView } from "@/lib/services/effective-permissions-read";
import { AclBindingsTable } from "@/components/acls/acl-row";
import { Alert } from "@/components/ui/alert";
import { Badge, decisionTone } from "@/components/ui/badge";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { AsOfField } from "@/components/ui/as-of-field";
import { Field, FormActions, FormGrid } from "@/components/ui/field";
import { GetForm } from "@/components/ui/get-form";
import { MoreInfo, PageHeader, RefusedAddress } from "@/components/ui/page-header";
import { SubmitButton } from "@/components/ui/submit-button";
import { decisionColumns, PrincipalLink, principalStyles as styles } from "@/components/principals/decision-cell";
import { objectTitle } from "@/lib/page-title";
import { grantsConcerning } from "@/lib/services/grants";
import { PrincipalGrants } from "./principal-grants";

export async function generateMetadata({ params }: { params: Promise<{ principal: string }> }) {
  const principal = principalParamSchema.safeParse(decodeSegment((await params).principal));
  return { title: objectTitle("Principal", principal.success ? principal.data : null) };
}
export const dynamic = "force-dynamic";

/** Rows a section shows at most; the export has them all. */
const SHOWN_PER_SECTION = 300;

const SECTION_TITLE: Record<ResourceType, string> = {
  TOPIC: "Topics",
  GROUP: "Consumer groups",
  TRANSACTIONAL_ID: "Transactional ids",
  CLUSTER: "Cluster",
  USER: "Users (delegation tokens for them)",
  DELEGATION_TOKEN: "Delegation tokens",
};

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export default async function PrincipalPage({ params, searchParams }: PageProps<{ principal: string }>) {
  const viewer = await requireViewer();
  const segment = decodeSegment((await params).principal);
  const principal = principalParamSchema.safeParse(segment);
  const raw = firstValues(await searchParams);
  if (!principal.success) {
    return (
      <RefusedAddress
        title="Principal"
        testId="principal-error"
        problems={fieldErrorsOf(principal.error.issues)}
        back={<Link href="/principals">← Principals</Link>}
      />
    );
  }
  const query = principalViewQuerySchema.safeParse(raw);
  const queryErrors = query.success ? {} : fieldErrorsOf(query.error.issues);
  const host = query.success ? query.data.host : null;
  const at = query.success ? query.data.at : null;
  const [view, grants] = await Promise.all([
    principalView(viewer, principal.data, { host, at }),
    grantsConcerning(viewer, principal.data),
  ]);
  // A refusal of the instant (before the journal began, not allowed) belongs on its field.
  const atErrors = queryErrors.at ?? (!view.ok ? view.fieldErrors?.at : undefined);
  const asOf = at !== null ? new Date(at).toISOString() : null;
  const exportQuery = new URLSearchParams({
    principal: principal.data,
    ...(host !== null ? { host } : {}),
    ...(asOf !== null ? { at: asOf } : {}),
  });

  return (
    <>
      <PageHeader
        title={
          <>
            Principal{" "}
            <span className={`mono ${styles.asIs}`} data-testid="principal-name">
              {principal.data}
            </span>
          </>
        }
        lead={
          <>
            What {principal.data} can do on every resource you may see, the quotas Kafka applies to it and its tokens.
          </>
        }
        actions={
          <span className={styles.exports} aria-label="Export">
            <Link href={`${principalHref(principal.data)}/history`} data-testid="principal-history-link">
              Access history
            </Link>
            Export:
            <a
              href={`/api/v1/effective-permissions?${exportQuery}&format=csv`}
              download
              aria-label={`Export what ${principal.data} can do as CSV`}
            >
              CSV
            </a>
            <a
              href={`/api/v1/effective-permissions?${exportQuery}&format=json`}
              download
              aria-label={`Export what ${principal.data} can do as JSON`}
            >
              JSON
            </a>
          </span>
        }
        details={
          <>
            <p>
              Every decision is Kafka&apos;s (StandardAuthorizer): super users first, then a matching DENY wins over
              every ALLOW, then a matching ALLOW (READ, WRITE, DELETE and ALTER also allow DESCRIBE; ALTER_CONFIGS
              allows DESCRIBE_CONFIGS; ALL allows everything), then DENIED when the resource has any ACL, else{" "}
              <code>allow.everyone.if.no.acl.found</code>. ACLs for <code>User:*</code> apply to every principal;
              PREFIXED patterns and LITERAL <code>*</code> apply to every name they cover, also names not created yet.
            </p>
            <p>
              The resources are those Kafka lists to you and those named in ACLs. Resources where nothing is allowed and
              no ACL decides are counted, not listed (the export with <code>decisions=all</code> lists them). Each
              decision links to the Access check with the full explanation.
            </p>
          </>
        }
      />
      <PrincipalGrants grants={grants} viewer={viewer.principal} />
      {view.ok ? (
        <ViewBody view={view.data} host={host} errors={{ host: queryErrors.host }} raw={raw} asOf={asOf} />
      ) : atErrors ? (
        <ViewForm principal={principal.data} host={host} errors={{ host: queryErrors.host, at: atErrors }} raw={raw} />
      ) : (
        <Alert tone="error">{view.message}</Alert>
      )}
    </>
  );
}

/** The client host and the instant the decisions are for. */
function ViewForm({
  principal,
  host,
  errors,
  raw,
}: {
  principal: string;
  host: string | null;
  errors: { host?: string[]; at?: string[] };
  raw: Record<string, string | undefined>;
}) {
  return (
    <GetForm action={principalHref(principal)} label="Decide from a client host, as of an instant" className="card">
      <FormGrid>
        <Field id="principal-host" label="Client host" hint={`Empty: ${UNNAMED_HOST_WORDS}`} errors={errors.host}>
          <input name="host" defaultValue={raw.host ?? host ?? ""} placeholder={UNNAMED_HOST_WORDS} />
        </Field>
        <AsOfField
          id="principal-at"
          hint={
            "Empty: now. An instant (UTC unless a zone is given): the ACLs and settings the history journal " +
            "holds for then."
          }
          errors={errors.at}
          value={raw.at}
        />
        <FormActions>
          <SubmitButton pendingLabel="Deciding…">Decide</SubmitButton>
        </FormActions>
      </FormGrid>
    </GetForm>
  );
}

function ViewBody({
  view,
  host,
  errors,
  raw,
  asOf,
}: {
  view: PrincipalView;
  host: string | null;
  errors: { host?: string[] };
  raw: Record<string, string | undefined>;
  asOf: string | null;
}) {
  return (
    <>
      <p className={styles.snapshot} data-testid="acl-snapshot">
        {view.aclSnapshot !== null ? (
          <>
            {asOf !== null ? "From the history journal: ACLs" : "ACLs"} as of{" "}
            <time dateTime={view.aclSnapshot.takenAt}>{view.aclSnapshot.takenAt}</time> ({view.aclSnapshot.size} ACLs).
            Assuming <code>super.users = {view.assumptions.superUsers.join(";") || "(none)"}</code> and{" "}
            <code>allow.everyone.if.no.acl.found = {String(view.assumptions.allowEveryoneIfNoAclFound)}</code> (
            {view.assumptions.source}).
          </>
        ) : (
          "The ACLs could not be read."
        )}
      </p>
      <ViewForm principal={view.principal} host={host} errors={errors} raw={raw} />
      {view.notes.map((n) => (
        <Alert key={n} tone="warn" small>
          {n}
        </Alert>
      ))}
      {"error" in view.permissions ? (
        <>
          <h2>Permissions</h2>
          <Alert tone="error" testId="permissions-unavailable">
            {view.permissions.error}
          </Alert>
          <p className="muted">The ACLs are read as you, which Kafka allows only with DESCRIBE on CLUSTER.</p>
        </>
      ) : (
        <Permissions
          permissions={view.permissions}
          host={host}
          allowEveryone={view.assumptions.allowEveryoneIfNoAclFound}
          asOf={asOf}
        />
      )}
      <Quotas view={view} />
      <Tokens view={view} />
    </>
  );
}

function Permissions({
  permissions,
  host,
  allowEveryone,
  asOf,
}: {
  permissions: PrincipalPermissions;
  host: string | null;
  allowEveryone: boolean;
  /** The decisions are as of this instant: their links ask the Access check as of it too. */
  asOf: string | null;
}) {
  const p = permissions.principal;
  const named = [...permissions.acls.own, ...permissions.acls.wildcard]
    .map((a) => a.host)
    .filter((h) => h !== WILDCARD_HOST);
  const linkHost = host ?? unnamedHost(named);
  const hostWords = host ?? UNNAMED_HOST_WORDS;
  return (
    <>
      <h2>Permissions</h2>
      <p className="muted" data-testid="assumed-host">
        host: {hostWords}
        {host === null && ". Where an ACL names a host and the answer from it differs, the cell gives that answer too."}
      </p>
      {permissions.superUser && (
        <Alert tone="info" testId="super-user">
          {p} is a super user: Kafka allows it every operation on every resource without looking at ACLs.
        </Alert>
      )}
      {permissions.sections.map((s) => {
        const shown = s.resources.slice(0, SHOWN_PER_SECTION);
        const hidden = s.total - shown.length;
        return (
          <section key={s.resourceType} aria-label={SECTION_TITLE[s.resourceType]} data-section={s.resourceType}>
            <h3>
              {SECTION_TITLE[s.resourceType]}{" "}
              <span className="muted small">
                ({s.resources.length} of {s.total} with something allowed or an ACL deciding)
              </span>
            </h3>
            {shown.length === 0 ? (
              <EmptyState>Nothing allowed and no ACL deciding on any of the {s.total} known.</EmptyState>
            ) : (
              <DataTable
                label={`${SECTION_TITLE[s.resourceType]}: what ${p} can do`}
                className={styles.matrix}
                rows={shown}
                rowKey={(r) => r.resourceName}
                rowProps={(r) => ({ "data-resource": r.resourceName })}
                columns={[
                  {
                    key: "resource",
                    header: "Resource",
                    rowHeader: true,
                    className: `mono ${styles.asIs}`,
                    cell: (r) => (
                      <>
                        <Link
                          href={`/resources?${new URLSearchParams({ type: s.resourceType, name: r.resourceName })}`}
                        >
                          {r.resourceName}
                        </Link>
                        {r.origin === "acl" && <span className={styles.via}>named in ACLs; not listed by Kafka</span>}
                      </>
                    ),
                  },
                  ...decisionColumns(s.operations, (r: (typeof shown)[number], operation) => {
                    const c = r.cells.find((cell) => cell.operation === operation);
                    if (c === undefined) return undefined;
                    const resource = { resourceType: s.resourceType, resourceName: r.resourceName };
                    const request = { principal: p, host: hostWords, operation: c.operation, ...resource };
                    const title = describeRule(c, request, { allowEveryoneIfNoAclFound: allowEveryone });
                    return { cell: c, principal: p, ...resource, linkHost, title, at: asOf ?? undefined };
                  }),
                ]}
              />
            )}
            {hidden > 0 && (
              <p className="muted small" data-testid="hidden-count">
                {hidden} more {s.resourceType} resource{hidden === 1 ? "" : "s"} not shown
                {s.resources.length > shown.length
                  ? ` (${s.resources.length - shown.length} of them in the export)`
                  : ""}
                : every operation DENIED for want of an ACL.
              </p>
            )}
          </section>
        );
      })}

      <h2>Grants that cover names not yet seen</h2>
      <MoreInfo summary="PREFIXED and * patterns">
        <p>
          A PREFIXED pattern or LITERAL <code>*</code> applies to every name it covers, also to resources created later.
          The decision is for a name no narrower ACL names; the DENYs listed take the operation away from some of the
          names.
        </p>
      </MoreInfo>
      <DataTable
        label={`Pattern grants of ${p}`}
        rows={permissions.patterns}
        rowKey={(r) => `${r.resourceType}|${r.patternType}|${r.resourceName}`}
        empty={<EmptyState>No PREFIXED or * pattern names {p} or User:*.</EmptyState>}
        columns={[
          {
            key: "covers",
            header: "Covers",
            rowHeader: true,
            cell: (r) => <span className={styles.asIs}>{r.covers}</span>,
          },
          {
            key: "ops",
            header: "Operations",
            cell: (r) => (
              <ul className="plain">
                {r.cells.map((c) => (
                  <li key={c.operation}>
                    <span className="mono">{c.operation}</span>{" "}
                    <Badge tone={decisionTone(c.decision)}>{c.decision}</Badge>{" "}
                    <span className="muted small">{c.via.join(" · ")}</span>
                    {c.exceptions.length > 0 && (
                      <span className="small"> except {c.exceptions.map((e) => e.resourceName).join(", ")} (DENY)</span>
                    )}
                  </li>
                ))}
              </ul>
            ),
          },
        ]}
      />

      <h2>ACLs that name {p}</h2>
      <AclTable label={`ACLs of ${p}`} acls={permissions.acls.own} empty={`No ACL names ${p} itself.`} />
      {permissions.principal !== "User:*" && (
        <>
          <h3>ACLs for User:* (they apply to {p} too)</h3>
          <AclTable label="ACLs for User:*" acls={permissions.acls.wildcard} empty="No ACL names User:*." />
        </>
      )}
    </>
  );
}

function AclTable({ label, acls, empty }: { label: string; acls: PrincipalPermissions["acls"]["own"]; empty: string }) {
  return acls.length === 0 ? <EmptyState>{empty}</EmptyState> : <AclBindingsTable label={label} bindings={acls} />;
}

function Quotas({ view }: { view: PrincipalView }) {
  return (
    <section aria-label="Quotas">
      <h2>Quotas Kafka applies</h2>
      {"error" in view.quotas ? (
        <Alert tone="warn" testId="quotas-unavailable">
          {view.quotas.error}
        </Alert>
      ) : (
        <>
          <p className="muted small">
            For user <code>{view.quotas.user}</code>{" "}
            <span>with each client id a quota names, and with any other client id.</span>{" "}
            <Link href="/quotas">Quotas</Link>
          </p>
          <DataTable
            label={`Quotas of ${view.principal}`}
            rows={view.quotas.clients.flatMap((c) => c.applied.keys.map((k) => ({ clientId: c.clientId, key: k })))}
            rowKey={(r) => `${r.clientId ?? "\u0000"}|${r.key.key}`}
            columns={[
              {
                key: "client",
                header: "Client id",
                rowHeader: true,
                cell: (r) => (r.clientId === null ? <em>any other</em> : <span className="mono">{r.clientId}</span>),
              },
              { key: "key", header: "Quota", className: "mono", cell: (r) => r.key.key },
              { key: "value", header: "Applied", cell: (r) => r.key.display },
              {
                key: "level",
                header: "From",
                cell: (r) =>
                  r.key.entityLabel === null ? (
                    <span className="muted">{r.key.levelMeaning}</span>
                  ) : (
                    <span className="mono">{r.key.entityLabel}</span>
                  ),
              },
            ]}
          />
        </>
      )}
    </section>
  );
}

function Tokens({ view }: { view: PrincipalView }) {
  return (
    <section aria-label="Tokens" id="tokens">
      <h2>Delegation tokens</h2>
      {"error" in view.tokens ? (
        <Alert tone="warn" testId="tokens-unavailable">
          {view.tokens.error}
        </Alert>
      ) : (
        <DataTable
          label={`Tokens of ${view.principal}`}
          rows={view.tokens.tokens}
          rowKey={(t) => t.tokenId}
          empty={<EmptyState>No token of {view.principal} that you may describe.</EmptyState>}
          columns={[
            { key: "id", header: "Token id", rowHeader: true, className: "mono", cell: (t) => t.tokenId },
            { key: "requester", header: "Requester", cell: (t) => <PrincipalLink principal={t.requester} /> },
            {
              key: "renewers",
              header: "Renewers",
              cell: (t) => t.renewers.map((r) => <PrincipalLink key={r} principal={r} />),
            },
            {
              key: "status",
              header: "Status",
              cell: (t) => <Badge tone={t.status === "active" ? "ok" : "bad"}>{t.status}</Badge>,
            },
            {
              key: "expiry",
              header: "Expires",
              cell: (t) => (
                <time dateTime={new Date(t.expiryTimestamp).toISOString()}>
                  {new Date(t.expiryTimestamp).toISOString()}
                </time>
              ),
            },
          ]}
        />
      )}
    </section>
  );
}
