/**
 * Where a webhook may point (#19). A cluster's webhook is an outgoing request the console
 * makes on its own, so it must not become a way to reach what only the console can reach:
 *
 *   - https only (http only when the operator allows it: WEBHOOK_ALLOW_HTTP);
 *   - no user name or password in the URL;
 *   - never the console itself (its own origins);
 *   - the host is resolved once, here, and every address it resolves to must be public: no
 *     loopback, private, carrier-grade NAT, link-local (cloud metadata: 169.254.169.254,
 *     fd00:ec2::254), multicast, reserved or unspecified address, IPv4-mapped IPv6 of one
 *     either; unless the host or address is listed in WEBHOOK_ALLOWED_HOSTS;
 *   - delivery connects to the address checked here (no second lookup that could answer
 *     differently) and never follows a redirect.
 */
import { BlockList, isIP } from "node:net";
import { lookup as dnsLookup } from "node:dns/promises";

const blocked = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  blocked.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b::", 96],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const)
  blocked.addSubnet(net, prefix, "ipv6");

/** Whether an address is one a webhook may not reach (loopback, private, link-local, metadata, …). */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, "ipv4");
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1]!, "ipv4");
  return blocked.check(address, "ipv6");
}

export interface WebhookTargetSettings {
  allowHttp: boolean;
  /** Lower-case host names and addresses allowed although not public. */
  allowedHosts: readonly string[];
  /** The console's own origins (https://console.example.com): never a target. */
  ownOrigins: readonly string[];
}

export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;

const defaultResolver: Resolver = (host) => dnsLookup(host, { all: true, verbatim: true });

export type WebhookTarget = { ok: true; url: URL; address: string; family: 4 | 6 } | { ok: false; message: string };

/** Checks a webhook URL and resolves its host (see the module comment); the address to connect to. */
export async function checkWebhookTarget(
  text: string,
  settings: WebhookTargetSettings,
  resolve: Resolver = defaultResolver,
): Promise<WebhookTarget> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, message: "The webhook must be an absolute URL, e.g. https://hooks.example.com/kafka." };
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && settings.allowHttp))
    return {
      ok: false,
      message:
        url.protocol === "http:"
          ? "The webhook must use https (the operator may allow http with WEBHOOK_ALLOW_HTTP)."
          : `The webhook must be an https URL, not ${url.protocol.replace(":", "")}.`,
    };
  if (url.username !== "" || url.password !== "")
    return { ok: false, message: "The webhook URL must not carry a user name or password; its HMAC signs it." };
  if (settings.ownOrigins.some((origin) => origin === url.origin))
    return { ok: false, message: "The webhook must not point back at the console." };
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const allowed = settings.allowedHosts.includes(host);
  let addresses: { address: string; family: number }[];
  if (isIP(host) !== 0) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await resolve(host);
    } catch {
      return { ok: false, message: `The webhook's host ${host} does not resolve.` };
    }
  }
  if (addresses.length === 0) return { ok: false, message: `The webhook's host ${host} does not resolve.` };
  const bad = addresses.find(
    (a) => isNonPublicAddress(a.address) && !allowed && !settings.allowedHosts.includes(a.address),
  );
  if (bad)
    return {
      ok: false,
      message:
        `The webhook's host ${host} is ${bad.address === host ? "" : `at ${bad.address}, `}a loopback, private, ` +
        `link-local or metadata address; the console does not send there unless the operator lists it in ` +
        `WEBHOOK_ALLOWED_HOSTS.`,
    };
  const first = addresses[0]!;
  return { ok: true, url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
