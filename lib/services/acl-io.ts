/**
 * ACLs as files: the console's export formats and the parsers of its import, pure (no I/O).
 *
 * Three formats, each a complete ACL set (Kafka keeps ACLs as a set; order carries no
 * meaning, so every export is sorted: principal, then resource type, name, pattern type,
 * operation, permission, host, names in UTF-16 code unit order):
 *
 * - JSON: `{ "format": "kafka-security-console/acls", "version": 1, "exportedAt", "acls": [binding] }`,
 *   bindings with the seven fields of the policy contract; the import also takes a bare
 *   array of bindings or any `{ "acls": [...] }` (the policy CLI's shape).
 * - CSV: RFC 4180, CRLF, the policy CLI's header (lib/policy/acl/parse.ts CSV_HEADER).
 *   A cell that a spreadsheet would run as a formula (starting with = + - @ tab CR, after
 *   any apostrophes) is written with one more leading apostrophe, which the import takes
 *   off again: the escape is reversible, so names round-trip exactly.
 * - YAML, grouped by principal. No YAML library: a small emitter and a strict parser of
 *   exactly what it emits (see YAML below), so a file edited by hand either means what it
 *   says or is refused with its line number. Every free-text value (principal, resource
 *   name, host) is a double-quoted scalar with YAML's escapes; enum values are plain.
 *
 * Bindings read from a file are what Kafka could hold (Kafka's enum names; PascalCase as
 * kafka-acls.sh prints them is accepted too). Whether Kafka would accept creating them is
 * the plan's business (validateNewAcl); text the console never accepts (NUL, control
 * characters, lone surrogates) is refused here with the place it was found.
 */
import {
  cleanBinding,
  csvBindingFields,
  csvHeaderColumns,
  CSV_HEADER,
  jsonNestsDeeperThan,
  MAX_JSON_DEPTH,
  PolicyInputError,
  parseAclBinding,
  parseAclList,
  parseCsvRows,
  type AclBinding,
} from "@/lib/policy";
import { unsafeTextProblem } from "@/lib/schemas/safe-text";

export const ACL_FILE_FORMATS = ["json", "csv", "yaml"] as const;
export type AclFileFormat = (typeof ACL_FILE_FORMATS)[number];

export const ACL_FILE_FORMAT_ID = "kafka-security-console/acls";
export const ACL_FILE_VERSION = 1;

export const ACL_FILE_CONTENT_TYPES: Record<AclFileFormat, string> = {
  json: "application/json; charset=utf-8",
  csv: "text/csv; charset=utf-8",
  yaml: "application/yaml; charset=utf-8",
};

