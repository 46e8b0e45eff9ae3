/**
 * The Java regex mirror: the places where java.util.regex (OpenJDK 17) and JavaScript's
 * RegExp disagree, pinned with the answers Java gives (read from the JVM through
 * java/PrincipalMapHarness.java; the differential test in
 * lib/policy/identity/principal-map.integration.test.ts checks thousands more).
 */
import { describe, expect, it } from "vitest";
import { javaToLowerCase, javaToUpperCase } from "../characters";
import { JavaException } from "../exception";
import { JavaPattern } from "./pattern";

function thrown(fn: () => unknown): { error: string; message: string } {
  try {
    fn();
  } catch (e) {
    if (e instanceof JavaException) return { error: e.exception, message: e.message };
    throw e;
  }
  throw new Error("expected a Java exception");
}

describe("Pattern.compile: PatternSyntaxException with Java's description and index", () => {
  it.each([
    ["(foo", "Unclosed group near index 4\n(foo"],
    ["a)", "Unmatched closing ')' near index 0\na)\n^"],
    ["a**", "Dangling meta character '*' near index 2\na**\n  ^"],
    ["{a}", "Illegal repetition near index 1\n{a}\n ^"],
    ["[z-a]", "Illegal character range near index 3\n[z-a]\n   ^"],
    ["[a", "Unclosed character class near index 1\n[a\n ^"],
    ["a{3,2}", "Illegal repetition range near index 5\na{3,2}\n     ^"],
    ["a{99999999999}", "Illegal repetition range near index 11\na{99999999999}\n           ^"],
    ["\\p{Foo}", "Unknown character property name {Foo} near index 6\n\\p{Foo}\n      ^"],
    ["\\k<x>", "named capturing group <x> does not exist near index 4\n\\k<x>\n    ^"],
    ["(?<x>a)(?<x>b)", "Named capturing group <x> is already defined near index 11\n(?<x>a)(?<x>b)\n           ^"],
    ["\\ca\\c", "Illegal control escape sequence near index 4\n\\ca\\c\n    ^"],
    ["(?<=ab*?)c", "Look-behind group does not have an obvious maximum length near index 7\n(?<=ab*?)c\n       ^"],
  ])("%j", (pattern, message) => {
    expect(thrown(() => JavaPattern.compile(pattern))).toEqual({ error: "PatternSyntaxException", message });
  });

  it("accepts what JavaScript would refuse: dangling ] and }, {1} after nothing, escaped non-letters", () => {
    expect(JavaPattern.compile("a]}").matches("a]}")).toBe(true);
    expect(JavaPattern.compile("{1}").lookingAt("x")).toBe(true);
    expect(JavaPattern.compile("\\@\\-\\é").matches("@-é")).toBe(true);
  });

  it("accepts unbounded look-behind on a single character (Java studies x* as at most Integer.MAX_VALUE long)", () => {
    expect(JavaPattern.compile("(?<=a+)b").replaceAll("aab", "-")).toBe("aa-");
  });
});

