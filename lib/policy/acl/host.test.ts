import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { aclHostProblem, checkAclHost } from "./host";
import { validateNewAcl } from "./validate";

describe("checkAclHost", () => {
  it.each([
    ["*", "*"],
    ["10.0.0.1", "10.0.0.1"],
    ["010.000.000.001", "10.0.0.1"],
    ["255.255.255.255", "255.255.255.255"],
    ["::1", "0:0:0:0:0:0:0:1"],
    ["[::1]", "0:0:0:0:0:0:0:1"],
    ["0:0:0:0:0:0:0:1", "0:0:0:0:0:0:0:1"],
    ["2001:DB8::0042", "2001:db8:0:0:0:0:0:42"],
    ["fe80::1%eth0", "fe80:0:0:0:0:0:0:1%eth0"],
    ["::ffff:10.0.0.1", "10.0.0.1"],
  ])("accepts %s as %s (how Kafka prints the client address)", (host, canonical) => {
    expect(checkAclHost(host)).toEqual({ ok: true, host: canonical });
  });

  it.each([
    ["<b>h</b>", "not names"],
    ["broker-1", "not names"],
    ["localhost", "not names"],
    ["", "may not be empty"],
    [" 10.0.0.1", "not names"],
    ["10.0.0.0/24", "no CIDR"],
    ["10.0.0.*", "only * alone"],
    ["**", "only * alone"],
    ["10.1", "all four parts"],
    ["167772161", "all four parts"],
    ["256.0.0.1", "not names"],
    ["1::2::3", "not names"],
    ["10.0.0.1\u0000", "not names"],
  ])("refuses %j (%s)", (host, reason) => {
    const check = checkAclHost(host);
    expect(check.ok).toBe(false);
    expect(aclHostProblem(host)).toContain(reason);
    expect(aclHostProblem(host)).toMatch(/^(Enter \* \(any host\) or one IP address|Write the IPv4 address)/);
  });

  it("is idempotent: an accepted host is already written the way Kafka compares it", () => {
    const hosts = fc.oneof(fc.ipV4(), fc.ipV6(), fc.constant("*"), fc.string());
    fc.assert(
      fc.property(hosts, (host) => {
        const check = checkAclHost(host);
        if (check.ok) expect(checkAclHost(check.host)).toEqual({ ok: true, host: check.host });
      }),
      { numRuns: 2000 },
    );
  });

  it("accepts every IPv4 and IPv6 address fast-check can write", () => {
    fc.assert(
      fc.property(fc.oneof(fc.ipV4(), fc.ipV6()), (ip) => checkAclHost(ip).ok),
      { numRuns: 2000 },
    );
  });

  it(
    "leaves validateNewAcl (the validate-acl contract: what kafka-acls.sh refuses) alone: it still takes " + "any host",
    () => {
      const binding = {
        resourceType: "TOPIC",
        resourceName: "t",
        patternType: "LITERAL",
        principal: "User:a",
        host: "<b>h</b>",
        operation: "READ",
        permissionType: "ALLOW",
      };
      expect(validateNewAcl(binding)).toEqual({ ok: true });
    },
  );
});
