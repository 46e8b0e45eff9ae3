/**
 * The API reference page's view of the OpenAPI document (lib/api/openapi.ts): operations
 * grouped by area with their `$ref`s resolved, one-line type labels for JSON Schemas, the
 * URL a Try-it form calls and the curl command shown for changes. Pure: used by the page
 * (server) and by the Try-it and curl components (browser).
 */

export type Schema = Record<string, unknown>;
type Doc = Record<string, unknown>;

export interface ParameterView {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  description: string;
  schema: Schema;
  /** Example values by example name (a path parameter's single example is named "example"). */
  examples: Record<string, string>;
}

export interface ExampleView {
  name: string;
  summary: string;
  value: unknown;
}

export interface ResponseView {
  status: string;
  description: string;
  schema: Schema | null;
  mediaTypes: string[];
}

export interface OperationView {
  id: string;
  method: string;
  path: string;
  summary: string;
  description: string;
  public: boolean;
  parameters: ParameterView[];
  body: { schema: Schema; examples: ExampleView[] } | null;
  responses: ResponseView[];
  /** Named sets of parameter values (path and query) for the Try-it form. */
  exampleSets: { name: string; summary: string; values: Record<string, string> }[];
}

export interface AreaView {
  name: string;
  description: string;
  operations: OperationView[];
}

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

/** Follows a local `$ref` (`#/components/...`) to what it names. */
export function resolveRef<T>(doc: Doc, value: T): T {
  const ref = (value as { $ref?: unknown } | null)?.$ref;
  if (typeof ref !== "string" || !ref.startsWith("#/")) return value;
  let node: unknown = doc;
  for (const part of ref.slice(2).split("/"))
    node = (node as Record<string, unknown> | undefined)?.[part.replace(/~1/g, "/").replace(/~0/g, "~")];
  if (node === undefined) throw new Error(`Unresolved $ref ${ref}`);
  return resolveRef(doc, node as T);
}

const text = (v: unknown) => (typeof v === "string" ? v : "");

export function referenceModel(doc: Doc): AreaView[] {
  const tags = (doc.tags as { name: string; description?: string }[] | undefined) ?? [];
  const areas = new Map<string, AreaView>(
    tags.map((t) => [t.name, { name: t.name, description: text(t.description), operations: [] }]),
  );
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Doc>>;
  for (const [path, byMethod] of Object.entries(paths)) {
    for (const method of METHODS) {
      const op = byMethod[method];
      if (!op) continue;
      const view = operationView(doc, method, path, op);
      const tag = ((op.tags as string[] | undefined) ?? [])[0] ?? "Other";
      if (!areas.has(tag)) areas.set(tag, { name: tag, description: "", operations: [] });
      areas.get(tag)!.operations.push(view);
    }
  }
  return [...areas.values()].filter((a) => a.operations.length > 0);
}

function operationView(doc: Doc, method: string, path: string, op: Doc): OperationView {
  const parameters: ParameterView[] = ((op.parameters as Doc[] | undefined) ?? []).map((raw) => {
    const p = resolveRef(doc, raw);
    const examples: Record<string, string> = {};
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a parameter's example is a scalar
    if (p.example !== undefined) examples.example = String(p.example);
    for (const [name, e] of Object.entries((p.examples ?? {}) as Record<string, { value: unknown }>))
      examples[name] = String(e.value);
    return {
      name: text(p.name),
      in: p.in as ParameterView["in"],
      required: p.required === true,
      description: text(p.description),
      schema: (p.schema ?? {}) as Schema,
      examples,
    };
  });

  let body: OperationView["body"] = null;
  const requestBody = op.requestBody ? resolveRef(doc, op.requestBody as Doc) : null;
  const media = (requestBody?.content as Record<string, Doc> | undefined)?.["application/json"];
  if (media) {
    body = {
      schema: resolveRef(doc, (media.schema ?? {}) as Schema),
      examples: Object.entries((media.examples ?? {}) as Record<string, { summary?: string; value: unknown }>).map(
        ([name, e]) => ({ name, summary: text(e.summary), value: e.value }),
      ),
    };
  }

  const responses: ResponseView[] = Object.entries((op.responses ?? {}) as Record<string, Doc>).map(([status, raw]) => {
    const r = resolveRef(doc, raw);
    const content = (r.content ?? {}) as Record<string, Doc>;
    const json = content["application/json"];
    return {
      status,
      description: text(r.description),
      schema: json?.schema ? resolveRef(doc, json.schema as Schema) : null,
      mediaTypes: Object.keys(content),
    };
  });

  // Example sets: the query examples share names across parameters; path parameters add their example to each set.
  const names = [...new Set(parameters.filter((p) => p.in === "query").flatMap((p) => Object.keys(p.examples)))];
  const summaries = new Map<string, string>();
  for (const raw of (op.parameters as Doc[] | undefined) ?? []) {
    for (const [name, e] of Object.entries(
      (resolveRef(doc, raw).examples ?? {}) as Record<string, { summary?: string }>,
    ))
      if (e.summary) summaries.set(name, e.summary);
  }
  const pathValues = Object.fromEntries(
    parameters.filter((p) => p.in === "path").map((p) => [p.name, p.examples.example ?? ""]),
  );
  const exampleSets = (names.length > 0 ? names : parameters.some((p) => p.in === "path") ? ["example"] : []).map(
    (name) => ({
      name,
      summary: summaries.get(name) ?? name,
      values: {
        ...pathValues,
        ...Object.fromEntries(
          parameters
            .filter((p) => p.in === "query" && p.examples[name] !== undefined)
            .map((p) => [p.name, p.examples[name]!]),
        ),
      },
    }),
  );

  return {
    id: text(op.operationId) || `${method}-${path}`,
    method,
    path,
    summary: text(op.summary),
    description: text(op.description),
    public: Array.isArray(op.security) && op.security.length === 0,
    parameters,
    body,
    responses,
    exampleSets,
  };
}

