import type { ReactNode } from "react";
import { Alert } from "./alert";

/**
 * The top of a page: the title, one compact line under it, and the longer explanation one
 * click away (a `<details>`, closed by default, so experienced admins see the content first).
 */
export function PageHeader({
  title,
  lead,
  details,
  detailsLabel = "About this page",
  actions,
}: {
  title: ReactNode;
  lead?: ReactNode;
  details?: ReactNode;
  detailsLabel?: string;
  actions?: ReactNode;
}) {
  return (
    <header className="page-header">
      <div className="page-header-top">
        <h1>{title}</h1>
        {actions !== undefined && <div className="page-header-actions">{actions}</div>}
      </div>
      {lead !== undefined && <p className="lead">{lead}</p>}
      {details !== undefined && (
        <details className="page-details">
          <summary>{detailsLabel}</summary>
          <div className="page-details-body">{details}</div>
        </details>
      )}
    </header>
  );
}

/** A section explanation one click away, for the paragraphs under a heading. */
export function MoreInfo({ summary = "How this works", children }: { summary?: string; children: ReactNode }) {
  return (
    <details className="more-info">
      <summary>{summary}</summary>
      <div className="more-info-body">{children}</div>
    </details>
  );
}

/**
 * A page whose address names nothing it can show (a principal or a query that does not parse):
 * its title, what is wrong (`problems`, every field's messages), and optionally a way back.
 */
export function RefusedAddress({
  title,
  testId,
  problems,
  back,
}: {
  title: string;
  testId: string;
  problems: Record<string, string[]>;
  back?: ReactNode;
}) {
  return (
    <>
      <PageHeader title={title} />
      <Alert tone="error" testId={testId}>
        {Object.values(problems).flat().join(" ")}
      </Alert>
      {back}
    </>
  );
}
