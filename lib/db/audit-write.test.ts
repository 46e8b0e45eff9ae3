import { describe, expect, it } from "vitest";
import { storableText } from "./audit";

describe("storableText", () => {
  it("turns NUL and lone surrogates, which PostgreSQL cannot store, into visible escapes", () => {
    expect(storableText("a\u0000b")).toBe("a\\u0000b");
    expect(storableText("x\uD800")).toBe("x\\ud800");
    expect(storableText("\uDC00y")).toBe("\\udc00y");
  });

  it("leaves everything else alone, surrogate pairs included", () => {
    for (const s of ["", "User:alice", "tab\tline\nbreak", "emoji \uD83D\uDE00", "ünïcödé", "\\u0000 typed as text"])
      expect(storableText(s)).toBe(s);
  });
});
