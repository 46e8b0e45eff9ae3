/**
 * What java.lang.Character and java.lang.String answer about characters, as Java 17
 * (the broker's JVM) answers it: general categories, the few binary properties Java's
 * regex classes use, simple and full case mapping (String.toLowerCase/toUpperCase with
 * Locale.ENGLISH or Locale.ROOT, which behave alike), and the UTF-16 walking helpers
 * (codePointAt, codePointBefore) whose handling of lone surrogates Java's regex
 * engine depends on.
 *
 * Java 17 knows Unicode 13; the JavaScript engine knows a newer version. Case mappings
 * are pinned to Java 17 with the table below (characters that gained a case mapping
 * after Unicode 13 keep none, as in Java), and the final sigma follows Java's own word
 * break rules. General categories and properties come from the JavaScript engine:
 * characters assigned after Unicode 13 are categorised there but are unassigned (Cn) in
 * Java 17 — the one known difference (the differential test checks every code point's
 * case mapping against the JVM).
 */

// ---- UTF-16 -------------------------------------------------------------------------

export const isHighSurrogate = (c: number) => c >= 0xd800 && c <= 0xdbff;
export const isLowSurrogate = (c: number) => c >= 0xdc00 && c <= 0xdfff;
export const isSurrogate = (c: number) => c >= 0xd800 && c <= 0xdfff;
export const charCount = (cp: number) => (cp >= 0x10000 ? 2 : 1);

/** Character.codePointAt(seq, i): a valid pair as one code point, a lone surrogate as itself. */
export function codePointAt(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (isHighSurrogate(c) && i + 1 < s.length) {
    const d = s.charCodeAt(i + 1);
    if (isLowSurrogate(d)) return (c - 0xd800) * 0x400 + (d - 0xdc00) + 0x10000;
  }
  return c;
}

/** Character.codePointBefore(seq, i). */
export function codePointBefore(s: string, i: number): number {
  const d = s.charCodeAt(i - 1);
  if (isLowSurrogate(d) && i - 2 >= 0) {
    const c = s.charCodeAt(i - 2);
    if (isHighSurrogate(c)) return (c - 0xd800) * 0x400 + (d - 0xdc00) + 0x10000;
  }
  return d;
}

/** The code points of a string as Java walks them (lone surrogates stay single). */
export function codePoints(s: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.length;) {
    const cp = codePointAt(s, i);
    out.push(cp);
    i += charCount(cp);
  }
  return out;
}

export const fromCodePoint = (cp: number) => String.fromCodePoint(cp);

// ---- java.util.regex.ASCII (the C ctype table Java's regex parser uses) ---------------

export const ASCII = {
  isAscii: (c: number) => c >= 0 && c < 128,
  isDigit: (c: number) => c >= 0x30 && c <= 0x39,
  isLower: (c: number) => c >= 0x61 && c <= 0x7a,
  isUpper: (c: number) => c >= 0x41 && c <= 0x5a,
  isAlpha: (c: number) => ASCII.isLower(c) || ASCII.isUpper(c),
  isAlnum: (c: number) => ASCII.isAlpha(c) || ASCII.isDigit(c),
  isHexDigit: (c: number) => ASCII.isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66),
  /** SPACE in Java's table: \t \n \x0B \f \r and the space. */
  isSpace: (c: number) => (c >= 0x09 && c <= 0x0d) || c === 0x20,
  isWord: (c: number) => ASCII.isAlnum(c) || c === 0x5f,
  isCntrl: (c: number) => (c >= 0 && c < 0x20) || c === 0x7f,
  isPunct: (c: number) =>
    (c >= 0x21 && c <= 0x2f) || (c >= 0x3a && c <= 0x40) || (c >= 0x5b && c <= 0x60) || (c >= 0x7b && c <= 0x7e),
  isGraph: (c: number) => c >= 0x21 && c <= 0x7e,
  isBlank: (c: number) => c === 0x20 || c === 0x09,
  toLower: (c: number) => (ASCII.isUpper(c) ? c + 0x20 : c),
  toUpper: (c: number) => (ASCII.isLower(c) ? c - 0x20 : c),
  toDigit: (c: number) => (ASCII.isDigit(c) ? c - 0x30 : (c | 0x20) - 0x61 + 10),
};

// ---- general categories and properties ------------------------------------------------

export const GENERAL_CATEGORIES = [
  "Lu",
  "Ll",
  "Lt",
  "Lm",
  "Lo",
  "Mn",
  "Mc",
  "Me",
  "Nd",
  "Nl",
  "No",
  "Pc",
  "Pd",
  "Ps",
  "Pe",
  "Pi",
  "Pf",
  "Po",
  "Sm",
  "Sc",
  "Sk",
  "So",
  "Zs",
  "Zl",
  "Zp",
  "Cc",
  "Cf",
  "Cs",
  "Co",
  "Cn",
] as const;
export type GeneralCategory = (typeof GENERAL_CATEGORIES)[number];

