import { utcText } from "@/lib/utc-text";
import Link from "@/components/link";
import type { AclDecisionRow, AclPlanView } from "@/lib/schemas/plans";
import { Alert } from "@/components/ui/alert";
import { Badge, decisionTone } from "@/components/ui/badge";
import { DataTable, type Column } from "@/components/ui/data-table";
import { BindingsTable } from "./bindings";
import { CliCommands } from "./cli-commands";
import styles from "./plans.module.css";

const n = (v: number) => v.toLocaleString("en");

function hostLabel(host: string, otherHost: string): string {
  return host === otherHost ? "any other host" : host;
}

/** Decision changes as a table: who, from where, on what, which operation, before and after. */
export function DecisionRowsTable(props: { rows: readonly AclDecisionRow[]; otherHost: string; label?: string }) {
  const { rows, otherHost, label = "Decisions that change" } = props;
  return (
    <DataTable
      label={label}
      rows={rows}
      rowKey={(c) => `${c.principal}|${c.host}|${c.resourceType}|${c.resourceName}|${c.operation}`}
      columns={[
        { key: "principal", header: "Principal", className: "mono", cell: (c) => c.principal },
        { key: "host", header: "Host", className: "mono", cell: (c) => hostLabel(c.host, otherHost) },
        { key: "resource", header: "Resource", className: "mono", cell: (c) => `${c.resourceType} ${c.resourceName}` },
        { key: "operation", header: "Operation", className: "mono", cell: (c) => c.operation },
        { key: "before", header: "Before", cell: (c) => <Badge tone={decisionTone(c.before)}>{c.before}</Badge> },
        { key: "after", header: "After", cell: (c) => <Badge tone={decisionTone(c.after)}>{c.after}</Badge> },
      ]}
    />
  );
}

/** A way to group the changes: what by (the table's first column) and each group's key. */
interface Grouping<T> {
  by: string;
  rowKey: (row: T) => string;
  column: Column<T>;
}

const BY_PRINCIPAL: Grouping<AclPlanView["byPrincipal"][number]> = {
  by: "principal",
  rowKey: (g) => g.principal,
  column: { key: "principal", header: "Principal", className: "mono", cell: (g) => g.principal },
};

const BY_RESOURCE: Grouping<AclPlanView["byResource"][number]> = {
  by: "resource",
  rowKey: (g) => `${g.resourceType}|${g.resourceName}`,
  column: {
    key: "resource",
    header: "Resource",
    className: "mono",
    cell: (g) => `${g.resourceType} ${g.resourceName}`,
  },
};

/** One group of changes (by principal, by resource) with its gained and lost counts: the first rows of `total`. */
function ChangeGroup<T extends { gained: number; lost: number }>(props: {
  group: Grouping<T>;
  rows: T[];
  total: number;
}) {
  const { group, rows, total } = props;
  return (
    <div>
      <h4>By {group.by}</h4>
      <DataTable
        label={`Changes by ${group.by}`}
        scroll={false}
        rows={rows}
        rowKey={group.rowKey}
        columns={[
          group.column,
          { key: "gained", header: "Gained", cell: (g) => n(g.gained) },
          { key: "lost", header: "Lost", cell: (g) => n(g.lost) },
        ]}
      />
      {total > rows.length && (
        <p className="muted">
          The {rows.length} {group.by}s with the most changes of {n(total)}.
        </p>
      )}
    </div>
  );
}

/** What Apply deletes or creates, under a heading with their number; nothing when there are none. */
function BindingsSection({
  title,
  label,
  bindings,
}: {
  title: string;
  label: string;
  bindings: AclPlanView["create"];
}) {
  if (bindings.length === 0) return null;
  return (
    <>
      <h4>
        {title} ({bindings.length})
      </h4>
      <BindingsTable label={label} bindings={bindings} />
    </>
  );
}

/**
 * A sealed ACL plan as previewed: exactly what Apply will create and delete, Kafka's
 * refusals, the blast radius (counts, rules for what is not yet seen, groups, the first
 * rows with a link to all of them) and the equivalent kafka-acls.sh commands.
 */
