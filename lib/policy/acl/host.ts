/**
 * The host of an ACL the console creates: `*` or one IP address, written the way Kafka
 * will compare it.
 *
 * Kafka itself accepts any string as the host in CreateAcls (and kafka-acls.sh does too,
 * which is why validateNewAcl and the CLI's validate-acl leave hosts alone), but the
 * authorizer only ever matches an ACL host that is `*` or exactly equal to the client's
 * address as InetAddress.getHostAddress() prints it (StandardAuthorizerData: no DNS, no
 * ranges). A host name, a range or `::1` instead of `0:0:0:0:0:0:0:1` makes an ACL that
 * never matches anything, so the console refuses the first two and rewrites the third.
 *
 *   "*"                       -> "*"
 *   "10.0.0.1", "010.0.0.1"   -> "10.0.0.1"
 *   "::1", "[::1]"            -> "0:0:0:0:0:0:0:1"
 *   "::ffff:10.0.0.1"         -> "10.0.0.1" (Java reads it as the IPv4 address)
 *   "10.1", "10.0.0.0/24", "broker-1", "<b>h</b>" -> refused, with the reason
 */
import { WILDCARD_HOST } from "../types";
import { canonicalIp } from "../quota/ip";

export type AclHostCheck = { ok: true; host: string } | { ok: false; message: string };

const ANY_HOST_OR_IP = "Enter * (any host) or one IP address";

/** `host` as Kafka will match it, or why the console refuses it. */
export function checkAclHost(host: string): AclHostCheck {
  if (host === WILDCARD_HOST) return { ok: true, host };
  if (host === "") return { ok: false, message: `${ANY_HOST_OR_IP}; it may not be empty` };
  if (host.includes("*")) {
    return { ok: false, message: `${ANY_HOST_OR_IP}: Kafka has no host patterns, only * alone for every host` };
  }
  if (/^[0-9A-Fa-f:.[\]]+\/[0-9]+$/.test(host)) {
    return {
      ok: false,
      message:
        `${ANY_HOST_OR_IP}: Kafka matches hosts as exact IP strings, not ranges (no CIDR); add one ACL per ` +
        `address`,
    };
  }
  // Java also reads `10.1` and `167772161` as IPv4 addresses; written that way they are
  // almost always a typo, so the console asks for the four parts.
  if (/^[0-9.]+$/.test(host) && host.split(".").length !== 4) {
    return { ok: false, message: "Write the IPv4 address with all four parts, e.g. 10.0.0.1" };
  }
  const ip = canonicalIp(host);
  if (ip === null) {
    return { ok: false, message: `${ANY_HOST_OR_IP}: Kafka matches hosts as exact IP strings, not names or ranges` };
  }
  return { ok: true, host: ip };
}

/** Why `host` is refused as an ACL host, or null when it is fine. */
export function aclHostProblem(host: string): string | null {
  const check = checkAclHost(host);
  return check.ok ? null : check.message;
}