const categoryTests = GENERAL_CATEGORIES.map((gc) => [gc, new RegExp(`^\\p{gc=${gc}}$`, "u")] as const);
const categoryCache = new Map<number, GeneralCategory>();

/** Character.getType(cp), as a two-letter Unicode category. */
export function generalCategory(cp: number): GeneralCategory {
  let gc = categoryCache.get(cp);
  if (gc === undefined) {
    const s = String.fromCodePoint(cp);
    gc = categoryTests.find(([, re]) => re.test(s))?.[0] ?? "Cn";
    if (categoryCache.size < 100_000) categoryCache.set(cp, gc);
  }
  return gc;
}

function propertyTest(name: string): (cp: number) => boolean {
  const re = new RegExp(`^\\p{${name}}$`, "u");
  const cache = new Map<number, boolean>();
  return (cp) => {
    let v = cache.get(cp);
    if (v === undefined) {
      v = re.test(String.fromCodePoint(cp));
      if (cache.size < 50_000) cache.set(cp, v);
    }
    return v;
  };
}

const inCategory =
  (...gcs: GeneralCategory[]) =>
  (cp: number) =>
    gcs.includes(generalCategory(cp));

/** The java.lang.Character predicates Java's regex classes are built from. */
export const Character = {
  isLetter: inCategory("Lu", "Ll", "Lt", "Lm", "Lo"),
  isDigit: inCategory("Nd"),
  isLetterOrDigit: inCategory("Lu", "Ll", "Lt", "Lm", "Lo", "Nd"),
  isAlphabetic: propertyTest("Alphabetic"),
  isIdeographic: propertyTest("Ideographic"),
  /** Java 17: Ll or Other_Lowercase, i.e. Unicode's Lowercase property. */
  isLowerCase: propertyTest("Lowercase"),
  isUpperCase: propertyTest("Uppercase"),
  isTitleCase: inCategory("Lt"),
  isMirrored: propertyTest("Bidi_Mirrored"),
  isDefined: (cp: number) => generalCategory(cp) !== "Cn",
  isSpaceChar: inCategory("Zs", "Zl", "Zp"),
  isWhitespace: (cp: number) =>
    (inCategory("Zs", "Zl", "Zp")(cp) && cp !== 0xa0 && cp !== 0x2007 && cp !== 0x202f) ||
    (cp >= 0x09 && cp <= 0x0d) ||
    (cp >= 0x1c && cp <= 0x1f),
  isISOControl: (cp: number) => (cp >= 0 && cp <= 0x1f) || (cp >= 0x7f && cp <= 0x9f),
  isIdentifierIgnorable: (cp: number) =>
    (cp >= 0 && cp <= 8) || (cp >= 0x0e && cp <= 0x1b) || (cp >= 0x7f && cp <= 0x9f) || generalCategory(cp) === "Cf",
  isJavaIdentifierStart: inCategory("Lu", "Ll", "Lt", "Lm", "Lo", "Nl", "Sc", "Pc"),
  isJavaIdentifierPart: (cp: number) =>
    inCategory("Lu", "Ll", "Lt", "Lm", "Lo", "Sc", "Pc", "Nd", "Nl", "Mc", "Mn")(cp) ||
    Character.isIdentifierIgnorable(cp),
};

// ---- case mapping pinned to Java 17 (Unicode 13) ---------------------------------------

/** Characters that have a case mapping in newer Unicode but none in Java 17. */
const UNCASED_IN_JAVA_17: ReadonlyArray<readonly [number, number]> = [
  [0x019b, 0x019b],
  [0x0264, 0x0264],
  [0x1c89, 0x1c8a],
  [0x2c2f, 0x2c2f],
  [0x2c5f, 0x2c5f],
  [0xa7c0, 0xa7c1],
  [0xa7cb, 0xa7dc],
  [0x10570, 0x105bc],
  [0x10d50, 0x10d85],
  [0x16ea0, 0x16ed3],
];
const uncasedInJava17 = (cp: number) => UNCASED_IN_JAVA_17.some(([lo, hi]) => cp >= lo && cp <= hi);

/** Simple uppercase mappings of characters whose full uppercase is several characters. */
function simpleUpperOfSpecial(cp: number): number {
  if ((cp >= 0x1f80 && cp <= 0x1f87) || (cp >= 0x1f90 && cp <= 0x1f97) || (cp >= 0x1fa0 && cp <= 0x1fa7)) return cp + 8;
  if (cp === 0x1fb3 || cp === 0x1fc3 || cp === 0x1ff3) return cp + 9;
  return cp;
}