describe("matching semantics that differ from JavaScript", () => {
  it("a group keeps its last value across loop iterations in which it did not take part", () => {
    expect(JavaPattern.compile("(?:(a)|b)+").replaceAll("ab", "[$1]")).toBe("[a]");
  });

  it("after an empty match the next search starts one UTF-16 unit later, even inside a surrogate pair", () => {
    expect(JavaPattern.compile("x*").replaceAll("😀", "-")).toBe("-\ud83d-\ude00-");
  });

  it("look-behind bounds overflow: (?<=a*b*) never matches in Java", () => {
    expect(JavaPattern.compile("(?<=a*b*)c").replaceAll("abc", "-")).toBe("abc");
  });

  it("(?i) folds ASCII only; (?iu) folds Unicode (the Kelvin sign matches k)", () => {
    expect(JavaPattern.compile("(?i)k").matches("\u212a")).toBe(false);
    expect(JavaPattern.compile("(?iu)k").matches("\u212a")).toBe(true);
    expect(JavaPattern.compile("(?i)é").matches("É")).toBe(false);
  });

  it("a (?iu) literal run folds through upper then lower case, a single character does not: ßx matches ẞx, ß alone does not match ẞ", () => {
    expect(JavaPattern.compile("(?iu)ßx").matches("ẞx")).toBe(true);
    expect(JavaPattern.compile("(?i)ß").matches("ẞ")).toBe(false);
  });

  it(". excludes line terminators; $ also matches before a final line terminator", () => {
    expect(JavaPattern.compile("a.c").matches("a\nc")).toBe(false);
    expect(JavaPattern.compile("^a$").lookingAt("a\n")).toBe(true);
    expect(JavaPattern.compile("^a$").matches("a\n")).toBe(false);
  });

  it("\\w is ASCII but \\b counts letters of any script as word characters (Java 17)", () => {
    expect(JavaPattern.compile("\\w").matches("é")).toBe(false);
    expect(JavaPattern.compile("\\bé").matches("é")).toBe(true);
  });

  it("class intersection and subtraction: [\\w&&[^\\d]]", () => {
    expect(JavaPattern.compile("[\\w&&[^\\d]]+").replaceAll("ab12cd", "-")).toBe("-12-");
  });

  it("\\Q...\\E quotes, and an unterminated \\Q quotes to the end", () => {
    expect(JavaPattern.compile("\\Qa.b\\E").replaceAll("a.b axb", "-")).toBe("- axb");
    expect(JavaPattern.compile("a\\Q.*").matches("a.*")).toBe(true);
  });

  it("possessive quantifiers and atomic groups do not give back", () => {
    expect(JavaPattern.compile("a*+a").matches("aaa")).toBe(false);
    expect(JavaPattern.compile("(?>a*)a").matches("aaa")).toBe(false);
    expect(JavaPattern.compile("a*a").matches("aaa")).toBe(true);
  });

  it("named groups, back references and \\p classes", () => {
    expect(JavaPattern.compile("(?<n>a)\\k<n>").replaceAll("aa", "${n}!")).toBe("a!");
    expect(JavaPattern.compile("\\p{Lu}+").replaceAll("ABcD", "-")).toBe("-c-");
    expect(JavaPattern.compile("\\p{IsGreek}+").matches("αβγ")).toBe(true);
    expect(JavaPattern.compile("\\p{Alpha}").matches("é")).toBe(false);
    expect(JavaPattern.compile("\\p{IsAlphabetic}").matches("é")).toBe(true);
  });
});

describe("Matcher.replaceAll: Java's replacement syntax", () => {
  const group = JavaPattern.compile("(a)");
  it.each([
    ["$12", { value: "a2" }],
    ["\\$1", { value: "$1" }],
    ["$3", { error: "IndexOutOfBoundsException", message: "No group 3" }],
    ["$", { error: "IllegalArgumentException", message: "Illegal group reference: group index is missing" }],
    ["$x", { error: "IllegalArgumentException", message: "Illegal group reference" }],
    ["${x}", { error: "IllegalArgumentException", message: "No group with name {x}" }],
    ["\\", { error: "IllegalArgumentException", message: "character to be escaped is missing" }],
  ])("%j", (replacement, expected) => {
    let actual: unknown;
    try {
      actual = { value: group.replaceAll("a", replacement) };
    } catch (e) {
      actual = { error: (e as JavaException).exception, message: (e as JavaException).message };
    }
    expect(actual).toEqual(expected);
  });

  it("a replacement is not parsed when nothing matches", () => {
    expect(group.replaceAll("b", "$9")).toBe("b");
  });
});

describe("constructs the mirror does not reproduce say so instead of guessing", () => {
  it.each([
    "\\p{InGreek}",
    "\\p{block=Greek}",
    "\\X",
    "\\b{g}",
    "\\N{LATIN SMALL LETTER A}",
    "(?c)[a]",
    "\\p{javaUnicodeIdentifierStart}",
  ])("%j", (pattern) => {
    expect(thrown(() => JavaPattern.compile(pattern)).error).toBe("UnsupportedJavaRegex");
  });

  it("Java's memo of failed loop positions keeps (a|aa)*b fast; with a back reference Java has no memo, and the mirror gives up instead of hanging", () => {
    expect(JavaPattern.compile("(a|aa)*b").matches("a".repeat(40))).toBe(false);
    expect(thrown(() => JavaPattern.compile("(a|aa)*b\\1").matches("a".repeat(40))).error).toBe("UnsupportedJavaRegex");
  });
});

describe("String.toLowerCase / toUpperCase (Locale.ENGLISH) as Java 17", () => {
  it.each([
    ["ΟΔΟΣ", "οδος", "ΟΔΟΣ"],
    ["ΟΔΟΣ ΑΣ", "οδος ας", "ΟΔΟΣ ΑΣ"],
    ["straße", "straße", "STRASSE"],
    ["İstanbul", "i\u0307stanbul", "İSTANBUL"],
    ["ﬁ", "ﬁ", "FI"],
    ["ǅ", "ǆ", "Ǆ"],
    // ƛ gained an uppercase (U+A7DC) after Unicode 13: Java 17 has none.
    ["\u019b", "\u019b", "\u019b"],
  ])("%j", (s, lower, upper) => {
    expect([javaToLowerCase(s), javaToUpperCase(s)]).toEqual([lower, upper]);
  });
});
