import { utcText } from "@/lib/utc-text";
import Link from "@/components/link";
import { requireViewer } from "@/lib/auth/current";
import { firstValues, type PageProps } from "@/lib/search-params";
import { fieldErrorsOf } from "@/lib/schemas/result";
import { principalHref, principalParamSchema } from "@/lib/schemas/effective-permissions";
import { accessChangesQuerySchema, type AccessChangeStepView } from "@/lib/schemas/access-changes";
import { accessChangesFor, defaultPeriodStart } from "@/lib/services/access-changes";
import { windowWords } from "@/lib/services/drift-model";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { Field, FormActions, FormGrid } from "@/components/ui/field";
import { GetForm } from "@/components/ui/get-form";
import { PageHeader, RefusedAddress } from "@/components/ui/page-header";
import { SubmitButton } from "@/components/ui/submit-button";
import { objectTitle } from "@/lib/page-title";

export const dynamic = "force-dynamic";

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export async function generateMetadata({ params }: { params: Promise<{ principal: string }> }) {
  const principal = principalParamSchema.safeParse(decodeSegment((await params).principal));
  return { title: objectTitle("Access history", principal.success ? principal.data : null) };
}

/** An instant as the form shows it: to the second (the next one, never before it), in UTC. */
const formInstant = (ms: number) => new Date(Math.ceil(ms / 1000) * 1000).toISOString().slice(0, 19) + "Z";

/** The principal page as of an instant (its decisions from the history journal). */
function AsOfPage({ principal, at, end }: { principal: string; at: string; end: "start" | "end" }) {
  return (
    <Link href={`${principalHref(principal)}?${new URLSearchParams({ at })}`} data-testid={`history-page-as-of-${end}`}>
      the principal page
    </Link>
  );
}

/** The auditor export of what the principal could do as of an instant (docs/history.md). */
function AsOfExport({ principal, at, format }: { principal: string; at: string; format: "csv" | "json" }) {
  return (
    <a
      href={`/api/v1/effective-permissions?${new URLSearchParams({ principal, at, format })}`}
      download
      aria-label={`Export what ${principal} could do as of ${at} as ${format.toUpperCase()}`}
    >
      {format.toUpperCase()}
    </a>
  );
}

const GAP_WORDS = "outside, after a gap in reading";

function Cause({ step }: { step: AccessChangeStepView }) {
  const c = step.cause;
  if (c.origin === "console")
    return (
      <>
        <Badge tone="info">console</Badge> by <span className="mono">{c.actor}</span> at{" "}
        <time dateTime={c.windowTo}>{utcText(c.windowTo)}</time>
        {c.planId && (
          <>
            {" "}
            (<Link href={`/plans/${c.planId}`}>plan</Link>)
          </>
        )}
      </>
    );
  return (
    <>
      <Badge tone="warn">{c.origin === "observed" ? GAP_WORDS : "outside the console"}</Badge>{" "}
      {windowWords(new Date(c.windowFrom), new Date(c.windowTo))}
    </>
  );
}

