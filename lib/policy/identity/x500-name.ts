/**
 * The distinguished name Kafka sees for a client certificate: the broker takes
 * `X500Principal.getName()` of the peer's certificate subject, Java's RFC 2253 form, and
 * feeds it to `ssl.principal.mapping.rules`. That string is not what `openssl x509
 * -subject` prints:
 *
 *   openssl:  subject=C = US, O = Acme, OU = ServiceUsers, CN = svc-orders
 *   Kafka:    CN=svc-orders,OU=ServiceUsers,O=Acme,C=US
 *
 * Mirrors sun.security.x509.X500Name#getRFC2253Name / RDN / AVA#toRFC2253String of JDK 17:
 *  - RDNs last to first, joined by ","; the AVAs of a multi-valued RDN in encoded order,
 *    joined by "+";
 *  - keywords only for CN, C, L, ST, O, OU, STREET, DC, UID; every other attribute as its
 *    dotted OID, and then the value as "#" + lower-case hex of its whole DER encoding;
 *  - a value that is not a PrintableString, T61String, IA5String, GeneralString,
 *    BMPString or UTF8String is "#hex" too (e.g. UniversalString);
 *  - otherwise the text, with `, = + < > # ; " \` escaped by a backslash, NUL as `\00`,
 *    and leading and trailing spaces (and CRs) escaped; nothing else is escaped, so
 *    non-ASCII letters appear as themselves.
 *
 * Pure: takes DER bytes (the server parses the PEM with node:crypto and hands over the
 * certificate's raw bytes).
 */

const KEYWORDS: Readonly<Record<string, string>> = {
  "2.5.4.3": "CN",
  "2.5.4.6": "C",
  "2.5.4.7": "L",
  "2.5.4.8": "ST",
  "2.5.4.10": "O",
  "2.5.4.11": "OU",
  "2.5.4.9": "STREET",
  "0.9.2342.19200300.100.1.25": "DC",
  "0.9.2342.19200300.100.1.1": "UID",
};
const OID_BY_KEYWORD: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(KEYWORDS).map(([oid, k]) => [k, oid]),
);

/** Keywords Java prints in RFC 2253 names; every other attribute type is printed as its OID. */
export const RFC2253_KEYWORDS: readonly string[] = Object.values(KEYWORDS);

const TAG = {
  UTF8: 0x0c,
  PRINTABLE: 0x13,
  T61: 0x14,
  IA5: 0x16,
  GENERAL: 0x1b,
  BMP: 0x1e,
  SEQUENCE: 0x30,
  SET: 0x31,
  OID: 0x06,
} as const;

export class DerError extends Error {
  override name = "DerError";
}

interface Tlv {
  tag: number;
  /** Offsets into the buffer: the whole TLV, and its contents. */
  start: number;
  contentStart: number;
  end: number;
}

function readTlv(der: Uint8Array, at: number, limit: number): Tlv {
  if (at + 2 > limit) throw new DerError("truncated DER value");
  const tag = der[at]!;
  if ((tag & 0x1f) === 0x1f) throw new DerError("multi-byte DER tags are not used in certificates");
  let length = der[at + 1]!;
  let contentStart = at + 2;
  if (length & 0x80) {
    const bytes = length & 0x7f;
    if (bytes === 0 || bytes > 4) throw new DerError("unsupported DER length");
    if (contentStart + bytes > limit) throw new DerError("truncated DER length");
    length = 0;
    for (let i = 0; i < bytes; i++) length = length * 256 + der[contentStart + i]!;
    contentStart += bytes;
  }
  const end = contentStart + length;
  if (end > limit) throw new DerError("DER value longer than its container");
  return { tag, start: at, contentStart, end };
}

function children(der: Uint8Array, parent: Tlv): Tlv[] {
  const out: Tlv[] = [];
  for (let at = parent.contentStart; at < parent.end;) {
    const t = readTlv(der, at, parent.end);
    out.push(t);
    at = t.end;
  }
  return out;
}

function expect(t: Tlv | undefined, tag: number, what: string): Tlv {
  if (t === undefined || t.tag !== tag) throw new DerError(`expected ${what}`);
  return t;
}

function decodeOid(bytes: Uint8Array): string {
  const arcs: number[] = [];
  let value = 0;
  for (const b of bytes) {
    value = value * 128 + (b & 0x7f);
    if ((b & 0x80) === 0) {
      if (arcs.length === 0) {
        const first = value < 80 ? Math.floor(value / 40) : 2;
        arcs.push(first, value - first * 40);
      } else arcs.push(value);
      value = 0;
    }
  }
  return arcs.join(".");
}

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

