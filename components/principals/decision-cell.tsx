import Link from "@/components/link";
import type { ReactNode } from "react";
import type { PermissionCell } from "@/lib/schemas/effective-permissions";
import { Badge, decisionTone } from "@/components/ui/badge";
import type { CellProps, Column } from "@/components/ui/data-table";
import { principalHref } from "@/lib/schemas/effective-permissions";
import styles from "./principals.module.css";

/**
 * Pieces the principal view, the auditor view and the resources matrix share: a principal
 * as a link to its page (its case kept), one decision as a badge that opens the Access
 * check for exactly that question, with the short "why" under it.
 */

/** A principal, as written (never upper-cased), linking to what it can do. */
export function PrincipalLink({ principal, children }: { principal: string; children?: ReactNode }) {
  return (
    <Link href={principalHref(principal)} className={`mono ${styles.asIs}`}>
      {children ?? principal}
    </Link>
  );
}

/** The Access check, filled in with one question. */
export function accessCheckLink(q: {
  principal: string;
  operation: string;
  resourceType: string;
  resourceName: string;
  host: string;
  /** As of this instant (the history journal's answer), when given. */
  at?: string;
}): string {
  const { principal, operation, resourceType, resourceName, host, at } = q;
  const query = new URLSearchParams({ principal, operation, resourceType, resourceName, host });
  if (at !== undefined) query.set("at", at);
  return `/access-check?${query}`;
}

/** The question one matrix cell answers, and the rule that decides it (`title`). */
export interface DecisionQuestion {
  cell: PermissionCell;
  principal: string;
  resourceType: string;
  resourceName: string;
  linkHost: string;
  title: string;
  /** The decision is as of this instant (ISO 8601). */
  at?: string;
}

/** A decision as a badge linking to the Access check that explains it. */
export function DecisionLink(props: { decision: string; href: string; title?: string; label?: string }) {
  const { decision, href, title, label } = props;
  return (
    <Link href={href} className="badge-link" title={title} aria-label={label}>
      <Badge tone={decisionTone(decision)}>{decision}</Badge>
    </Link>
  );
}

/**
 * One cell: the decision for a host no ACL names (the link uses `linkHost`, an address no
 * ACL names, so the Access check answers the same question), then each host an ACL names
 * where the answer differs.
 */
export function Decision({ cell, principal, resourceType, resourceName, linkHost, title, at }: DecisionQuestion) {
  const q = { principal, operation: cell.operation, resourceType, resourceName, at };
  return (
    <>
      <DecisionLink
        decision={cell.decision}
        href={accessCheckLink({ ...q, host: linkHost })}
        title={title}
        label={`${principal} ${cell.operation} on ${resourceName}: ${cell.decision}. ${title}`}
      />
      {cell.via.length > 0 && <span className={styles.via}>{cell.via.join(" · ")}</span>}
      {cell.otherHosts.map((o) => (
        <span key={o.host} className={styles.via} data-host={o.host}>
          from {o.host}: <DecisionLink decision={o.decision} href={accessCheckLink({ ...q, host: o.host })} />
        </span>
      ))}
    </>
  );
}

/**
 * The operation columns of a decision matrix over rows `T`: the cell of `operation` answers
 * `question(row, operation)` (none: an empty cell).
 */
export function decisionColumns<T>(
  operations: readonly string[],
  question: (row: T, operation: string) => DecisionQuestion | undefined,
): Column<T>[] {
  return operations.map((operation) => ({
    key: operation,
    header: operation,
    headerProps: { className: "mono" },
    cellProps: (row: T): CellProps => {
      const q = question(row, operation);
      return q ? { "data-operation": q.cell.operation, "data-decision": q.cell.decision, className: styles.cell } : {};
    },
    cell: (row: T) => {
      const q = question(row, operation);
      return q && <Decision {...q} />;
    },
  }));
}

export { styles as principalStyles };
