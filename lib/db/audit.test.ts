import { describe, expect, it } from "vitest";
import { auditToCsv, csvCell, redactSecrets, type AuditEvent } from "./audit";

describe("redactSecrets", () => {
  it("redacts secret-named keys at any depth, whatever their case or separators", () => {
    const input = {
      username: "alice",
      password: "hunter2",
      Password: "x",
      mechanism: "SCRAM-SHA-512",
      nested: {
        deeper: [
          { HMAC: "abc", tokenId: "tok-1" },
          { saltedPassword: "s", salt: "pepper", iterations: 4096 },
        ],
        client_secret: "cs",
        "token-value": "tv",
        tokenValue: "tv2",
        credential: { anything: "inside" },
        encryptedCredential: "v1.aaaa",
        "sasl.jaas.config": 'org.apache.kafka.common.security.scram.ScramLoginModule required password="p";',
      },
    };
    expect(redactSecrets(input)).toEqual({
      username: "alice",
      password: "[redacted]",
      Password: "[redacted]",
      mechanism: "SCRAM-SHA-512",
      nested: {
        deeper: [
          { HMAC: "[redacted]", tokenId: "tok-1" },
          { saltedPassword: "[redacted]", salt: "pepper", iterations: 4096 },
        ],
        client_secret: "[redacted]",
        "token-value": "[redacted]",
        tokenValue: "[redacted]",
        credential: "[redacted]",
        encryptedCredential: "[redacted]",
        "sasl.jaas.config": "[redacted]",
      },
    });
  });

  it("redacts the value of a config entry whose name is secret, and keeps the others", () => {
    const configs = [
      { name: "sasl.jaas.config", value: '… password="p"' },
      { name: "ssl.key.password", value: "kp" },
      { name: "retention.ms", value: "1000" },
      { key: "ssl.keystore.key", value: "-----BEGIN PRIVATE KEY-----" },
    ];
    expect(redactSecrets({ configs })).toEqual({
      configs: [
        { name: "sasl.jaas.config", value: "[redacted]" },
        { name: "ssl.key.password", value: "[redacted]" },
        { name: "retention.ms", value: "1000" },
        { key: "ssl.keystore.key", value: "[redacted]" },
      ],
    });
  });

  it("does not mutate its input and makes odd values JSON-safe", () => {
    const input: Record<string, unknown> = {
      password: "p",
      n: 10n,
      when: new Date("2026-11-30T06:00:00Z"),
      bytes: Buffer.from("secret!"),
    };
    input.self = input;
    const out = redactSecrets(input) as Record<string, unknown>;
    expect(input.password).toBe("p");
    expect(out).toEqual({
      password: "[redacted]",
      n: "10",
      when: "2026-11-30T06:00:00.000Z",
      bytes: "[binary 7 bytes]",
      self: "[circular]",
    });
    expect(() => JSON.stringify(out)).not.toThrow();
    expect(JSON.stringify(out)).not.toContain("secret!");
  });

  it("scrubs password=… assignments inside string values under innocent keys", () => {
    const jaas = 'org.apache.kafka.common.security.scram.ScramLoginModule required username="svc" password="s3cr3t";';
    expect(redactSecrets({ config: jaas, note: "password: must be rotated", other: "secret=abc,next=1" })).toEqual({
      config: 'org.apache.kafka.common.security.scram.ScramLoginModule required username="svc" password="[redacted]";',
      note: "password: must be rotated",
      other: 'secret="[redacted]",next=1',
    });
  });

  it("keeps null secrets as null (nothing to hide) and leaves non-secret look-alikes alone", () => {
    expect(redactSecrets({ hmac: null, tokenId: "t", owner: "User:svc", renewers: ["User:a"] })).toEqual({
      hmac: null,
      tokenId: "t",
      owner: "User:svc",
      renewers: ["User:a"],
    });
  });
});

function event(over: Partial<AuditEvent>): AuditEvent {
  return {
    id: "1",
    at: new Date("2026-11-30T06:00:00.000Z"),
    principal: "User:alice",
    action: "acl.create",
    target: "TOPIC:orders LITERAL",
    request: null,
    before: null,
    after: null,
    outcome: "success",
    kafkaError: null,
    message: null,
    category: "acl",
    subjects: [],
    completedAt: new Date("2026-11-30T06:00:00.000Z"),
    repeatCount: 1,
    lastAt: null,
    planId: null,
    ...over,
  };
}

/** A small RFC 4180 parser to check the output round-trips. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(cell);
      cell = "";
    } else if (ch === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += ch;
  }
  return rows;
}

describe("auditToCsv", () => {
  it("writes a header and one CRLF-terminated row per event, quoting per RFC 4180", () => {
    const csv = auditToCsv([
      event({
        message: 'Kafka said "no", twice\nsecond line',
        request: { resource: "orders", ops: ["READ", "WRITE"] },
      }),
      event({ id: "2", outcome: "denied", kafkaError: "TOPIC_AUTHORIZATION_FAILED" }),
    ]);
    expect(csv.endsWith("\r\n")).toBe(true);
    const rows = parseCsv(csv);
    expect(rows[0]).toEqual([
      "id",
      "at",
      "principal",
      "action",
      "target",
      "outcome",
      "kafkaError",
      "message",
      "request",
      "before",
      "after",
    ]);
    expect(rows[1]).toEqual([
      "1",
      "2026-11-30T06:00:00.000Z",
      "User:alice",
      "acl.create",
      "TOPIC:orders LITERAL",
      "success",
      "",
      'Kafka said "no", twice\nsecond line',
      '{"resource":"orders","ops":["READ","WRITE"]}',
      "",
      "",
    ]);
    expect(rows[2]?.[5]).toBe("denied");
    expect(rows[2]?.[6]).toBe("TOPIC_AUTHORIZATION_FAILED");
    expect(rows).toHaveLength(3);
  });

  it("neutralises spreadsheet formulas in any cell", () => {
    const csv = auditToCsv([
      event({
        principal: '=HYPERLINK("http://evil")',
        target: "+1",
        message: "-2+3",
        action: "@SUM(A1)",
        kafkaError: "\tx",
      }),
    ]);
    const row = parseCsv(csv)[1]!;
    expect(row[2]).toBe('\'=HYPERLINK("http://evil")');
    expect(row[3]).toBe("'@SUM(A1)");
    expect(row[4]).toBe("'+1");
    expect(row[6]).toBe("'\tx");
    expect(row[7]).toBe("'-2+3");
    for (const cell of row) expect(cell).not.toMatch(/^[=+\-@\t]/);
  });

  it("leaves plain cells unquoted", () => {
    expect(csvCell("User:alice")).toBe("User:alice");
    expect(csvCell(null)).toBe("");
    expect(csvCell("a,b")).toBe('"a,b"');
  });
});