export interface AclExportMeta {
  /** ISO 8601; when the ACLs were read. */
  exportedAt: string;
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The export order (see the top of this file). */
export function compareForExport(a: AclBinding, b: AclBinding): number {
  return (
    cmp(a.principal, b.principal) ||
    cmp(a.resourceType, b.resourceType) ||
    cmp(a.resourceName, b.resourceName) ||
    cmp(a.patternType, b.patternType) ||
    cmp(a.operation, b.operation) ||
    cmp(a.permissionType, b.permissionType) ||
    cmp(a.host, b.host)
  );
}

/** The bindings once each (Kafka's set), in export order. */
export function sortForExport(acls: readonly AclBinding[]): AclBinding[] {
  const sorted = acls.map(cleanBinding).sort(compareForExport);
  return sorted.filter((b, i) => i === 0 || compareForExport(sorted[i - 1]!, b) !== 0);
}

/** Consecutive runs of one principal, in export order. */
export function groupByPrincipal(acls: readonly AclBinding[]): { principal: string; acls: AclBinding[] }[] {
  const groups: { principal: string; acls: AclBinding[] }[] = [];
  for (const b of sortForExport(acls)) {
    const last = groups[groups.length - 1];
    if (last && last.principal === b.principal) last.acls.push(b);
    else groups.push({ principal: b.principal, acls: [b] });
  }
  return groups;
}

export function exportFileName(format: AclFileFormat, exportedAt: string): string {
  return `kafka-acls-${exportedAt.slice(0, 10)}.${format}`;
}

export function serializeAcls(acls: readonly AclBinding[], format: AclFileFormat, meta: AclExportMeta): string {
  if (format === "json") return aclsToJson(acls, meta);
  if (format === "csv") return aclsToCsv(acls);
  return aclsToYaml(acls, meta);
}

// ---- JSON ------------------------------------------------------------------------------

export function aclsToJson(acls: readonly AclBinding[], meta: AclExportMeta): string {
  return (
    JSON.stringify(
      { format: ACL_FILE_FORMAT_ID, version: ACL_FILE_VERSION, exportedAt: meta.exportedAt, acls: sortForExport(acls) },
      null,
      2,
    ) + "\n"
  );
}

// ---- CSV -------------------------------------------------------------------------------

// A formula trigger, possibly behind apostrophes this escape added before.
const FORMULA = /^'*[=+\-@\t\r]/;
const ESCAPED_FORMULA = /^'+[=+\-@\t\r]/;

/** One cell: formula-escaped (reversibly, see the top of this file), then RFC 4180 quoted when needed. */
export function csvCell(value: string): string {
  const s = FORMULA.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(s) || s !== s.trim() ? `"${s.replace(/"/g, '""')}"` : s;
}

function unescapeCell(value: string): string {
  return ESCAPED_FORMULA.test(value) ? value.slice(1) : value;
}

export function aclsToCsv(acls: readonly AclBinding[]): string {
  const lines = [CSV_HEADER.join(",")];
  for (const b of sortForExport(acls)) {
    lines.push(
      [b.principal, b.resourceType, b.patternType, b.resourceName, b.operation, b.permissionType, b.host]
        .map(csvCell)
        .join(","),
    );
  }
  return lines.join("\r\n") + "\r\n";
}

function parseCsv(text: string): AclBinding[] {
  const rows = parseCsvRows(text);
  const header = rows[0];
  if (header === undefined) return [];
  const columns = csvHeaderColumns(
    header,
    (name) => new AclFileError(`The CSV header must be ${CSV_HEADER.join(",")} (${name} is missing).`, 1),
  );
  return rows.slice(1).map((cells, r) => {
    const line = r + 2;
    if (cells.length !== header.length)
      throw new AclFileError(`${cells.length} cells where the header has ${header.length}.`, line);
    const get = (name: (typeof CSV_HEADER)[number]) => unescapeCell(cells[columns.get(name)!] ?? "");
    return bindingAt(csvBindingFields(get), line);
  });
}

// ---- YAML ------------------------------------------------------------------------------
//
// The emitted document, exactly (two spaces per level; comment and blank lines may be
// added anywhere by hand, and a `# comment` after a value):
//
//   # Kafka ACLs exported by the Kafka Security Console, grouped by principal.
//   format: kafka-security-console/acls
//   version: 1
//   exportedAt: "2026-12-01T10:00:00.000Z"
//   principals:
//     - principal: "User:alice"
//       acls:
//         - resourceType: TOPIC
//           resourceName: "orders"
//           patternType: LITERAL
//           operation: READ
//           permissionType: ALLOW
//           host: "*"
//
// and `principals: []` when there is none. A binding's six keys may come in any order,
// each exactly once; `format`, `version` and `exportedAt` are optional on import.
// Free text is always double-quoted; inside the quotes `\"`, `\\`, and YAML's escapes
// (\0 \a \b \t \n \v \f \r \e \N \_ \L \P \xXX \uXXXX \UXXXXXXXX, `\ `, `\/`) are read.

const BINDING_KEYS = ["resourceType", "resourceName", "patternType", "operation", "permissionType", "host"] as const;
type BindingKey = (typeof BINDING_KEYS)[number];
const QUOTED_KEYS: ReadonlySet<BindingKey> = new Set(["resourceName", "host"]);

/** Is the code point printable in YAML 1.2 (c-printable, minus the line breaks this emitter always escapes)? */
function isYamlPrintable(cp: number): boolean {
  return (
    cp === 0x09 ||
    (cp >= 0x20 && cp <= 0x7e) ||
    (cp >= 0xa0 && cp <= 0xd7ff && cp !== 0x2028 && cp !== 0x2029) ||
    (cp >= 0xe000 && cp <= 0xfffd && cp !== 0xfeff) ||
    (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

const hex = (n: number, width: number) => n.toString(16).toUpperCase().padStart(width, "0");

/** A YAML double-quoted scalar of `s` on one line. */
export function yamlQuote(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const unit = s.charCodeAt(i);
    let cp = unit;
    let width = 1;
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < s.length) {
      const low = s.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        cp = 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
        width = 2;
      }
    }
    if (cp === 0x22) out += '\\"';
    else if (cp === 0x5c) out += "\\\\";
    else if (cp === 0x09) out += "\\t";
    else if (cp === 0x0a) out += "\\n";
    else if (cp === 0x0d) out += "\\r";
    else if (isYamlPrintable(cp) && !(cp >= 0xd800 && cp <= 0xdfff)) out += s.slice(i, i + width);
    else out += cp <= 0xff ? `\\x${hex(cp, 2)}` : `\\u${hex(cp, 4)}`;
    i += width - 1;
  }
  return out + '"';
}

export function aclsToYaml(acls: readonly AclBinding[], meta: AclExportMeta): string {
  const lines = [
    "# Kafka ACLs exported by the Kafka Security Console, grouped by principal.",
    "# Edit and import it at /acls/import: add only, or sync within a scope.",
    `format: ${ACL_FILE_FORMAT_ID}`,
    `version: ${ACL_FILE_VERSION}`,
    `exportedAt: ${yamlQuote(meta.exportedAt)}`,
  ];
  const groups = groupByPrincipal(acls);
  if (groups.length === 0) lines.push("principals: []");
  else lines.push("principals:");
  for (const g of groups) {
    lines.push(`  - principal: ${yamlQuote(g.principal)}`, "    acls:");
    for (const b of g.acls) {
      BINDING_KEYS.forEach((k, i) => {
        const value = QUOTED_KEYS.has(k) ? yamlQuote(b[k]) : b[k];
        lines.push(`${i === 0 ? "      - " : "        "}${k}: ${value}`);
      });
    }
  }
  return lines.join("\n") + "\n";
}

interface YamlLine {
  no: number;
  indent: number;
  /** The text after the indentation and an optional "- " item marker. */
  body: string;
  item: boolean;
}

/** A double-quoted scalar starting at text[0]; returns the value and the rest of the line. */
function readQuoted(text: string, line: number): { value: string; rest: string } {
  let out = "";
  let i = 1;
  const fail = (message: string): never => {
    throw new AclFileError(message, line);
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') return { value: out, rest: text.slice(i + 1) };
    if (c !== "\\") {
      const cp = text.codePointAt(i)!;
      if (!isYamlPrintable(cp) && cp !== 0x0a)
        fail(`A character U+${hex(cp, 4)} must be written as an escape inside the quotes.`);
      out += String.fromCodePoint(cp);
      i += cp > 0xffff ? 2 : 1;
      continue;
    }
    const e = text[i + 1];
    const simple: Record<string, string> = {
      "0": "\0",
      a: "\x07",
      b: "\b",
      t: "\t",
      "\t": "\t",
      n: "\n",
      v: "\v",
      f: "\f",
      r: "\r",
      e: "\x1b",
      " ": " ",
      '"': '"',
      "/": "/",
      "\\": "\\",
      N: "\u0085",
      _: "\u00a0",
      L: "\u2028",
      P: "\u2029",
    };
    if (e !== undefined && e in simple) {
      out += simple[e];
      i += 2;
      continue;
    }
    const width = e === "x" ? 2 : e === "u" ? 4 : e === "U" ? 8 : 0;
    if (width === 0) fail(`Unknown escape \\${e ?? ""} inside the quotes.`);
    const digits = text.slice(i + 2, i + 2 + width);
    if (!new RegExp(`^[0-9A-Fa-f]{${width}}$`).test(digits))
      fail(`\\${e} must be followed by ${width} hexadecimal digits.`);
    const cp = parseInt(digits, 16);
    if (cp > 0x10ffff) fail(`\\${e}${digits} is not a Unicode code point.`);
    out += e === "u" ? String.fromCharCode(cp) : String.fromCodePoint(cp);
    i += 2 + width;
  }
  return fail("The quoted text is not closed on this line (a string must stay on one line).");
}

/** Nothing, or a comment, after a value. */
function assertLineEnd(rest: string, line: number): void {
  if (/^\s*(#.*)?$/.test(rest)) return;
  throw new AclFileError(`Unexpected text after the value: ${JSON.stringify(rest.trim())}.`, line);
}

/** `key: value` where value is a double-quoted string, a plain word, or nothing. */
function keyValue(body: string, line: number): { key: string; value: string | null; quoted: boolean } {
  const m = /^([A-Za-z][A-Za-z0-9]*):(?:\s+|$)(.*)$/.exec(body);
  if (!m) throw new AclFileError(`Expected "key: value", got ${JSON.stringify(body)}.`, line);
  const key = m[1]!;
  const raw = m[2]!;
  if (raw === "" || raw.startsWith("#")) return { key, value: null, quoted: false };
  if (raw.startsWith('"')) {
    const { value, rest } = readQuoted(raw, line);
    assertLineEnd(rest, line);
    return { key, value, quoted: true };
  }
  if (raw.startsWith("'")) throw new AclFileError(`Write ${key} in double quotes ("..."), as the export does.`, line);
  const plain = /^([^\s#]+)\s*(#.*)?$/.exec(raw);
  if (!plain) throw new AclFileError(`The value of ${key} must be one word or text in double quotes.`, line);
  return { key, value: plain[1]!, quoted: false };
}

function yamlLines(text: string): YamlLine[] {
  const out: YamlLine[] = [];
  const src = text.startsWith("\ufeff") ? text.slice(1) : text;
  src.split(/\r?\n/).forEach((raw, i) => {
    const no = i + 1;
    if (/^\s*(#.*)?$/.test(raw)) return;
    if (no === 1 && raw === "---") return;
    if (raw.includes("\t") && /^[ \t]*\t/.test(raw)) throw new AclFileError("Indent with spaces, not tabs.", no);
    const indent = raw.length - raw.trimStart().length;
    let body = raw.slice(indent).replace(/\s+$/, "");
    const item = body === "-" || body.startsWith("- ");
    if (item) body = body.slice(1).trimStart();
    out.push({ no, indent, body, item });
  });
  return out;
}

function parseYaml(text: string): AclBinding[] {
  const lines = yamlLines(text);
  const bindings: AclBinding[] = [];
  let i = 0;
  let sawPrincipals = false;
  const expect = (l: YamlLine, indent: number, item: boolean) => {
    if (l.indent !== indent || l.item !== item) {
      throw new AclFileError(
        `Expected ${item ? `a "- " item` : "a key"} indented by ${indent} spaces (the export's layout).`,
        l.no,
      );
    }
  };
  const top = new Set<string>();
  while (i < lines.length) {
    const l = lines[i]!;
    expect(l, 0, false);
    const { key, value, quoted } = keyValue(l.body, l.no);
    if (top.has(key)) throw new AclFileError(`${key} is given twice.`, l.no);
    top.add(key);
    i++;
    if (key === "format") {
      if (value !== ACL_FILE_FORMAT_ID) throw new AclFileError(`format must be ${ACL_FILE_FORMAT_ID}.`, l.no);
    } else if (key === "version") {
      if (value !== String(ACL_FILE_VERSION) || quoted)
        throw new AclFileError(`This console reads version ${ACL_FILE_VERSION} files.`, l.no);
    } else if (key === "exportedAt") {
      if (!quoted) throw new AclFileError('exportedAt must be in double quotes ("...").', l.no);
    } else if (key === "principals") {
      sawPrincipals = true;
      if (value === "[]" && !quoted) continue;
      if (value !== null) throw new AclFileError("principals must be a list of items on the lines below, or [].", l.no);
      i = parseGroups(lines, i, bindings, expect);
    } else {
      throw new AclFileError(`Unknown key ${key}: the file has format, version, exportedAt and principals.`, l.no);
    }
  }
  if (!sawPrincipals)
    throw new AclFileError("The file has no principals list (principals: [] for none).", lines[0]?.no ?? 1);
  return bindings;
}

function parseGroups(
  lines: YamlLine[],
  start: number,
  out: AclBinding[],
  expect: (l: YamlLine, indent: number, item: boolean) => void,
): number {
  let i = start;
  if (i >= lines.length || lines[i]!.indent === 0)
    throw new AclFileError("principals: is followed by no item (write principals: [] for none).", lines[i - 1]!.no);
  while (i < lines.length && lines[i]!.indent > 0) {
    const head = lines[i]!;
    expect(head, 2, true);
    const p = keyValue(head.body, head.no);
    if (p.key !== "principal" || p.value === null || !p.quoted)
      throw new AclFileError('Each item of principals starts with principal: "Type:name".', head.no);
    i++;
    const accLine = lines[i];
    if (!accLine || accLine.indent <= 2)
      throw new AclFileError(`The principal ${p.value} needs an acls: list below it.`, head.no);
    expect(accLine, 4, false);
    const acc = keyValue(accLine.body, accLine.no);
    if (acc.key !== "acls") throw new AclFileError(`Expected acls: under the principal, got ${acc.key}.`, accLine.no);
    i++;
    if (acc.value === "[]" && !acc.quoted) continue;
    if (acc.value !== null)
      throw new AclFileError("acls must be a list of items on the lines below, or [].", accLine.no);
    if (i >= lines.length || lines[i]!.indent <= 4)
      throw new AclFileError("acls: is followed by no item (write acls: [] for none).", accLine.no);
    while (i < lines.length && lines[i]!.indent > 4) {
      const first = lines[i]!;
      expect(first, 6, true);
      const fields = new Map<string, string>();
      const put = (l: YamlLine) => {
        const kv = keyValue(l.body, l.no);
        if (!(BINDING_KEYS as readonly string[]).includes(kv.key)) {
          throw new AclFileError(
            `Unknown key ${kv.key} in an ACL: the keys are ${BINDING_KEYS.join(", ")} (the principal is the group's).`,
            l.no,
          );
        }
        if (fields.has(kv.key)) throw new AclFileError(`${kv.key} is given twice in this ACL.`, l.no);
        if (kv.value === null) throw new AclFileError(`${kv.key} has no value.`, l.no);
        if (QUOTED_KEYS.has(kv.key as BindingKey) && !kv.quoted)
          throw new AclFileError(`Write ${kv.key} in double quotes ("..."), as the export does.`, l.no);
        fields.set(kv.key, kv.value);
      };
      put(first);
      i++;
      while (i < lines.length && lines[i]!.indent > 6) {
        expect(lines[i]!, 8, false);
        put(lines[i]!);
        i++;
      }
      const missing = BINDING_KEYS.filter((k) => !fields.has(k));
      if (missing.length > 0) throw new AclFileError(`This ACL lacks ${missing.join(", ")}.`, first.no);
      out.push(bindingAt({ ...Object.fromEntries(fields), principal: p.value }, first.no));
    }
  }
  return i;
}

// ---- import ----------------------------------------------------------------------------

/** A file the console cannot read, with the (1-based) line where it went wrong when known. */
export class AclFileError extends Error {
  constructor(
    message: string,
    readonly line: number | null = null,
  ) {
    super(message);
    this.name = "AclFileError";
  }
}

function bindingAt(value: Record<string, unknown>, line: number | null, where = "ACL"): AclBinding {
  let b: AclBinding;
  try {
    b = parseAclBinding(value, where, { lenient: true });
  } catch (e) {
    if (e instanceof PolicyInputError) throw new AclFileError(e.message.replace(/^ACL\./, ""), line);
    throw e;
  }
  for (const field of ["principal", "resourceName", "host"] as const) {
    const problem = unsafeTextProblem(b[field]);
    if (problem) throw new AclFileError(`${field}: ${problem}`, line);
  }
  return b;
}

function parseJson(text: string): AclBinding[] {
  if (jsonNestsDeeperThan(text))
    throw new AclFileError(
      `The file nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep; an ACL file needs 3.`,
    );
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new AclFileError(`The file is not valid JSON: ${(e as Error).message}`);
  }
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const doc = value as Record<string, unknown>;
    if (doc.format !== undefined && doc.format !== ACL_FILE_FORMAT_ID)
      throw new AclFileError(`format must be ${ACL_FILE_FORMAT_ID}.`);
    if (doc.version !== undefined && doc.version !== ACL_FILE_VERSION)
      throw new AclFileError(`This console reads version ${ACL_FILE_VERSION} files.`);
    if (!("acls" in doc))
      throw new AclFileError('The JSON document needs an "acls" array (or be an array of ACL bindings itself).');
  }
  let list: AclBinding[];
  try {
    list = parseAclList(value, "acls", { lenient: true });
  } catch (e) {
    if (e instanceof PolicyInputError) throw new AclFileError(e.message);
    throw e;
  }
  list.forEach((b, i) => bindingAt({ ...b }, null, `acls[${i}]`));
  return list;
}

/** The format a text is in: by its file name when given, else by its first character. */
export function detectAclFileFormat(text: string, fileName?: string | null): AclFileFormat {
  const ext = fileName?.toLowerCase().match(/\.(json|csv|ya?ml)$/)?.[1];
  if (ext) return ext === "yml" ? "yaml" : (ext as AclFileFormat);
  const start = text.replace(/^\ufeff/, "").trimStart();
  if (start.startsWith("{") || start.startsWith("[")) return "json";
  if (/^(Principal|ResourceType|PatternType|ResourceName|Operation|PermissionType|Host)\s*,/.test(start)) return "csv";
  return "yaml";
}

export type ParsedAclFile =
  | { ok: true; format: AclFileFormat; bindings: AclBinding[] }
  | { ok: false; format: AclFileFormat; message: string; line: number | null };

/** Every binding of the file, in file order; or what is wrong and where. */
export function parseAclFile(
  text: string,
  format: AclFileFormat | "auto" = "auto",
  fileName?: string | null,
): ParsedAclFile {
  const chosen = format === "auto" ? detectAclFileFormat(text, fileName) : format;
  try {
    const bindings = chosen === "json" ? parseJson(text) : chosen === "csv" ? parseCsv(text) : parseYaml(text);
    return { ok: true, format: chosen, bindings };
  } catch (e) {
    if (e instanceof AclFileError) {
      const where = e.line === null ? "" : `Line ${e.line}: `;
      return { ok: false, format: chosen, message: `${where}${e.message}`, line: e.line };
    }
    if (e instanceof PolicyInputError) return { ok: false, format: chosen, message: e.message, line: null };
    throw e;
  }
}