/** A one-line description of a schema's type: `string`, `"LITERAL" | "PREFIXED"`, `integer[]`, `string or null`. */
export function typeLabel(schema: Schema | undefined): string {
  if (!schema || Object.keys(schema).length === 0) return "any";
  if ("const" in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  const alternatives = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (alternatives) {
    const labels = [...new Set(alternatives.map((s) => typeLabel(s)))];
    return labels.join(" or ");
  }
  const type = schema.type;
  if (Array.isArray(type)) return type.join(" or ");
  if (type === "array") return `${typeLabel(schema.items as Schema | undefined)}[]`;
  if (type === "object" && !schema.properties && typeof schema.additionalProperties === "object") {
    return `map of ${typeLabel(schema.additionalProperties as Schema)}`;
  }
  return typeof type === "string" ? type : "any";
}

/** Limits and defaults worth a reader's eye: `default 1`, `≥ 1`, `at most 1000 characters`. */
export function constraintsOf(schema: Schema): string[] {
  const out: string[] = [];
  if (schema.default !== undefined) out.push(`default ${JSON.stringify(schema.default)}`);
  const safe = (n: unknown): n is number => typeof n === "number" && Math.abs(n) < Number.MAX_SAFE_INTEGER;
  if (safe(schema.minimum)) out.push(`≥ ${schema.minimum}`);
  if (safe(schema.exclusiveMinimum)) out.push(`> ${schema.exclusiveMinimum}`);
  if (safe(schema.maximum)) out.push(`≤ ${schema.maximum}`);
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;
  if (typeof schema.minLength === "number" && schema.minLength > 0)
    out.push(`at least ${count(schema.minLength, "character")}`);
  if (typeof schema.maxLength === "number") out.push(`at most ${count(schema.maxLength, "character")}`);
  if (typeof schema.minItems === "number" && schema.minItems > 0)
    out.push(`at least ${count(schema.minItems, "item")}`);
  if (typeof schema.maxItems === "number") out.push(`at most ${count(schema.maxItems, "item")}`);
  if (typeof schema.pattern === "string") out.push(`pattern ${schema.pattern}`);
  if (typeof schema.format === "string") out.push(`format ${schema.format}`);
  return out;
}

/** The object schemas a schema's value can be: itself, or its non-null alternatives, or its array items. */
export function objectShapes(schema: Schema): Schema[] {
  const alternatives = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (alternatives) return alternatives.flatMap(objectShapes);
  if (schema.type === "array" && schema.items) return objectShapes(schema.items as Schema);
  if (schema.type === "object" && schema.properties) return [schema];
  return [];
}

/** The URL a Try-it form calls: path parameters filled in, empty query values left out. */
export function requestUrl(
  path: string,
  parameters: Pick<ParameterView, "name" | "in">[],
  values: Record<string, string>,
): string {
  let url = path;
  const query = new URLSearchParams();
  for (const p of parameters) {
    const value = values[p.name] ?? "";
    if (p.in === "path") url = url.replace(`{${p.name}}`, encodeURIComponent(value));
    else if (p.in === "query" && value !== "") query.set(p.name, value);
  }
  const search = query.toString();
  return search ? `${url}?${search}` : url;
}

/** A single-quoted shell word (a `'` becomes `'\''`). */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * The curl command for an operation: Basic credentials from the shell's environment
 * (never a real cookie or password), path parameters as shell variables, the example
 * body as JSON.
 */
export function curlCommand(options: {
  origin: string;
  method: string;
  path: string;
  body?: unknown;
  public?: boolean;
  query?: Record<string, string>;
}): string {
  const pathWithVars = options.path.replace(/\{(\w+)\}/g, (_m, name: string) => `$${name.toUpperCase()}`);
  const search = options.query && Object.keys(options.query).length > 0 ? `?${new URLSearchParams(options.query)}` : "";
  const url = `${options.origin}${pathWithVars}${search}`;
  const lines = [`curl -X ${options.method.toUpperCase()} ${/\$/.test(pathWithVars) ? `"${url}"` : shellQuote(url)}`];
  if (options.public) lines.push("-c cookies.txt");
  else lines.push(`-u "$KAFKA_USER:$KAFKA_PASSWORD"`);
  if (options.body !== undefined) {
    lines.push(`-H ${shellQuote("Content-Type: application/json")}`);
    lines.push(`-d ${shellQuote(JSON.stringify(options.body))}`);
  }
  return lines.join(" \\\n  ");
}
