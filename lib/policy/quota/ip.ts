/**
 * IP address literals as java.net.InetAddress.getByName reads them, without DNS.
 *
 * Kafka keys IP quotas by InetAddress, so `1.2.3.4`, `001.002.003.004` and `16909060` are the
 * same entity, `::1` equals `0:0:0:0:0:0:0:1`, and an IPv4-mapped IPv6 literal
 * (`::ffff:1.2.3.4`) *is* the IPv4 address (Java returns an Inet4Address for it).
 * Java's IPv4 literal syntax is inet_aton's with decimal parts only: 1 to 4 parts, the last
 * part filling the remaining bytes, leading zeros still decimal, no hex/octal.
 * (Checked with OpenJDK 17's InetAddress.getByName.)
 */

/** Canonical text (Java's getHostAddress) of an IP literal, or null if `text` is not one. */
export function canonicalIp(text: string): string | null {
  const v4 = parseIpv4(text);
  if (v4) return v4.join(".");
  let body = text;
  if (body.startsWith("[") && body.endsWith("]")) body = body.slice(1, -1);
  let scope = "";
  const pct = body.indexOf("%");
  if (pct >= 0) {
    scope = body.slice(pct);
    body = body.slice(0, pct);
    if (!/^%[0-9A-Za-z_.-]+$/.test(scope)) return null;
  }
  const v6 = parseIpv6(body);
  if (!v6) return null;
  const isV4Mapped = v6.slice(0, 5).every((g) => g === 0) && v6[5] === 0xffff;
  if (isV4Mapped && scope === "") {
    const [hi = 0, lo = 0] = v6.slice(6);
    return [hi >> 8, hi & 255, lo >> 8, lo & 255].join(".");
  }
  return v6.map((g) => g.toString(16)).join(":") + scope;
}

export function isIpLiteral(text: string): boolean {
  return canonicalIp(text) !== null;
}

function parseIpv4(text: string): number[] | null {
  if (!/^[0-9]+(\.[0-9]+){0,3}$/.test(text)) return null;
  const parts = text.split(".").map((p) => Number(p));
  const last = parts.pop()!;
  if (parts.some((p) => p > 255)) return null;
  const remaining = 4 - parts.length;
  if (last >= 256 ** remaining) return null;
  const tail: number[] = [];
  let rest = last;
  for (let i = 0; i < remaining; i++) {
    tail.unshift(rest % 256);
    rest = Math.floor(rest / 256);
  }
  return [...parts, ...tail];
}

function parseIpv6(text: string): number[] | null {
  if (text.length === 0) return null;
  let groups: string[];
  let tailV4: number[] = [];
  const lastColon = text.lastIndexOf(":");
  if (lastColon >= 0 && text.slice(lastColon + 1).includes(".")) {
    const v4 = text.slice(lastColon + 1);
    if (!/^[0-9]{1,3}(\.[0-9]{1,3}){3}$/.test(v4)) return null;
    tailV4 = v4.split(".").map(Number);
    if (tailV4.some((p) => p > 255)) return null;
    text = text.slice(0, lastColon + 1) + "0:0";
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const parse = (s: string): string[] | null => (s === "" ? [] : s.split(":"));
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  if (!head || !tail) return null;
  if ([...head, ...tail].some((g) => !/^[0-9A-Fa-f]{1,4}$/.test(g))) return null;
  if (halves.length === 2) {
    const missing = 8 - head.length - tail.length;
    if (missing < 1) return null;
    groups = [...head, ...Array<string>(missing).fill("0"), ...tail];
  } else {
    if (head.length !== 8) return null;
    groups = head;
  }
  const out = groups.map((g) => parseInt(g, 16));
  if (tailV4.length === 4) {
    out[6] = (tailV4[0]! << 8) | tailV4[1]!;
    out[7] = (tailV4[2]! << 8) | tailV4[3]!;
  }
  return out;
}