function single(s: string): number | null {
  const cp = s.codePointAt(0);
  return cp !== undefined && s.length === charCount(cp) ? cp : null;
}

/** Character.toUpperCase(int) in Java 17 (simple mapping). */
export function toUpperCaseCp(cp: number): number {
  if (isSurrogate(cp) || uncasedInJava17(cp)) return cp;
  return single(String.fromCodePoint(cp).toUpperCase()) ?? simpleUpperOfSpecial(cp);
}

/** Character.toLowerCase(int) in Java 17 (simple mapping). */
export function toLowerCaseCp(cp: number): number {
  if (isSurrogate(cp) || uncasedInJava17(cp)) return cp;
  if (cp === 0x130) return 0x69;
  return single(String.fromCodePoint(cp).toLowerCase()) ?? cp;
}

/**
 * ConditionalSpecialCasing.isCased in Java 17: Lu/Ll/Lt plus the Other_Lowercase and
 * Other_Uppercase ranges Java lists by hand.
 */
function isCasedForSigma(cp: number): boolean {
  const gc = generalCategory(cp);
  if (gc === "Lu" || gc === "Ll" || gc === "Lt") return true;
  return (
    (cp >= 0x02b0 && cp <= 0x02b8) ||
    (cp >= 0x02c0 && cp <= 0x02c1) ||
    (cp >= 0x02e0 && cp <= 0x02e4) ||
    cp === 0x0345 ||
    cp === 0x037a ||
    (cp >= 0x1d2c && cp <= 0x1d61) ||
    (cp >= 0x2160 && cp <= 0x217f) ||
    (cp >= 0x24b6 && cp <= 0x24e9)
  );
}

// Java's legacy word BreakIterator (sun.text.resources.BreakIteratorRules, "WordBreakRules"),
// which ConditionalSpecialCasing consults for the final sigma: character classes and the
// longest token starting at a position.
const isKanji = (c: number) => c === 0x3005 || (c >= 0x4e00 && c <= 0x9fa5) || (c >= 0xf900 && c <= 0xfa2d);
const isKata = (c: number) => (c >= 0x30a1 && c <= 0x30fa) || c === 0x30fd || c === 0x30fe;
const isHira = (c: number) => (c >= 0x3041 && c <= 0x3094) || c === 0x309d || c === 0x309e;
const isCjkDiacrit = (c: number) => (c >= 0x3099 && c <= 0x309c) || c === 0x30fb || c === 0x30fc;
const isEnclosing = (c: number) => ["Mn", "Me"].includes(generalCategory(c));
const isIgnored = (c: number) => generalCategory(c) === "Cf";
const isLetterBase = (c: number) =>
  (generalCategory(c)[0] === "L" || generalCategory(c) === "Mc") &&
  !isKanji(c) &&
  !isKata(c) &&
  !isHira(c) &&
  !isCjkDiacrit(c);
const isDigitBase = (c: number) => generalCategory(c)[0] === "N";
const isMidWord = (c: number) =>
  ["Pd", "Pc"].includes(generalCategory(c)) || c === 0xad || c === 0x2027 || c === 0x22 || c === 0x27 || c === 0x2e;
const isMidNum = (c: number) => c === 0x22 || c === 0x27 || c === 0x2c || c === 0x66b || c === 0x2e;
const isPreNum = (c: number) => (generalCategory(c) === "Sc" && c !== 0xa2) || c === 0x23 || c === 0x2e;
const isPostNum = (c: number) => c === 0x25 || c === 0x26 || c === 0xa2 || c === 0x66a || c === 0x2030 || c === 0x2031;
const isLineSep = (c: number) => c === 0x0a || c === 0x0c || c === 0x2028 || c === 0x2029;
const isWsBase = (c: number) => generalCategory(c) === "Zs" || c === 0x09;