/**
 * JDK 17's AVA reads the bytes of every string type as UTF-8 (`new String(bytes, UTF_8)`);
 * later JDKs decode BMPString as UTF-16BE and the 8-bit types as ISO-8859-1. The two agree
 * on UTF8String and on ASCII text in the 8-bit types; `jdkDependent` says when they do not.
 */
function decodeText(tag: number, bytes: Uint8Array): { text: string; jdkDependent: boolean } | null {
  switch (tag) {
    case TAG.UTF8:
      return { text: new TextDecoder("utf-8").decode(bytes), jdkDependent: false };
    case TAG.BMP:
    case TAG.PRINTABLE:
    case TAG.T61:
    case TAG.IA5:
    case TAG.GENERAL:
      return {
        text: new TextDecoder("utf-8").decode(bytes),
        jdkDependent: tag === TAG.BMP || bytes.some((b) => b >= 0x80),
      };
    default:
      return null;
  }
}

const ESCAPEES = ',=+<>#;"\\';

/** AVA#toRFC2253String's escaping of a string value. */
export function escapeRfc2253Value(value: string): string {
  let s = "";
  for (const c of value) {
    // Java walks UTF-16 units; the characters escaped here are all single units.
    if (ESCAPEES.includes(c)) s += "\\" + c;
    else if (c === "\u0000") s += "\\00";
    else s += c;
  }
  const units = s.split("");
  let lead = 0;
  while (lead < units.length && (units[lead] === " " || units[lead] === "\r")) lead++;
  let trail = units.length - 1;
  while (trail >= 0 && (units[trail] === " " || units[trail] === "\r")) trail--;
  return units.map((c, i) => (i < lead || i > trail ? "\\" + c : c)).join("");
}

function avaToString(der: Uint8Array, ava: Tlv, notes: string[]): string {
  const [typeTlv, valueTlv] = children(der, expect(ava, TAG.SEQUENCE, "an attribute (SEQUENCE)"));
  const oid = decodeOid(der.subarray(expect(typeTlv, TAG.OID, "an attribute type (OID)").contentStart, typeTlv!.end));
  if (valueTlv === undefined) throw new DerError("attribute without a value");
  const keyword = KEYWORDS[oid] ?? oid;
  const decoded = keyword === oid ? null : decodeText(valueTlv.tag, der.subarray(valueTlv.contentStart, valueTlv.end));
  if (decoded === null) return `${keyword}=#${hex(der.subarray(valueTlv.start, valueTlv.end))}`;
  if (decoded.jdkDependent)
    notes.push(
      `${keyword} is not a UTF8String with non-ASCII text: brokers on JDK 17 and on later JDKs print it ` +
        `differently (this is JDK 17's form).`,
    );
  return `${keyword}=${escapeRfc2253Value(decoded.text)}`;
}

/**
 * X500Principal(der).getName(): the RFC 2253 string of a DER-encoded Name. `notes` collects
 * what a reader should know (values whose form depends on the broker's JDK).
 */
export function rfc2253FromNameDer(
  der: Uint8Array,
  name: Tlv = readTlv(der, 0, der.length),
  notes: string[] = [],
): string {
  const rdns = children(der, expect(name, TAG.SEQUENCE, "a Name (SEQUENCE)"));
  return rdns
    .map((rdn) =>
      children(der, expect(rdn, TAG.SET, "a relative distinguished name (SET)"))
        .map((ava) => avaToString(der, ava, notes))
        .join("+"),
    )
    .reverse()
    .join(",");
}

/**
 * The subject of a DER-encoded X.509 certificate, as Kafka sees it
 * (X509Certificate#getSubjectX500Principal().getName()).
 */
export function certificateSubjectRfc2253(certificateDer: Uint8Array, notes: string[] = []): string {
  return rfc2253FromNameDer(certificateDer, certificateNameTlvs(certificateDer).subject, notes);
}

/** The issuer of a DER-encoded X.509 certificate, in the same form. */
export function certificateIssuerRfc2253(certificateDer: Uint8Array, notes: string[] = []): string {
  return rfc2253FromNameDer(certificateDer, certificateNameTlvs(certificateDer).issuer, notes);
}

function certificateNameTlvs(der: Uint8Array): { issuer: Tlv; subject: Tlv } {
  const cert = expect(readTlv(der, 0, der.length), TAG.SEQUENCE, "a certificate (SEQUENCE)");
  const tbs = expect(children(der, cert)[0], TAG.SEQUENCE, "the certificate's contents (SEQUENCE)");
  const fields = children(der, tbs);
  // version [0] EXPLICIT is optional; then serialNumber, signature, issuer, validity, subject.
  const offset = fields[0]?.tag === 0xa0 ? 1 : 0;
  return {
    issuer: expect(fields[offset + 2], TAG.SEQUENCE, "the issuer (SEQUENCE)"),
    subject: expect(fields[offset + 4], TAG.SEQUENCE, "the subject (SEQUENCE)"),
  };
}

