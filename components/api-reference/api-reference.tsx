import { SchemaView } from "./schema-view";
import { TryIt } from "./try-it";
import { CurlExample } from "./curl-example";
import { OperationDetails } from "./operation-details";
import { constraintsOf, typeLabel, type AreaView, type OperationView } from "./model";
import { Badge } from "@/components/ui/badge";
import { DataTable, type Column } from "@/components/ui/data-table";
import styles from "./api-reference.module.css";

/**
 * The console's API, readable: a table of contents, then the operations grouped by area,
 * each folded to one line (method, path, summary) that opens to its parameters, body and
 * answers, a Try-it form for every GET (sent with the session cookie) and a curl command
 * for every change (changes are never sent from this page).
 */
export function ApiReference({ areas, version }: { areas: AreaView[]; version: string }) {
  return (
    <div className={styles.reference}>
      <h1>API reference</h1>
      <p className="lead">
        The JSON API under <code>/api/v1</code>, OpenAPI {version}. Every call acts as the signed-in Kafka principal.
        Sign in with <code>POST /api/v1/session</code> (a cookie) or send <code>Authorization: Basic</code> with Kafka
        credentials on each request. The machine-readable document:{" "}
        <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>. Each operation below opens to its parameters, answers
        and an example.
      </p>
      <nav aria-label="API areas" className={`card ${styles.toc}`}>
        {areas.map((area) => (
          <div key={area.name}>
            <a href={`#area-${slug(area.name)}`}>{area.name}</a>
            <ul>
              {area.operations.map((op) => (
                <li key={op.id}>
                  <a href={`#${op.id}`}>
                    <span className={`${styles.method} ${styles[op.method]}`}>{op.method.toUpperCase()}</span>{" "}
                    <code>{op.path}</code>
                  </a>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </nav>
      {areas.map((area) => (
        <section key={area.name} aria-labelledby={`area-${slug(area.name)}`} className={styles.area}>
          <h2 id={`area-${slug(area.name)}`}>{area.name}</h2>
          {area.description && <p className="muted">{area.description}</p>}
          {area.operations.map((op) => (
            <Operation key={op.id} op={op} />
          ))}
        </section>
      ))}
    </div>
  );
}

const PARAMETER_COLUMNS: Column<OperationView["parameters"][number]>[] = [
  {
    key: "name",
    header: "Name",
    cell: (p) => (
      <>
        <code>{p.name}</code>
        {p.required && <span className={styles.required}> required</span>}
      </>
    ),
  },
  { key: "in", header: "In", cell: (p) => p.in },
  { key: "type", header: "Type", cell: (p) => <code className={styles.type}>{typeLabel(p.schema)}</code> },
  {
    key: "meaning",
    header: "Meaning",
    cell: (p) => (
      <>
        {p.description}
        {constraintsOf(p.schema).length > 0 && (
          <span className={styles.notes}> {constraintsOf(p.schema).join("; ")}</span>
        )}
      </>
    ),
  },
  {
    key: "examples",
    header: "Examples",
    cell: (p) =>
      [...new Set(Object.values(p.examples))].map((v) => (
        <code key={v} className={styles.exampleValue}>
          {v}
        </code>
      )),
  },
];

const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, "-");

function Operation({ op }: { op: OperationView }) {
  const title = `${op.method.toUpperCase()} ${op.path}`;
  const parameters = op.parameters.filter((p) => p.in !== "header");
  const headers = op.parameters.filter((p) => p.in === "header");
  return (
    <section id={op.id} className={`card ${styles.operation}`} aria-label={title}>
      <OperationDetails
        id={op.id}
        className={styles.fold}
        summary={
          <>
            <h3>
              <span className={`${styles.method} ${styles[op.method]}`}>{op.method.toUpperCase()}</span>{" "}
              <code>{op.path}</code>
            </h3>
            <span className={styles.summary}>{op.summary}</span>
          </>
        }
      >
        {op.description && op.description !== op.summary && <p className={styles.description}>{op.description}</p>}
        <p className={styles.meta}>
          <span className="muted">Operation id</span> <code>{op.id}</code> ·{" "}
          {op.public ? (
            <span>no credentials needed</span>
          ) : (
            <span className="muted">session cookie or Basic credentials</span>
          )}
          {headers.length > 0 && (
            <>
              {" "}
              · <span className="muted">optional header</span>{" "}
              {headers.map((h) => (
                <code key={h.name}>{h.name}</code>
              ))}
            </>
          )}
        </p>

        {parameters.length > 0 && (
          <>
            <h4>Parameters</h4>
            <DataTable
              label={`Parameters of ${title}`}
              className={styles.params}
              rows={parameters}
              rowKey={(p) => `${p.in}-${p.name}`}
              columns={PARAMETER_COLUMNS}
            />
          </>
        )}

        {op.body && (
          <>
            <h4>Request body (application/json)</h4>
            <SchemaView schema={op.body.schema} label={`Request body of ${title}`} />
          </>
        )}

        <h4>Answers</h4>
        <ul className={styles.responses}>
          {op.responses.map((r) => (
            <li key={r.status}>
              <Badge tone={r.status.startsWith("2") ? "ok" : "bad"}>{r.status}</Badge> {r.description}
              {r.mediaTypes
                .filter((m) => m !== "application/json")
                .map((m) => (
                  <span key={m} className="muted">
                    {" "}
                    (or <code>{m}</code>)
                  </span>
                ))}
            </li>
          ))}
        </ul>
        {op.responses
          .filter((r) => r.status.startsWith("2") && r.schema)
          .map((r) => (
            <details key={r.status} className={styles.answerSchema}>
              <summary>Shape of the {r.status} answer</summary>
              <SchemaView schema={r.schema!} label={`${r.status} answer of ${title}`} />
            </details>
          ))}

        {op.method === "get" ? (
          <>
            <h4>Try it</h4>
            <TryIt title={title} path={op.path} parameters={parameters} exampleSets={op.exampleSets} />
          </>
        ) : (
          <>
            <h4>Example{op.body && op.body.examples.length > 1 ? "s" : ""}</h4>
            <p className="muted">
              Changes are not sent from this page. Run the command with your Kafka credentials in KAFKA_USER and
              KAFKA_PASSWORD.
            </p>
            {op.body && op.body.examples.length > 0 ? (
              op.body.examples.map((e) => (
                <CurlExample
                  key={e.name}
                  method={op.method}
                  path={op.path}
                  body={e.value}
                  public={op.public}
                  title={e.summary || e.name}
                />
              ))
            ) : (
              <CurlExample method={op.method} path={op.path} public={op.public} title={op.summary} />
            )}
          </>
        )}
      </OperationDetails>
    </section>
  );
}
