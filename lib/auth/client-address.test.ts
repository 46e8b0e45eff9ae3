import { describe, expect, it } from "vitest";
import {
  addressSource,
  CLIENT_ADDRESS_HEADER,
  clientAddressFromHeaders,
  resolveClientAddress,
  UNKNOWN_CLIENT,
} from "./client-address";

describe("resolveClientAddress", () => {
  it("without TRUST_PROXY is the socket address, whatever X-Forwarded-For says", () => {
    // The attack: a new X-Forwarded-For value per guess gave every guess its own throttle key.
    for (const forwardedFor of [
      "203.0.113.7",
      "198.51.100.1, 203.0.113.7",
      ["1.1.1.1", "2.2.2.2"],
      "",
      null,
      undefined,
    ]) {
      expect(resolveClientAddress({ socketAddress: "192.0.2.10", forwardedFor, trustProxy: false })).toBe("192.0.2.10");
    }
  });

  it("with TRUST_PROXY is the right-most X-Forwarded-For entry, the one the proxy appended", () => {
    expect(resolveClientAddress({ socketAddress: "10.0.0.2", forwardedFor: "203.0.113.7", trustProxy: true })).toBe(
      "203.0.113.7",
    );
    // The client wrote the left entries itself; only the proxy's own entry counts.
    expect(
      resolveClientAddress({
        socketAddress: "10.0.0.2",
        forwardedFor: "6.6.6.6, 7.7.7.7, 203.0.113.7",
        trustProxy: true,
      }),
    ).toBe("203.0.113.7");
    // Repeated headers are one list, in order.
    expect(
      resolveClientAddress({ socketAddress: "10.0.0.2", forwardedFor: ["6.6.6.6", "203.0.113.7"], trustProxy: true }),
    ).toBe("203.0.113.7");
    expect(
      resolveClientAddress({ socketAddress: "10.0.0.2", forwardedFor: "6.6.6.6, 2001:db8::1", trustProxy: true }),
    ).toBe("2001:db8::1");
    // A port some proxies add is dropped.
    expect(
      resolveClientAddress({ socketAddress: "10.0.0.2", forwardedFor: "203.0.113.7:51234", trustProxy: true }),
    ).toBe("203.0.113.7");
    expect(
      resolveClientAddress({ socketAddress: "10.0.0.2", forwardedFor: "[2001:db8::1]:443", trustProxy: true }),
    ).toBe("2001:db8::1");
  });

  it("with TRUST_PROXY falls back to the socket address when the proxy appended nothing usable", () => {
    for (const forwardedFor of [undefined, null, "", " , ", "unknown", "6.6.6.6, not-an-ip", []]) {
      expect(resolveClientAddress({ socketAddress: "10.0.0.2", forwardedFor, trustProxy: true })).toBe("10.0.0.2");
    }
  });

  it("writes an IPv4 client on a dual-stack socket as IPv4, and a missing socket address as unknown", () => {
    expect(resolveClientAddress({ socketAddress: "::ffff:127.0.0.1", forwardedFor: null, trustProxy: false })).toBe(
      "127.0.0.1",
    );
    expect(resolveClientAddress({ socketAddress: undefined, forwardedFor: "1.2.3.4", trustProxy: false })).toBe(
      UNKNOWN_CLIENT,
    );
    expect(resolveClientAddress({ socketAddress: "", forwardedFor: null, trustProxy: true })).toBe(UNKNOWN_CLIENT);
  });
});

describe("clientAddressFromHeaders", () => {
  it("reads only the console's own header, never X-Forwarded-For or X-Real-IP", () => {
    expect(CLIENT_ADDRESS_HEADER).toBe("x-ksc-client-address");
    expect(
      clientAddressFromHeaders(new Headers({ [CLIENT_ADDRESS_HEADER]: "192.0.2.10", "x-forwarded-for": "6.6.6.6" })),
    ).toBe("192.0.2.10");
    expect(clientAddressFromHeaders(new Headers({ "x-forwarded-for": "6.6.6.6", "x-real-ip": "7.7.7.7" }))).toBe(
      UNKNOWN_CLIENT,
    );
    expect(clientAddressFromHeaders(new Headers())).toBe(UNKNOWN_CLIENT);
  });

  it("refuses values no server would set", () => {
    expect(clientAddressFromHeaders(new Headers({ [CLIENT_ADDRESS_HEADER]: "  " }))).toBe(UNKNOWN_CLIENT);
    expect(clientAddressFromHeaders(new Headers({ [CLIENT_ADDRESS_HEADER]: "a b" }))).toBe(UNKNOWN_CLIENT);
    expect(clientAddressFromHeaders(new Headers({ [CLIENT_ADDRESS_HEADER]: "1".repeat(101) }))).toBe(UNKNOWN_CLIENT);
    expect(clientAddressFromHeaders(new Headers({ [CLIENT_ADDRESS_HEADER]: "::ffff:10.1.2.3" }))).toBe("10.1.2.3");
  });
});

describe("addressSource", () => {
  it("counts IPv4 clients per address and IPv6 clients per /64", () => {
    expect(addressSource("203.0.113.7")).toBe("203.0.113.7");
    expect(addressSource("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(addressSource("2001:db8:aa:bb:1:2:3:4")).toBe("2001:db8:aa:bb::/64");
    expect(addressSource("2001:DB8:AA:BB::9")).toBe("2001:db8:aa:bb::/64");
    expect(addressSource("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressSource("2001:db8::2")).toBe(addressSource("2001:db8:0:0:ffff::1"));
    expect(addressSource("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(addressSource(UNKNOWN_CLIENT)).toBe(UNKNOWN_CLIENT);
  });
});
