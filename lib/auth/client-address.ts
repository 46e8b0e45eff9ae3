/**
 * Which address a request came from, for the sign-in throttle and the audit trail.
 *
 * The rule (resolveClientAddress): the TCP peer of the console is the client, always,
 * unless the operator says a trusted reverse proxy stands in front (TRUST_PROXY=true).
 * Then the client is the right-most X-Forwarded-For entry: the one that proxy appended.
 * Every entry to its left was written by whoever sent the request and proves nothing,
 * so the left-most entry (the usual "original client") is never used: trusting it let
 * one attacker present a new address per guess and slip past the throttle.
 *
 * Next's own server fills X-Forwarded-For from the socket only when the client sent
 * none, so a route cannot tell the two apart. The console's server (scripts/server.ts)
 * therefore applies this rule itself and hands the result to the app in one request
 * header, CLIENT_ADDRESS_HEADER, after deleting any copy the client sent. Routes read
 * only that header (clientAddressFromHeaders) and never X-Forwarded-For.
 */
import { isIP, isIPv6 } from "node:net";

/** Set by the console's server (scripts/server.ts) to the resolved client address. */
export const CLIENT_ADDRESS_HEADER = "x-ksc-client-address";

/** What a request without a resolved address (e.g. under `next dev`) is attributed to. */
export const UNKNOWN_CLIENT = "unknown";

const MAX_ADDRESS_LENGTH = 100;

/** `::ffff:10.0.0.1` (an IPv4 client on a dual-stack socket) is 10.0.0.1. */
function canonical(address: string): string {
  const a = address.trim();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(a);
  return mapped ? mapped[1]! : a;
}

/** A single X-Forwarded-For entry as an IP address, or null (a port some proxies add is dropped). */
function forwardedEntryAddress(entry: string): string | null {
  let e = entry.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(e);
  if (bracketed) e = bracketed[1]!;
  else if (/^\d{1,3}(?:\.\d{1,3}){3}:\d+$/.test(e)) e = e.slice(0, e.lastIndexOf(":"));
  return isIP(e) ? canonical(e) : null;
}

export interface ClientAddressInput {
  /** The TCP peer address of the request (`req.socket.remoteAddress`). */
  socketAddress: string | null | undefined;
  /** The X-Forwarded-For header(s) as received. */
  forwardedFor: string | readonly string[] | null | undefined;
  /** env().TRUST_PROXY. */
  trustProxy: boolean;
}

/**
 * The client's address: the socket address, unless trustProxy, then the last
 * X-Forwarded-For entry (falling back to the socket address when there is none or it
 * is not an IP address).
 */
export function resolveClientAddress({ socketAddress, forwardedFor, trustProxy }: ClientAddressInput): string {
  const socket = socketAddress && socketAddress.trim() !== "" ? canonical(socketAddress) : UNKNOWN_CLIENT;
  if (!trustProxy) return socket;
  const headers = typeof forwardedFor === "string" ? [forwardedFor] : (forwardedFor ?? []);
  const entries = headers
    .flatMap((h) => h.split(","))
    .map((s) => s.trim())
    .filter((s) => s !== "");
  const last = entries.at(-1);
  const fromProxy = last === undefined ? null : forwardedEntryAddress(last);
  return fromProxy ?? socket;
}

/** The resolved client address of a request (CLIENT_ADDRESS_HEADER), or "unknown" when absent. */
export function clientAddressFromHeaders(headers: { get(name: string): string | null }): string {
  const value = headers.get(CLIENT_ADDRESS_HEADER)?.trim();
  if (!value || value.length > MAX_ADDRESS_LENGTH || !/^[\x21-\x7e]+$/.test(value)) return UNKNOWN_CLIENT;
  return canonical(value);
}

/**
 * The source a throttle or an audit aggregate counts per: the address itself, except
 * that an IPv6 client counts per /64 (one subscriber's prefix: such a client can use any
 * of 2^64 addresses, so counting per address would not slow it down).
 */
export function addressSource(address: string): string {
  const a = canonical(address);
  const zoneless = a.split("%")[0]!;
  if (!isIPv6(zoneless)) return a;
  const [head = "", tail = ""] = zoneless.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === "" ? [] : tail.split(":");
  const groups = zoneless.includes("::")
    ? [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right]
    : left;
  if (groups.length !== 8 || groups.some((g) => g.includes("."))) return a; // an embedded IPv4 tail: keep it whole
  return `${groups
    .slice(0, 4)
    .map((g) => g.toLowerCase().replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}
