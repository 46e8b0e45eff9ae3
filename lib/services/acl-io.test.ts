/**
 * The ACL file formats: what the export writes, what the import reads back (exactly, for
 * every name the console accepts), and the refusals of a hand-edited file, with the line.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { OPERATIONS, PATTERN_TYPES, PERMISSION_TYPES, RESOURCE_TYPES, type AclBinding } from "@/lib/policy";
import { unsafeTextProblem } from "@/lib/schemas/safe-text";
import {
  ACL_FILE_FORMATS,
  aclsToCsv,
  aclsToJson,
  aclsToYaml,
  csvCell,
  detectAclFileFormat,
  groupByPrincipal,
  parseAclFile,
  serializeAcls,
  sortForExport,
  yamlQuote,
  type AclFileFormat,
} from "./acl-io";

// An independent YAML 1.2 parser to check the emitter against. It is not a dependency of the
// console (the console writes and reads its YAML itself); npm installs it with the dev tools
// (eslint, swagger-parser). A variable specifier: it ships no type declarations.
const YAML_PARSER = "js-yaml";
const yaml = (await import(YAML_PARSER)) as { load(text: string): unknown };

const meta = { exportedAt: "2026-12-01T10:00:00.000Z" };

const b = (over: Partial<AclBinding> = {}): AclBinding => ({
  resourceType: "TOPIC",
  resourceName: "orders",
  patternType: "LITERAL",
  principal: "User:alice",
  host: "*",
  operation: "READ",
  permissionType: "ALLOW",
  ...over,
});

const sample: AclBinding[] = [
  b({ principal: "User:bob", operation: "WRITE" }),
  b(),
  b({ resourceType: "GROUP", resourceName: "orders-", patternType: "PREFIXED" }),
  b({ principal: "User:*", permissionType: "DENY", host: "10.0.0.1", resourceName: "*" }),
];

function roundTrip(acls: readonly AclBinding[], format: AclFileFormat): AclBinding[] {
  const parsed = parseAclFile(serializeAcls(acls, format, meta), format);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.bindings;
}

describe("the export", () => {
  it("YAML groups by principal, principals and ACLs in a stable order, free text double-quoted", () => {
    expect(aclsToYaml(sample, meta)).toBe(
      [
        "# Kafka ACLs exported by the Kafka Security Console, grouped by principal.",
        "# Edit and import it at /acls/import: add only, or sync within a scope.",
        "format: kafka-security-console/acls",
        "version: 1",
        'exportedAt: "2026-12-01T10:00:00.000Z"',
        "principals:",
        '  - principal: "User:*"',
        "    acls:",
        "      - resourceType: TOPIC",
        '        resourceName: "*"',
        "        patternType: LITERAL",
        "        operation: READ",
        "        permissionType: DENY",
        '        host: "10.0.0.1"',
        '  - principal: "User:alice"',
        "    acls:",
        "      - resourceType: GROUP",
        '        resourceName: "orders-"',
        "        patternType: PREFIXED",
        "        operation: READ",
        "        permissionType: ALLOW",
        '        host: "*"',
        "      - resourceType: TOPIC",
        '        resourceName: "orders"',
        "        patternType: LITERAL",
        "        operation: READ",
        "        permissionType: ALLOW",
        '        host: "*"',
        '  - principal: "User:bob"',
        "    acls:",
        "      - resourceType: TOPIC",
        '        resourceName: "orders"',
        "        patternType: LITERAL",
        "        operation: WRITE",
        "        permissionType: ALLOW",
        '        host: "*"',
        "",
      ].join("\n"),
    );
    expect(aclsToYaml([], meta)).toContain("\nprincipals: []\n");
  });

  it("JSON is the policy CLI's shape ({ acls: [binding] }) with the file's format and version", () => {
    const doc = JSON.parse(aclsToJson(sample, meta)) as { format: string; version: number; acls: AclBinding[] };
    expect(doc.format).toBe("kafka-security-console/acls");
    expect(doc.version).toBe(1);
    expect(doc.acls).toEqual(sortForExport(sample));
    expect(Object.keys(doc.acls[0]!)).toEqual([
      "resourceType",
      "resourceName",
      "patternType",
      "principal",
      "host",
      "operation",
      "permissionType",
    ]);
  });

  it("CSV has the policy CLI's header, CRLF lines, and neutralises spreadsheet formulas reversibly", () => {
    const csv = aclsToCsv([
      b({ resourceName: "=HYPERLINK(1)" }),
      b({ resourceName: "'-x" }),
      b({ resourceName: "a,b" }),
    ]);
    expect(csv.split("\r\n")[0]).toBe("Principal,ResourceType,PatternType,ResourceName,Operation,PermissionType,Host");
    expect(csv).toContain("'=HYPERLINK(1)");
    expect(csv).toContain("''-x");
    expect(csv).toContain('"a,b"');
    expect(csvCell("'plain")).toBe("'plain");
    expect(
      roundTrip(
        [b({ resourceName: "=HYPERLINK(1)" }), b({ resourceName: "'-x" }), b({ resourceName: "'plain" })],
        "csv",
      ).map((x) => x.resourceName),
    ).toEqual(["'-x", "'plain", "=HYPERLINK(1)"]);
  });

  it("each binding once (Kafka's set)", () => {
    expect(sortForExport([b(), b(), b({ host: "1.2.3.4" })])).toHaveLength(2);
    expect(
      groupByPrincipal([b(), b({ principal: "User:bob" }), b({ operation: "WRITE" })]).map((g) => [
        g.principal,
        g.acls.length,
      ]),
    ).toEqual([
      ["User:alice", 2],
      ["User:bob", 1],
    ]);
  });

  it("quotes every character YAML cannot carry plainly as an escape", () => {
    expect(yamlQuote('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(yamlQuote("tab\tnl\ncr\r")).toBe('"tab\\tnl\\ncr\\r"');
    expect(yamlQuote("del\u007f c1\u0085 ls\u2028 bom\ufeff")).toBe('"del\\x7F c1\\x85 ls\\u2028 bom\\uFEFF"');
    expect(yamlQuote("été 🦀 東京")).toBe('"été 🦀 東京"');
  });
});

// Every name the console accepts (no NUL, no C0 control but tab/CR/LF, no lone surrogate),
// with the awkward corners: quotes, backslashes, YAML and CSV syntax, formula triggers.
const awkward = fc.constantFrom(
  "*",
  "-",
  "=",
  "+",
  "@",
  "'",
  '"',
  "\\",
  "#",
  ":",
  ",",
  " ",
  "\t",
  "\n",
  "\r",
  "\u0085",
  "\u2028",
  "\ufeff",
  "é",
  "🦀",
  "\u007f",
  "[]",
  "{}",
  "&",
  "!",
  "%",
  "|",
  ">",
);
const name = fc
  .array(fc.oneof(fc.string({ unit: "grapheme", maxLength: 4 }), awkward), { maxLength: 6 })
  .map((parts) => parts.join(""))
  .filter((s) => unsafeTextProblem(s) === null);
const binding: fc.Arbitrary<AclBinding> = fc.record({
  resourceType: fc.constantFrom(...RESOURCE_TYPES),
  resourceName: name,
  patternType: fc.constantFrom(...PATTERN_TYPES),
  principal: fc.oneof(
    fc.constantFrom("User:alice", "User:*", "Group:ops"),
    name.map((n) => `User:${n}`),
  ),
  host: fc.oneof(fc.constantFrom("*", "10.0.0.1", "::1"), name),
  operation: fc.constantFrom(...OPERATIONS),
  permissionType: fc.constantFrom(...PERMISSION_TYPES),
});

describe("round trip (property)", () => {
  for (const format of ACL_FILE_FORMATS) {
    it(`${format}: import(export(acls)) is the ACL set, in export order`, () => {
      fc.assert(
        fc.property(fc.array(binding, { maxLength: 12 }), (acls) => {
          expect(roundTrip(acls, format)).toEqual(sortForExport(acls));
        }),
        { numRuns: 1500 },
      );
    });
  }

  it("every format reads back what every other wrote", () => {
    fc.assert(
      fc.property(fc.array(binding, { maxLength: 8 }), (acls) => {
        const fromYaml = roundTrip(acls, "yaml");
        expect(roundTrip(fromYaml, "csv")).toEqual(fromYaml);
        expect(roundTrip(fromYaml, "json")).toEqual(fromYaml);
      }),
      { numRuns: 500 },
    );
  });

  it("the YAML is YAML: an independent YAML parser (js-yaml) reads the same bindings", () => {
    fc.assert(
      fc.property(fc.array(binding, { maxLength: 8 }), (acls) => {
        const doc = yaml.load(aclsToYaml(acls, meta)) as {
          principals: { principal: string; acls: Omit<AclBinding, "principal">[] }[];
        };
        const read = doc.principals.flatMap((g) => g.acls.map((a) => ({ ...a, principal: g.principal })));
        expect(sortForExport(read)).toEqual(sortForExport(acls));
      }),
      { numRuns: 1000 },
    );
  });
});

describe("the import", () => {
  const yamlOf = (...lines: string[]) => lines.join("\n");
  const header = ["format: kafka-security-console/acls", "version: 1", "principals:"];
  const oneAcl = [
    '  - principal: "User:alice"',
    "    acls:",
    "      - resourceType: TOPIC",
    '        resourceName: "orders"',
    "        patternType: LITERAL",
  ];

  it("reads a hand-edited YAML file: comments, blank lines, keys in any order, PascalCase enums, \\u escapes", () => {
    const parsed = parseAclFile(
      yamlOf(
        "---",
        "# my team's ACLs",
        "principals:",
        "",
        '  - principal: "User:svc-orders"   # the service',
        "    acls:",
        '      - host: "*"',
        "        operation: Write",
        "        permissionType: ALLOW",
        "        resourceType: TransactionalId",
        '        resourceName: "orders-\\u00e9"',
        "        patternType: PREFIXED",
        '  - principal: "User:empty"',
        "    acls: []",
      ),
    );
    expect(parsed).toEqual({
      ok: true,
      format: "yaml",
      bindings: [
        b({
          principal: "User:svc-orders",
          operation: "WRITE",
          resourceType: "TRANSACTIONAL_ID",
          resourceName: "orders-é",
          patternType: "PREFIXED",
        }),
      ],
    });
  });

  const refusals: { name: string; text: string; message: string }[] = [
    {
      name: "an unquoted resource name",
      text: yamlOf(...header, ...oneAcl.slice(0, 3), "        resourceName: orders"),
      message: 'Line 7: Write resourceName in double quotes ("...")',
    },
    {
      name: "a single-quoted principal",
      text: yamlOf(...header, "  - principal: 'User:alice'"),
      message: "Line 4: Write principal in double quotes",
    },
    {
      name: "a wrong indentation",
      text: yamlOf(...header, ...oneAcl, "         operation: READ"),
      message: "Line 9: Expected a key indented by 8 spaces",
    },
    {
      name: "a missing field",
      text: yamlOf(...header, ...oneAcl, "        operation: READ"),
      message: "Line 6: This ACL lacks permissionType, host.",
    },
    {
      name: "a duplicated field",
      text: yamlOf(...header, ...oneAcl, "        patternType: PREFIXED"),
      message: "Line 9: patternType is given twice in this ACL.",
    },
    {
      name: "an unknown key",
      text: yamlOf(...header, ...oneAcl, '        principal: "User:x"'),
      message: "Line 9: Unknown key principal in an ACL",
    },
    {
      name: "an unknown operation",
      text: yamlOf(
        ...header,
        ...oneAcl,
        "        operation: READS",
        "        permissionType: ALLOW",
        '        host: "*"',
      ),
      message: "Line 6: operation must be one of",
    },
    {
      name: "NUL through an escape",
      text: yamlOf(
        ...header,
        ...oneAcl,
        "        operation: READ",
        "        permissionType: ALLOW",
        '        host: "a\\0"',
      ),
      message: "Line 6: host: Must not contain the NUL character",
    },
    {
      name: "an unclosed quote",
      text: yamlOf(...header, '  - principal: "User:alice'),
      message: "Line 4: The quoted text is not closed",
    },
    {
      name: "no principals list",
      text: yamlOf("format: kafka-security-console/acls"),
      message: "The file has no principals list",
    },
    {
      name: "another format",
      text: yamlOf("format: something-else", "principals: []"),
      message: "Line 1: format must be kafka-security-console/acls",
    },
    {
      name: "text after a value",
      text: yamlOf(...header, '  - principal: "User:alice" extra'),
      message: 'Line 4: Unexpected text after the value: "extra".',
    },
  ];
  for (const r of refusals) {
    it(`refuses ${r.name}, saying where`, () => {
      const parsed = parseAclFile(r.text, "yaml");
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.message).toContain(r.message);
    });
  }

  it("reads JSON as exported, a bare array, and refuses other documents clearly", () => {
    expect(parseAclFile(JSON.stringify([b()]))).toEqual({ ok: true, format: "json", bindings: [b()] });
    expect(parseAclFile('{"acls": []}')).toEqual({ ok: true, format: "json", bindings: [] });
    expect(parseAclFile('{"bindings": []}')).toMatchObject({
      ok: false,
      message: expect.stringContaining('needs an "acls" array'),
    });
    expect(parseAclFile("{not json")).toMatchObject({ ok: false, message: expect.stringContaining("not valid JSON") });
    expect(parseAclFile(JSON.stringify([{ ...b(), host: "\u0001" }]))).toMatchObject({
      ok: false,
      message: expect.stringContaining("control characters"),
    });
  });

  it("refuses a JSON file nested thousands of levels deep with a message, not a stack overflow", () => {
    for (const depth of [65, 5_000, 100_000]) {
      for (const text of [
        `{"acls":${"[".repeat(depth)}${"]".repeat(depth)}}`,
        `[${'{"a":'.repeat(depth)}1${"}".repeat(depth)}]`,
      ]) {
        expect(parseAclFile(text), `${depth}`).toEqual({
          ok: false,
          format: "json",
          message: "The file nests arrays and objects more than 64 levels deep; an ACL file needs 3.",
          line: null,
        });
      }
    }
  });

  it("reads CSV with any column order and refuses a row with a missing cell", () => {
    const csv =
      "Host,Principal,ResourceType,PatternType,ResourceName,Operation,PermissionType\n*,User:alice,Topic,Litera" +
      "l,orders,Read,Allow\n";
    expect(parseAclFile(csv)).toEqual({ ok: true, format: "csv", bindings: [b()] });
    expect(
      parseAclFile(
        "Principal,ResourceType,PatternType,ResourceName,Operation,PermissionType,Host\nUser:a,TOPIC,LITERAL,x," +
          "READ,ALLOW\n",
      ),
    ).toMatchObject({
      ok: false,
      message: "Line 2: 6 cells where the header has 7.",
    });
  });

  it("detects the format from the file name, else from the content", () => {
    expect(detectAclFileFormat("", "acls.yml")).toBe("yaml");
    expect(detectAclFileFormat("", "ACLS.CSV")).toBe("csv");
    expect(detectAclFileFormat('  {"acls":[]}')).toBe("json");
    expect(detectAclFileFormat("Principal,ResourceType\n")).toBe("csv");
    expect(detectAclFileFormat("principals: []\n")).toBe("yaml");
  });
});
