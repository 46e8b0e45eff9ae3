import { Fragment } from "react";
import { constraintsOf, objectShapes, typeLabel, type Schema } from "./model";
import styles from "./api-reference.module.css";

const MAX_DEPTH = 5;

/** A JSON Schema as a table of fields: name, type, required, what it means; nested objects indented below their field. */
export function SchemaView({ schema, label }: { schema: Schema; label: string }) {
  const shapes = objectShapes(schema);
  if (shapes.length === 0) {
    return (
      <p className={styles.schemaScalar}>
        <code>{typeLabel(schema)}</code> {typeof schema.description === "string" && <span className="muted">{schema.description}</span>}
      </p>
    );
  }
  return (
    <div className="table-scroll" role="region" tabIndex={0} aria-label={`${label} (scrolls sideways)`}>
      <table className={`data ${styles.schemaTable}`} aria-label={label}>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Type</th>
            <th scope="col">Meaning</th>
          </tr>
        </thead>
        <tbody>
          {shapes.map((shape, i) => (
            <Fragment key={i}>
              {shapes.length > 1 && (
                <tr>
                  <td colSpan={3} className={styles.alternative}>
                    {i === 0 ? "One of these shapes:" : "Or:"} {typeof shape.description === "string" ? shape.description : ""}
                  </td>
                </tr>
              )}
              <Rows shape={shape} depth={0} prefix="" />
            </Fragment>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Rows({ shape, depth, prefix }: { shape: Schema; depth: number; prefix: string }) {
  const properties = (shape.properties ?? {}) as Record<string, Schema>;
  const required = new Set((shape.required as string[] | undefined) ?? []);
  return (
    <>
      {Object.entries(properties).map(([name, property]) => {
        const nested = depth < MAX_DEPTH ? objectShapes(property) : [];
        const notes = constraintsOf(property);
        return (
          <Fragment key={name}>
            <tr>
              <td className={styles[`depth${Math.min(depth, MAX_DEPTH)}`]}>
                <code>
                  {prefix}
                  {name}
                </code>
                {required.has(name) ? <span className={styles.required}> required</span> : null}
              </td>
              <td>
                <code className={styles.type}>{typeLabel(property)}</code>
              </td>
              <td>
                {typeof property.description === "string" ? property.description : null}
                {notes.length > 0 && <span className={styles.notes}> {notes.join("; ")}</span>}
              </td>
            </tr>
            {nested.map((inner, i) => (
              <Rows key={i} shape={inner} depth={depth + 1} prefix={property.type === "array" ? `${prefix}${name}[].` : `${prefix}${name}.`} />
            ))}
          </Fragment>
        );
      })}
    </>
  );
}
