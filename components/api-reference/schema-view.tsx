import { DataTable, type Column } from "@/components/ui/data-table";
import { constraintsOf, objectShapes, typeLabel, type Schema } from "./model";
import styles from "./api-reference.module.css";

const MAX_DEPTH = 5;

/**
 * A JSON Schema as a table of fields: name, type, required, what it means; nested objects indented below their field.
 */
export function SchemaView({ schema, label }: { schema: Schema; label: string }) {
  const shapes = objectShapes(schema);
  if (shapes.length === 0) {
    return (
      <p className={styles.schemaScalar}>
        <code>{typeLabel(schema)}</code>{" "}
        {typeof schema.description === "string" && <span className="muted">{schema.description}</span>}
      </p>
    );
  }
  const rows = shapes.flatMap((shape, i): SchemaRow[] => [
    ...(shapes.length > 1 ? [{ kind: "alternative" as const, key: `alt-${i}`, first: i === 0, shape }] : []),
    ...fieldRows(shape, 0, "", `${i}`),
  ]);
  return (
    <DataTable
      label={label}
      className={styles.schemaTable}
      rows={rows}
      rowKey={(r) => r.key}
      columns={SCHEMA_COLUMNS}
    />
  );
}

type SchemaRow =
  | { kind: "alternative"; key: string; first: boolean; shape: Schema }
  | { kind: "field"; key: string; name: string; prefix: string; depth: number; property: Schema; required: boolean };

/** The fields of an object shape, each followed by the fields of its nested objects (down to MAX_DEPTH). */
function fieldRows(shape: Schema, depth: number, prefix: string, key: string): SchemaRow[] {
  const properties = (shape.properties ?? {}) as Record<string, Schema>;
  const required = new Set((shape.required as string[] | undefined) ?? []);
  return Object.entries(properties).flatMap(([name, property]) => {
    const nested = depth < MAX_DEPTH ? objectShapes(property) : [];
    const inner = property.type === "array" ? `${prefix}${name}[].` : `${prefix}${name}.`;
    const isRequired = required.has(name);
    const row: SchemaRow = {
      kind: "field",
      key: `${key}/${name}`,
      name,
      prefix,
      depth,
      property,
      required: isRequired,
    };
    return [row, ...nested.flatMap((n, i) => fieldRows(n, depth + 1, inner, `${key}/${name}/${i}`))];
  });
}

const SCHEMA_COLUMNS: Column<SchemaRow>[] = [
  {
    key: "field",
    header: "Field",
    cellProps: (r) =>
      r.kind === "alternative"
        ? { colSpan: 3, className: styles.alternative }
        : { className: styles[`depth${Math.min(r.depth, MAX_DEPTH)}`] },
    cell: (r) =>
      r.kind === "alternative" ? (
        <>
          {r.first ? "One of these shapes:" : "Or:"}{" "}
          {typeof r.shape.description === "string" ? r.shape.description : ""}
        </>
      ) : (
        <>
          <code>
            {r.prefix}
            {r.name}
          </code>
          {r.required ? <span className={styles.required}> required</span> : null}
        </>
      ),
  },
  {
    key: "type",
    header: "Type",
    cell: (r) => r.kind === "field" && <code className={styles.type}>{typeLabel(r.property)}</code>,
  },
  {
    key: "meaning",
    header: "Meaning",
    cell: (r) => r.kind === "field" && <Meaning property={r.property} />,
  },
];

function Meaning({ property }: { property: Schema }) {
  const notes = constraintsOf(property);
  return (
    <>
      {typeof property.description === "string" ? property.description : null}
      {notes.length > 0 && <span className={styles.notes}> {notes.join("; ")}</span>}
    </>
  );
}
