import { utcText } from "@/lib/utc-text";
import { OlderLink } from "@/components/ui/older-link";
import Link from "@/components/link";
import { requireViewer } from "@/lib/auth/current";
import { firstValues, type SearchParams } from "@/lib/search-params";
import { fieldErrorsOf } from "@/lib/schemas/result";
import { timelineQuerySchema, type TimelineEntry } from "@/lib/schemas/timeline";
import { timelineFor } from "@/lib/services/timeline";
import { windowWords } from "@/lib/services/drift-model";
import { ResultPanel } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader, RefusedAddress } from "@/components/ui/page-header";

export const metadata = { title: "Timeline" };
export const dynamic = "force-dynamic";

function When({ entry }: { entry: TimelineEntry }) {
  if (entry.origin === "console") return <time dateTime={entry.windowTo}>{utcText(entry.windowTo)}</time>;
  return <>{windowWords(new Date(entry.windowFrom), new Date(entry.windowTo))}</>;
}

function Who({ entry }: { entry: TimelineEntry }) {
  if (entry.origin === "console")
    return (
      <>
        <span className="mono">{entry.actor}</span> through the console
        {entry.planId && (
          <>
            {" "}
            (<Link href={`/plans/${entry.planId}`}>plan</Link>)
          </>
        )}
      </>
    );
  return <Badge tone="warn">{entry.origin === "observed" ? "outside, after a gap in reading" : "outside"}</Badge>;
}

export default async function TimelinePage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const viewer = await requireViewer();
  const raw = firstValues(await searchParams);
  const parsed = timelineQuerySchema.safeParse(raw);
  if (!parsed.success)
    return <RefusedAddress title="Timeline" testId="timeline-error" problems={fieldErrorsOf(parsed.error.issues)} />;
  const result = await timelineFor(viewer, parsed.data);
  const next = new URLSearchParams(
    Object.entries(raw).filter((e): e is [string, string] => typeof e[1] === "string" && e[0] !== "cursor"),
  );
  return (
    <>
      <PageHeader
        title="Timeline"
        lead={result.ok ? result.data.subject : undefined}
        details={
          <p>
            From the console&apos;s history journal (docs/history.md): when each part appeared and went, made through
            the console (who, which plan) or found outside it by the background read (the window in which it happened).
            Newest first.
          </p>
        }
      />
      <ResultPanel result={result} testId="timeline" />
      {result.ok && (
        <>
          <p className="muted" data-testid="timeline-since">
            {result.data.since === null
              ? "The journal has not begun: nothing is known yet."
              : `The journal began at ${utcText(result.data.since)}: nothing earlier is known.`}{" "}
            {result.data.visibility.join(" ")}
          </p>
          {result.data.entries.length === 0 ? (
            <EmptyState>No change recorded.</EmptyState>
          ) : (
            <DataTable
              label="Timeline"
              rows={result.data.entries}
              rowKey={(e) => e.id}
              rowProps={() => ({ "data-testid": "timeline-entry" })}
              columns={[
                { key: "when", header: "When", cell: (e) => <When entry={e} /> },
                { key: "change", header: "Change", cell: (e) => e.summary },
                { key: "who", header: "By", cell: (e) => <Who entry={e} /> },
              ]}
            />
          )}
          <OlderLink path="/timeline" params={next} cursor={result.data.nextCursor}>
            Older changes
          </OlderLink>
        </>
      )}
    </>
  );
}
