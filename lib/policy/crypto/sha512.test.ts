// node:crypto is the reference the pure implementation is checked against (a test, so it may import it).
// eslint-disable-next-line no-restricted-imports -- test only
import { createHash, createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { hmacSha512, sha512, toBase64, tokenHmac, utf8 } from "./sha512";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

describe("sha512", () => {
  it.each([
    [
      "",
      "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd" +
        "47417a81a538327af927da3e",
    ],
    [
      "abc",
      "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423" +
        "643ce80e2a9ac94fa54ca49f",
    ],
  ])("matches the FIPS 180-4 vector for %j", (input, expected) => {
    expect(hex(sha512(utf8(input)))).toBe(expected);
  });

  it("matches node:crypto on random messages, across block boundaries", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (msg) => {
        expect(hex(sha512(msg))).toBe(createHash("sha512").update(msg).digest("hex"));
      }),
      { numRuns: 200 },
    );
  });
});

describe("hmacSha512", () => {
  it("matches node:crypto on random keys (including keys longer than a block) and data", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.uint8Array({ maxLength: 200 }), (key, data) => {
        expect(hex(hmacSha512(key, data))).toBe(createHmac("sha512", key).update(data).digest("hex"));
      }),
      { numRuns: 200 },
    );
  });

  it("reproduces the token HMAC Kafka's javax.crypto.Mac gives for secret testKey, token abc", () => {
    expect(tokenHmac("testKey", "abc")).toBe(
      "cx96Dkqz9lAlyXgHmGwanR8Q3mJtLrON5piE/VKrpBJ1gC6rmD2r8JvnyoM5lHWBonkXxTv+z0h8hPnVacZAEQ==",
    );
  });

  it("token HMAC equals node:crypto's Base64 HMAC for random secrets and token ids", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 40 }), fc.string({ maxLength: 40 }), (secret, tokenId) => {
        expect(tokenHmac(secret, tokenId)).toBe(
          createHmac("sha512", Buffer.from(secret, "utf8")).update(tokenId, "utf8").digest("base64"),
        );
      }),
      { numRuns: 200 },
    );
  });
});

describe("toBase64 and utf8", () => {
  it("Base64 matches Buffer's standard, padded encoding", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 70 }), (b) => {
        expect(toBase64(b)).toBe(Buffer.from(b).toString("base64"));
      }),
    );
  });
  it("UTF-8 matches Buffer for well-formed strings and writes '?' for a lone surrogate, as Java does", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (s) => {
        expect(hex(utf8(s))).toBe(Buffer.from(s, "utf8").toString("hex"));
      }),
    );
    expect([...utf8("a\ud800b")]).toEqual([0x61, 0x3f, 0x62]);
  });
});