export default async function AccessHistoryPage({ params, searchParams }: PageProps<{ principal: string }>) {
  const viewer = await requireViewer();
  const principal = principalParamSchema.safeParse(decodeSegment((await params).principal));
  if (!principal.success)
    return (
      <RefusedAddress
        title="Access history"
        testId="principal-error"
        problems={fieldErrorsOf(principal.error.issues)}
        back={<Link href="/principals">← Principals</Link>}
      />
    );
  const raw = firstValues(await searchParams);
  // The default start: a week ago, or when the journal begins if that is later.
  const given = { from: raw.from ?? formInstant(await defaultPeriodStart(viewer)), to: raw.to ?? "" };
  const parsed = accessChangesQuerySchema.safeParse({ principal: principal.data, ...given });
  const errors = parsed.success ? {} : fieldErrorsOf(parsed.error.issues);
  const answer = parsed.success ? await accessChangesFor(viewer, parsed.data) : null;
  const answerErrors = answer && !answer.ok ? (answer.fieldErrors ?? {}) : {};
  const exportQuery = new URLSearchParams({ principal: principal.data, from: given.from, to: given.to });
  const title = (
    <>
      Access history of <span className="mono">{principal.data}</span>
    </>
  );

  return (
    <>
      <PageHeader
        title={title}
        lead={`Every decision ${principal.data} gained or lost in a period, with the change that caused it.`}
        actions={
          answer?.ok ? (
            <span aria-label="Export">
              Export:{" "}
              <a
                href={`/api/v1/access-changes?${exportQuery}&format=csv`}
                download
                aria-label={`Export what changed for ${principal.data} as CSV`}
              >
                CSV
              </a>{" "}
              <a
                href={`/api/v1/access-changes?${exportQuery}&format=json`}
                download
                aria-label={`Export what changed for ${principal.data} as JSON`}
              >
                JSON
              </a>
            </span>
          ) : undefined
        }
        details={
          <p>
            From the console&apos;s history journal (docs/history.md): the ACLs, super users and
            allow.everyone.if.no.acl.found at the start, then each change in the period, console changes with their
            actor and plan, outside changes with the window in which the background read found them. A decision is one
            of the principal page&apos;s: a resource pattern and an operation, decided by Kafka&apos;s rules.
          </p>
        }
      />
      <p>
        <Link href={principalHref(principal.data)}>← What {principal.data} can do now</Link> ·{" "}
        <Link
          href={`/timeline?${new URLSearchParams({ principal: principal.data })}`}
          data-testid="principal-timeline-link"
        >
          Timeline of its ACLs, credentials and quotas
        </Link>
      </p>
      <GetForm action={`${principalHref(principal.data)}/history`} label="The period" className="card">
        <FormGrid>
          <Field
            id="history-from"
            label="From"
            hint="ISO 8601, UTC unless a zone is given"
            errors={errors.from ?? answerErrors.from}
          >
            <input name="from" defaultValue={given.from} placeholder="2026-11-01T00:00Z" />
          </Field>
          <Field id="history-to" label="To" hint="Empty: now" errors={errors.to}>
            <input name="to" defaultValue={given.to} placeholder="now" />
          </Field>
          <FormActions>
            <SubmitButton pendingLabel="Reading the journal…">Show changes</SubmitButton>
          </FormActions>
        </FormGrid>
      </GetForm>
      {answer && !answer.ok && !answerErrors.from && (
        <Alert tone="error" testId="history-error">
          {answer.message}
        </Alert>
      )}
      {answer?.ok && (
        <>
          <p data-testid="history-statement">{answer.data.statement}</p>
          <p data-testid="history-as-of">
            Everything {principal.data} could do, as of the start ({answer.data.from}):{" "}
            <AsOfPage principal={principal.data} at={answer.data.from} end="start" />,{" "}
            <AsOfExport principal={principal.data} at={answer.data.from} format="csv" />{" "}
            <AsOfExport principal={principal.data} at={answer.data.from} format="json" />; as of the end (
            {answer.data.to}): <AsOfPage principal={principal.data} at={answer.data.to} end="end" />,{" "}
            <AsOfExport principal={principal.data} at={answer.data.to} format="csv" />{" "}
            <AsOfExport principal={principal.data} at={answer.data.to} format="json" />
          </p>
          {answer.data.notes.map((n) => (
            <Alert key={n} tone="warn" small>
              {n}
            </Alert>
          ))}
          {answer.data.steps.length === 0 ? (
            <EmptyState>No decision of {principal.data} changed in this period.</EmptyState>
          ) : (
            answer.data.steps.map((s, i) => (
              <section key={i} className="card" data-testid="history-step">
                <h2>
                  <Cause step={s} />
                </h2>
                <ul>
                  {s.cause.changes.map((c) => (
                    <li key={c}>{c}</li>
                  ))}
                </ul>
                {s.superUser && (
                  <Alert tone={s.superUser === "gained" ? "warn" : "info"} small>
                    {s.superUser === "gained" ? "Became a super user" : "Stopped being a super user"}: every operation
                    on every resource is {s.superUser === "gained" ? "allowed" : "decided by ACLs again"}.
                  </Alert>
                )}
                {s.decisions.length > 0 && (
                  <DataTable
                    label={`Decisions changed ${i + 1}`}
                    rows={s.decisions}
                    rowKey={(d) => `${d.resourceType} ${d.patternType} ${d.resourceName} ${d.operation}`}
                    rowProps={() => ({ "data-testid": "history-decision" })}
                    columns={[
                      {
                        key: "change",
                        header: "Change",
                        cell: (d) => <Badge tone={d.change === "gained" ? "ok" : "bad"}>{d.change}</Badge>,
                      },
                      { key: "operation", header: "Operation", cell: (d) => d.operation },
                      {
                        key: "resource",
                        header: "Resource",
                        cell: (d) => (
                          <span className="mono">
                            {d.resourceType} {d.patternType === "LITERAL" ? "" : `${d.patternType} `}
                            {d.resourceName}
                          </span>
                        ),
                      },
                      { key: "before", header: "Before", cell: (d) => `${d.before.decision}: ${d.beforeVia}` },
                      { key: "after", header: "After", cell: (d) => `${d.after.decision}: ${d.afterVia}` },
                    ]}
                  />
                )}
              </section>
            ))
          )}
        </>
      )}
    </>
  );
}
