import type { AclBinding } from "@/lib/policy";
import { describeChange, requestLines, type AuditEventView } from "./audit-change";
import { aclsHref, resourceHref } from "@/components/dashboard/links";
import { PrincipalLink } from "@/components/principals/decision-cell";
import styles from "./audit.module.css";

function BindingLine({ b }: { b: AclBinding }) {
  return (
    <>
      <span className="mono">
        {b.permissionType} {b.operation}
      </span>{" "}
      on{" "}
      {b.patternType === "LITERAL" ? (
        <a href={resourceHref(b.resourceType, b.resourceName)} className="mono">
          {b.resourceType}:{b.resourceName}
        </a>
      ) : (
        <a
          href={aclsHref({ resourceType: b.resourceType, resourceName: b.resourceName, patternType: "PREFIXED" })}
          className="mono"
        >
          {b.resourceType}:{b.resourceName}* (PREFIXED)
        </a>
      )}{" "}
      for <PrincipalLink principal={b.principal} />
      {b.host !== "*" && <span className="mono"> from {b.host}</span>}
    </>
  );
}

function Bindings({
  title,
  list,
  sign,
  tone,
}: {
  title: string;
  list: readonly AclBinding[];
  sign: string;
  tone: string | undefined;
}) {
  if (list.length === 0) return null;
  return (
    <div className={styles.group}>
      <div className={styles.groupTitle}>{title}</div>
      <ul className={styles.lines}>
        {list.map((b, i) => (
          <li key={i} className={tone}>
            <span aria-hidden="true" className={styles.sign}>
              {sign}
            </span>
            <BindingLine b={b} />
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The event's before -> after as a diff (bindings created / deleted, or fields added / removed / changed). */
export function ChangeView({ event }: { event: AuditEventView }) {
  const change = describeChange(event);
  const asked = requestLines(event);
  return (
    <div className={styles.change} data-testid="audit-change">
      {change.kind === "bindings" && (
        <>
          <Bindings
            title={`${change.created.length} binding${change.created.length === 1 ? "" : "s"} created`}
            list={change.created}
            sign="+"
            tone={styles.added}
          />
          <Bindings
            title={`${change.deleted.length} binding${change.deleted.length === 1 ? "" : "s"} deleted`}
            list={change.deleted}
            sign="−"
            tone={styles.removed}
          />
          {change.failed.length > 0 && (
            <div className={styles.group}>
              <div className={styles.groupTitle}>{change.failed.length} not changed (Kafka refused)</div>
              <ul className={styles.lines}>
                {change.failed.map((f, i) => (
                  <li key={i} className={styles.failed}>
                    <span aria-hidden="true" className={styles.sign}>
                      ×
                    </span>
                    <BindingLine b={f.binding} /> — {f.message}
                  </li>
                ))}
              </ul>
            </div>
          )}
          <Bindings
            title={`${change.notApplied.length} asked for, not applied`}
            list={change.notApplied}
            sign="·"
            tone={styles.failed}
          />
        </>
      )}
      {change.kind === "fields" && (
        <ul className={styles.lines}>
          {change.changes.map((c) => (
            <li
              key={c.path}
              className={c.kind === "added" ? styles.added : c.kind === "removed" ? styles.removed : styles.changed}
              data-kind={c.kind}
            >
              <span aria-hidden="true" className={styles.sign}>
                {c.kind === "added" ? "+" : c.kind === "removed" ? "−" : "~"}
              </span>
              <span className="mono">{c.path}</span>{" "}
              {c.kind === "changed" ? (
                <>
                  <del>{c.before}</del> → <ins>{c.after}</ins>
                </>
              ) : c.kind === "added" ? (
                <>
                  <span className="sr-only">added: </span>
                  <ins>{c.after}</ins>
                </>
              ) : (
                <>
                  <span className="sr-only">removed: </span>
                  <del>{c.before}</del>
                </>
              )}
            </li>
          ))}
          {change.unchanged > 0 && <li className="muted">{change.unchanged} unchanged</li>}
        </ul>
      )}
      {asked.length > 0 && (
        <details className={styles.asked}>
          <summary>What was asked</summary>
          <dl>
            {asked.map((l) => (
              <div key={l.path}>
                <dt className="mono">{l.path}</dt>
                <dd>{l.value}</dd>
              </div>
            ))}
          </dl>
        </details>
      )}
    </div>
  );
}
