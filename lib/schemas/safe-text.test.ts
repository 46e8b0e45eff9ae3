import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  CONTROL_MESSAGE,
  decodeStrictUtf8,
  findUnsafeFormData,
  findUnsafeText,
  findUnsafeUrl,
  INVALID_UTF8_MESSAGE,
  InvalidUtf8Error,
  NUL_MESSAGE,
  safeString,
  strictPercentDecode,
  SURROGATE_MESSAGE,
  unsafeTextProblem,
} from "./safe-text";

describe("unsafeTextProblem", () => {
  it("accepts ordinary text, tab, CR, LF and astral characters", () => {
    for (const s of ["", "User:alice", "orders-*", "a\tb\r\nc", "ümlaut ✓", "emoji 😀 𝕏", "\u007f", "\uFFFD"]) {
      expect(unsafeTextProblem(s), JSON.stringify(s)).toBeNull();
    }
  });

  it("refuses NUL, other C0 controls and lone surrogates, naming which", () => {
    expect(unsafeTextProblem("al\u0000ice")).toBe(NUL_MESSAGE);
    expect(unsafeTextProblem("\u0001")).toBe(CONTROL_MESSAGE);
    expect(unsafeTextProblem("a\u001bb")).toBe(CONTROL_MESSAGE);
    expect(unsafeTextProblem("\u000b\u000c")).toBe(CONTROL_MESSAGE);
    expect(unsafeTextProblem("x\ud800")).toBe(SURROGATE_MESSAGE);
    expect(unsafeTextProblem("\udc00x")).toBe(SURROGATE_MESSAGE);
    expect(unsafeTextProblem("\udbff\udbff\udc00")).toBe(SURROGATE_MESSAGE); // first high one is alone
  });

  it("agrees with isWellFormed and the C0 range on arbitrary strings", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (s) => {
        const hasControl = [...s].some((ch) => ch.charCodeAt(0) < 0x20 && !["\t", "\n", "\r"].includes(ch));
        const expected = hasControl || !(s as string & { isWellFormed(): boolean }).isWellFormed();
        expect(unsafeTextProblem(s) !== null).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("findUnsafeText", () => {
  it("reports every unsafe string by its path, nothing for a clean document", () => {
    expect(findUnsafeText({ bindings: [{ principal: "User:alice", host: "*" }], n: 3, b: true, z: null })).toEqual({});
    expect(
      findUnsafeText({
        bindings: [{ principal: "User:al\u0000ice" }, { principal: "ok", host: "\ud800" }],
        reason: "x\u0007",
      }),
    ).toEqual({
      "bindings.0.principal": [NUL_MESSAGE],
      "bindings.1.host": [SURROGATE_MESSAGE],
      reason: [CONTROL_MESSAGE],
    });
  });

  it("reports a top-level string at _ and an unsafe key at its object without echoing it", () => {
    expect(findUnsafeText("\u0000")).toEqual({ _: [NUL_MESSAGE] });
    const errors = findUnsafeText({ entity: { "us\u0000er": "alice" } });
    expect(Object.keys(errors)).toEqual(["entity"]);
    expect(errors.entity![0]).toMatch(/name must not contain the NUL character/);
  });

  it("walks deeply nested documents without overflowing the stack", () => {
    let deep: unknown = "\u0000";
    for (let i = 0; i < 20_000; i++) deep = [deep];
    expect(Object.values(findUnsafeText(deep))).toEqual([[NUL_MESSAGE]]);
  });
});

describe("findUnsafeFormData", () => {
  it("checks string entries by field name and skips files", () => {
    const form = new FormData();
    form.set("username", "admin");
    form.set("password", "pa\u0000ss");
    form.set("file", new Blob(["\u0000"]), "x.bin");
    expect(findUnsafeFormData(form.entries())).toEqual({ password: [NUL_MESSAGE] });
  });
});

describe("safeString", () => {
  it("is a zod string whose error names the problem", () => {
    const schema = safeString();
    expect(schema.safeParse("alice").success).toBe(true);
    const result = schema.safeParse("a\u0000");
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(NUL_MESSAGE);
    expect(schema.max(3).safeParse("abcd").success).toBe(false);
  });
});

describe("strict UTF-8", () => {
  it("decodes valid UTF-8 and refuses overlong, truncated and surrogate encodings", () => {
    expect(decodeStrictUtf8(new TextEncoder().encode("ok ✓ 😀"))).toBe("ok ✓ 😀");
    for (const bytes of [[0xc0, 0x80], [0xe0, 0x80, 0xaf], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xff]]) {
      expect(() => decodeStrictUtf8(Uint8Array.from(bytes)), bytes.join(",")).toThrow(InvalidUtf8Error);
    }
  });

  it("percent-decodes with + as space in queries only", () => {
    expect(strictPercentDecode("a+b%20c%E2%9C%93", true)).toBe("a b c✓");
    expect(strictPercentDecode("a+b", false)).toBe("a+b");
    expect(strictPercentDecode("100%", false)).toBe("100%");
    expect(() => strictPercentDecode("%C0%80", true)).toThrow(InvalidUtf8Error);
  });

  it("findUnsafeUrl checks path segments and query parameters", () => {
    expect(findUnsafeUrl(new URL("http://h/api/v1/acls?principal=User%3Aalice&host=*"))).toEqual({});
    expect(findUnsafeUrl(new URL("http://h/api/v1/acls?principal=%00"))).toEqual({ principal: [NUL_MESSAGE] });
    expect(findUnsafeUrl(new URL("http://h/api/v1/acls?principal=%C0%80"))).toEqual({
      principal: [INVALID_UTF8_MESSAGE],
    });
    expect(findUnsafeUrl(new URL("http://h/api/v1/acls?principal=%ED%A0%80"))).toEqual({
      principal: [INVALID_UTF8_MESSAGE],
    });
    expect(findUnsafeUrl(new URL("http://h/api/v1/token-requests/%C0%80/approve"))).toEqual({
      path: [INVALID_UTF8_MESSAGE],
    });
    expect(findUnsafeUrl(new URL("http://h/x%01y"))).toEqual({ path: [CONTROL_MESSAGE] });
    expect(Object.keys(findUnsafeUrl(new URL("http://h/?a%00=1")))).toEqual(["query"]);
  });
});