// ---- distinguished names written as text ---------------------------------------------------

export interface DnAttribute {
  /** The keyword as Java prints it (CN, OU, ...) or the dotted OID. */
  readonly type: string;
  /** The value's text; null when it was written as #hex (kept in `hex`). */
  readonly value: string | null;
  readonly hex: string | null;
}

/**
 * Reads a distinguished name written in RFC 2253 style (`CN=alice,OU=Eng,O=Acme`; spaces
 * around separators, `\,` and `\2C` escapes, quoted values and `#hex` values accepted) into
 * its RDNs, first written first. Returns null when the text is not a DN: no `type=value`
 * pairs, an unknown keyword (only the nine Java prints, or dotted OIDs), or broken escapes.
 */
export function parseDistinguishedName(text: string): DnAttribute[][] | null {
  const rdns: DnAttribute[][] = [];
  let rdn: DnAttribute[] = [];
  let i = 0;
  const n = text.length;
  const skipSpaces = () => {
    while (i < n && text[i] === " ") i++;
  };
  for (;;) {
    skipSpaces();
    const typeStart = i;
    while (i < n && text[i] !== "=" && text[i] !== "," && text[i] !== "+") i++;
    if (i >= n || text[i] !== "=") return null;
    const rawType = text.slice(typeStart, i).trim();
    i++;
    let type: string;
    if (/^\d+(\.\d+)+$/.test(rawType)) type = KEYWORDS[rawType] ?? rawType;
    else if (/^oid\.\d+(\.\d+)+$/i.test(rawType)) type = KEYWORDS[rawType.slice(4)] ?? rawType.slice(4);
    else if (OID_BY_KEYWORD[rawType.toUpperCase()] !== undefined) type = rawType.toUpperCase();
    else return null;
    skipSpaces();
    let value: string | null = "";
    let hexValue: string | null = null;
    if (text[i] === "#") {
      const m = /^#((?:[0-9a-fA-F]{2})+)/.exec(text.slice(i));
      if (!m) return null;
      hexValue = m[1]!.toLowerCase();
      value = null;
      i += m[0].length;
      skipSpaces();
    } else if (text[i] === '"') {
      i++;
      while (i < n && text[i] !== '"') {
        if (text[i] === "\\") {
          if (i + 1 >= n) return null;
          value += text[i + 1];
          i += 2;
        } else value += text[i++];
      }
      if (i >= n) return null;
      i++;
      skipSpaces();
    } else {
      const bytes: number[] = [];
      const flush = () => {
        if (bytes.length > 0) {
          value += new TextDecoder("utf-8").decode(new Uint8Array(bytes));
          bytes.length = 0;
        }
      };
      let trailingSpaces = 0;
      while (i < n && text[i] !== "," && text[i] !== "+" && text[i] !== ";") {
        const c = text[i]!;
        if (c === "\\") {
          const h = text.slice(i + 1, i + 3);
          if (/^[0-9a-fA-F]{2}$/.test(h)) {
            bytes.push(parseInt(h, 16));
            i += 3;
          } else if (i + 1 < n) {
            flush();
            value += text[i + 1];
            i += 2;
          } else return null;
          trailingSpaces = 0;
        } else {
          flush();
          if (c === "=" || c === '"' || c === "<" || c === ">" || c === "#") return null;
          value += c;
          trailingSpaces = c === " " ? trailingSpaces + 1 : 0;
          i++;
        }
      }
      flush();
      if (trailingSpaces > 0) value = value.slice(0, value.length - trailingSpaces);
    }
    rdn.push({ type, value, hex: hexValue });
    if (i >= n) {
      rdns.push(rdn);
      return rdns;
    }
    if (text[i] === "+") {
      i++;
      continue;
    }
    rdns.push(rdn);
    rdn = [];
    i++;
  }
}

/**
 * The RFC 2253 string Java prints for the DN written as `text` (X500Principal(text).getName()
 * for names whose values are text), or null when `text` is not a DN this can read. Values of
 * attributes Java prints as OIDs come out as null too (their #hex depends on the string type).
 */
export function normalizeDistinguishedName(text: string): string | null {
  const rdns = parseDistinguishedName(text);
  if (rdns === null) return null;
  const out: string[] = [];
  for (const rdn of rdns) {
    const avas: string[] = [];
    for (const a of rdn) {
      if (a.hex !== null) avas.push(`${a.type}=#${a.hex}`);
      else if (OID_BY_KEYWORD[a.type] === undefined) return null;
      else avas.push(`${a.type}=${escapeRfc2253Value(a.value ?? "")}`);
    }
    out.push(avas.join("+"));
  }
  return out.join(",");
}