export function AclPlanPreview({ plan, showFirstRows = true }: { plan: AclPlanView; showFirstRows?: boolean }) {
  const c = plan.counts;
  const u = c.universe;
  const shownRows = plan.firstChanges.length;
  return (
    <section className="acl-preview" aria-label="Preview" data-testid="acl-preview" data-plan-id={plan.id}>
      <h3>Plan: {plan.summary}</h3>
      <p className="muted" data-testid="plan-meta">
        Kept on the server until {utcText(plan.expiresAt, "minutes")}; Apply carries out exactly this plan (
        <Link href={`/plans/${plan.id}`}>plan {plan.id.slice(0, 8)}</Link>), and refuses it if the ACLs it depends on
        change first.
      </p>
      <BindingsSection title="Delete" label="Bindings to delete" bindings={plan.delete} />
      <BindingsSection title="Create" label="Bindings to create" bindings={plan.create} />
      {plan.invalid.length > 0 && (
        <Alert tone="error" testId="acl-problems">
          Kafka would refuse {plan.invalid.length === 1 ? "this ACL" : `${plan.invalid.length} ACLs`}; nothing will be
          applied until {plan.invalid.length === 1 ? "it is" : "they are"} fixed:
          <ul>
            {plan.invalid.map((p) => {
              const b = p.binding as Partial<Record<string, string>> | null;
              return (
                <li key={`${p.from}-${p.index}`}>
                  <span className="mono">
                    {b
                      ? `${b.principal ?? "?"} ${b.operation ?? "?"} ` +
                        `on ${b.resourceType ?? "?"} ${b.resourceName ?? "?"}`
                      : `binding ${p.index + 1}`}
                  </span>
                  : {p.message}
                </li>
              );
            })}
          </ul>
        </Alert>
      )}
      {plan.noOps.length > 0 && (
        <Alert tone="info" testId="acl-noops">
          Nothing to do for {plan.noOps.length === 1 ? "this binding" : "these bindings"} (a create Kafka already holds,
          or a delete it does not):{" "}
          {plan.noOps
            .map(
              (b) =>
                `${b.permissionType} ${b.principal} ${b.operation} on ${b.resourceType} ${b.resourceName} ` +
                `(${b.patternType})`,
            )
            .join("; ")}
        </Alert>
      )}
      {plan.refused && (
        <Alert tone="error" testId="plan-refused">
          {plan.refused.message}
        </Alert>
      )}

      <h4>Blast radius</h4>
      <div className={styles.counts} data-testid="plan-counts">
        {(
          [
            [c.changes, "decisions change"],
            [c.gained, "gained"],
            [c.lost, "lost"],
            [c.principals, "principals"],
            [c.resources, "resources"],
          ] as const
        ).map(([count, what]) => (
          <span key={what}>
            <strong>{n(count)}</strong>
            {` ${what}`}
          </span>
        ))}
      </div>
      <p className="muted assumptions">
        Compared {n(c.checked)} of the {n(u.requests)} requests of the universe ({n(u.principals)} principals the
        console knows, {n(u.hosts)} hosts including any other host, {n(u.resources)} resources, every operation
        kafka-acls.sh allows on each); the others cannot change. Assuming{" "}
        <code>super.users = {plan.assumptions.superUsers.join(";") || "(none)"}</code> and{" "}
        <code>allow.everyone.if.no.acl.found = {String(plan.assumptions.allowEveryoneIfNoAclFound)}</code>.
      </p>
      {plan.rules.length > 0 && (
        <ul className={styles.rules} data-testid="plan-rules" aria-label="Rules for what is not yet seen">
          {plan.rules.map(({ change, binding: b, text }, i) => (
            <li key={i}>
              {change === "create" ? "Created" : "Deleted"}: {b.permissionType} {b.principal} {b.operation} on{" "}
              {b.resourceType} {b.resourceName} ({b.patternType}) — {text}
            </li>
          ))}
        </ul>
      )}
      {plan.universeNotes.length > 0 && (
        <Alert tone="info" testId="plan-universe-notes">
          {plan.universeNotes.map((note) => (
            <div key={note}>{note}</div>
          ))}
        </Alert>
      )}

      {c.changes === 0 ? (
        <p className="muted" data-testid="acl-no-change">
          No decision of the universe changes ({n(c.checked)} compared).
        </p>
      ) : (
        <>
          <div className={styles.groups}>
            <ChangeGroup group={BY_PRINCIPAL} rows={plan.byPrincipal} total={c.principals} />
            <ChangeGroup group={BY_RESOURCE} rows={plan.byResource} total={c.resources} />
          </div>
          {showFirstRows && (
            <>
              <h4>
                Decisions that change{c.changes > shownRows ? ` (the first ${shownRows} of ${n(c.changes)})` : ""}
              </h4>
              <DecisionRowsTable rows={plan.firstChanges} otherHost={plan.otherHost} />
              <p>
                <Link href={`/plans/${plan.id}`} data-testid="plan-all-rows">
                  All {n(c.changes)} decision changes
                </Link>
              </p>
            </>
          )}
        </>
      )}

      <details open={plan.cli.length <= 10} data-testid="plan-cli">
        <summary>
          The same change with kafka-acls.sh ({plan.cli.length} command{plan.cli.length === 1 ? "" : "s"}, deletes
          first)
        </summary>
        <CliCommands commands={plan.cli} label="Equivalent kafka-acls.sh commands" empty="Nothing to run." />
      </details>
      {plan.notApplicable && (
        <Alert tone="warn" role="alert" testId="plan-not-applicable">
          This plan cannot be applied: {plan.notApplicable}
        </Alert>
      )}
    </section>
  );
}