/** Word-break tokens of a string (indices into its code points where tokens start). */
function wordBoundaries(cps: readonly number[]): Set<number> {
  const n = cps.length;
  const at = (i: number) => (i < n ? cps[i]! : -1);
  // One character of a class (letters, digits and spaces with their enclosing marks), then ignored characters.
  const one = (i: number, is: (c: number) => boolean, withMarks = false): number => {
    if (i >= n || !is(cps[i]!)) return -1;
    i++;
    while (i < n && ((withMarks && isEnclosing(cps[i]!)) || isIgnored(cps[i]!))) i++;
    return i;
  };
  const many = (i: number, is: (c: number) => boolean, withMarks = false): number => {
    let j = one(i, is, withMarks);
    if (j < 0) return -1;
    for (let k = one(j, is, withMarks); k >= 0; k = one(j, is, withMarks)) j = k;
    return j;
  };
  const word = (i: number): number => {
    let j = many(i, isLetterBase, true);
    if (j < 0) return -1;
    for (;;) {
      const mid = one(j, isMidWord);
      const next = mid < 0 ? -1 : many(mid, isLetterBase, true);
      if (next < 0) break;
      j = next;
    }
    const danda = one(j, (c) => c === 0x964 || c === 0x965);
    return danda < 0 ? j : danda;
  };
  const numberAt = (i: number): number => {
    let j = many(i, isDigitBase, true);
    if (j < 0) return -1;
    for (;;) {
      const mid = one(j, isMidNum);
      const next = mid < 0 ? -1 : many(mid, isDigitBase, true);
      if (next < 0) break;
      j = next;
    }
    return j;
  };
  // (number word)* {number {post-num}}
  const wordsAndNumbers = (j: number): number => {
    for (;;) {
      const num = numberAt(j);
      const w = num < 0 ? -1 : word(num);
      if (w < 0) break;
      j = w;
    }
    const num = numberAt(j);
    if (num >= 0) {
      j = num;
      const post = one(j, isPostNum);
      if (post >= 0) j = post;
    }
    return j;
  };
  const tokenEnd = (i: number): number => {
    const candidates: number[] = [i + 1];
    const w = word(i);
    candidates.push(wordsAndNumbers(w < 0 ? i : w));
    const pre = one(i, isPreNum);
    if (pre >= 0) candidates.push(wordsAndNumbers(pre));
    let ws = i;
    for (let k = one(ws, isWsBase, true); k >= 0; k = one(ws, isWsBase, true)) ws = k;
    if (at(ws) === 0x0d) ws++;
    if (isLineSep(at(ws))) ws++;
    candidates.push(ws);
    for (const run of [
      (c: number) => isKata(c) || isCjkDiacrit(c),
      (c: number) => isHira(c) || isCjkDiacrit(c),
      isKanji,
    ]) {
      const r = many(i, run);
      if (r >= 0) candidates.push(r);
    }
    const base = one(i, (c) => !isEnclosing(c) && !["Cc", "Cf", "Zl", "Zp"].includes(generalCategory(c)));
    const marks = base < 0 ? -1 : many(base, isEnclosing);
    if (marks >= 0) candidates.push(marks);
    let end = Math.max(...candidates);
    while (end < n && isIgnored(cps[end]!)) end++;
    return end;
  };
  const starts = new Set<number>([0, n]);
  for (let i = 0; i < n;) {
    starts.add(i);
    i = tokenEnd(i);
  }
  return starts;
}

/** ConditionalSpecialCasing.isFinalCased: a cased letter before the sigma and none after it, within one word. */
function isFinalSigma(cps: readonly number[], index: number, boundaries: Set<number>): boolean {
  for (let i = index; i >= 0 && !boundaries.has(i); i--) {
    if (isCasedForSigma(cps[i - 1]!)) {
      for (let j = index + 1; j < cps.length && !boundaries.has(j); j++) if (isCasedForSigma(cps[j]!)) return false;
      return true;
    }
  }
  return false;
}

/** String.toLowerCase(Locale.ENGLISH) (the same for Locale.ROOT) as Java 17 computes it. */
export function javaToLowerCase(s: string): string {
  const cps = codePoints(s);
  let boundaries: Set<number> | null = null;
  let out = "";
  for (let i = 0; i < cps.length; i++) {
    const cp = cps[i]!;
    if (cp === 0x3a3) out += isFinalSigma(cps, i, (boundaries ??= wordBoundaries(cps))) ? "\u03c2" : "\u03c3";
    else if (cp === 0x130) out += "i\u0307";
    else out += String.fromCodePoint(toLowerCaseCp(cp));
  }
  return out;
}

/** String.toUpperCase(Locale.ENGLISH) (the same for Locale.ROOT) as Java 17 computes it: full mappings (ß -> SS). */
export function javaToUpperCase(s: string): string {
  let out = "";
  for (const cp of codePoints(s)) {
    if (isSurrogate(cp) || uncasedInJava17(cp)) out += String.fromCodePoint(cp);
    else out += String.fromCodePoint(cp).toUpperCase();
  }
  return out;
}

/** String.trim(): removes leading and trailing characters <= U+0020. */
export function javaTrim(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && s.charCodeAt(a) <= 0x20) a++;
  while (b > a && s.charCodeAt(b - 1) <= 0x20) b--;
  return s.slice(a, b);
}
