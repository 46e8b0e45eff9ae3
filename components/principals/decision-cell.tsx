import Link from "@/components/link";
import type { ReactNode } from "react";
import type { PermissionCell } from "@/lib/schemas/effective-permissions";
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
export function accessCheckLink(q: { principal: string; operation: string; resourceType: string; resourceName: string; host: string }): string {
  return `/access-check?${new URLSearchParams({ principal: q.principal, operation: q.operation, resourceType: q.resourceType, resourceName: q.resourceName, host: q.host })}`;
}

/**
 * One cell: the decision for a host no ACL names (the link uses `linkHost`, an address no
 * ACL names, so the Access check answers the same question), then each host an ACL names
 * where the answer differs.
 */
export function DecisionCell({
  cell,
  principal,
  resourceType,
  resourceName,
  linkHost,
  title,
}: {
  cell: PermissionCell;
  principal: string;
  resourceType: string;
  resourceName: string;
  linkHost: string;
  title: string;
}) {
  const q = { principal, operation: cell.operation, resourceType, resourceName };
  return (
    <td data-operation={cell.operation} data-decision={cell.decision} className={styles.cell}>
      <Link href={accessCheckLink({ ...q, host: linkHost })} className={`badge ${cell.decision}`} title={title} aria-label={`${principal} ${cell.operation} on ${resourceName}: ${cell.decision}. ${title}`}>
        {cell.decision}
      </Link>
      {cell.via.length > 0 && <span className={styles.via}>{cell.via.join(" · ")}</span>}
      {cell.otherHosts.map((o) => (
        <span key={o.host} className={styles.via} data-host={o.host}>
          from {o.host}:{" "}
          <Link href={accessCheckLink({ ...q, host: o.host })} className={`badge ${o.decision}`}>
            {o.decision}
          </Link>
        </span>
      ))}
    </td>
  );
}

export { styles as principalStyles };
