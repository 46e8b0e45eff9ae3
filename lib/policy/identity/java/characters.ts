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
 * after Unicode 13 keep none, as in Java). General categories and properties come from
 * the JavaScript engine: characters assigned after Unicode 13 are categorised there
 * but are unassigned (Cn) in Java 17 — the only known difference.
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
  for (let i = 0; i < s.length; ) {
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
  isPunct: (c: number) => (c >= 0x21 && c <= 0x2f) || (c >= 0x3a && c <= 0x40) || (c >= 0x5b && c <= 0x60) || (c >= 0x7b && c <= 0x7e),
  isGraph: (c: number) => c >= 0x21 && c <= 0x7e,
  isBlank: (c: number) => c === 0x20 || c === 0x09,
  toLower: (c: number) => (ASCII.isUpper(c) ? c + 0x20 : c),
  toUpper: (c: number) => (ASCII.isLower(c) ? c - 0x20 : c),
  toDigit: (c: number) => (ASCII.isDigit(c) ? c - 0x30 : (c | 0x20) - 0x61 + 10),
};

// ---- general categories and properties ------------------------------------------------

export const GENERAL_CATEGORIES = [
  "Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me", "Nd", "Nl", "No", "Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po",
  "Sm", "Sc", "Sk", "So", "Zs", "Zl", "Zp", "Cc", "Cf", "Cs", "Co", "Cn",
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

const inCategory = (...gcs: GeneralCategory[]) => (cp: number) => gcs.includes(generalCategory(cp));

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
    (inCategory("Zs", "Zl", "Zp")(cp) && cp !== 0xa0 && cp !== 0x2007 && cp !== 0x202f) || (cp >= 0x09 && cp <= 0x0d) || (cp >= 0x1c && cp <= 0x1f),
  isISOControl: (cp: number) => (cp >= 0 && cp <= 0x1f) || (cp >= 0x7f && cp <= 0x9f),
  isIdentifierIgnorable: (cp: number) => (cp >= 0 && cp <= 8) || (cp >= 0x0e && cp <= 0x1b) || (cp >= 0x7f && cp <= 0x9f) || generalCategory(cp) === "Cf",
  isJavaIdentifierStart: inCategory("Lu", "Ll", "Lt", "Lm", "Lo", "Nl", "Sc", "Pc"),
  isJavaIdentifierPart: (cp: number) => inCategory("Lu", "Ll", "Lt", "Lm", "Lo", "Sc", "Pc", "Nd", "Nl", "Mc", "Mn")(cp) || Character.isIdentifierIgnorable(cp),
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

/**
 * Whether Java keeps walking inside the same word when it looks for cased letters around
 * a capital sigma. Java uses its legacy word BreakIterator there; letters, marks, digits
 * and format characters stay inside a word, anything else ends it. (An approximation of
 * that iterator's rules: mid-word punctuation such as an apostrophe between two letters
 * is treated as a boundary.)
 */
function staysInWord(cp: number): boolean {
  const gc = generalCategory(cp);
  return gc[0] === "L" || gc[0] === "M" || gc[0] === "N" || gc === "Cf";
}

function isFinalSigma(cps: readonly number[], index: number): boolean {
  for (let i = index - 1; i >= 0 && staysInWord(cps[i]!); i--) {
    if (isCasedForSigma(cps[i]!)) {
      for (let j = index + 1; j < cps.length && staysInWord(cps[j]!); j++) if (isCasedForSigma(cps[j]!)) return false;
      return true;
    }
  }
  return false;
}

/** String.toLowerCase(Locale.ENGLISH) (the same for Locale.ROOT) as Java 17 computes it. */
export function javaToLowerCase(s: string): string {
  const cps = codePoints(s);
  let out = "";
  for (let i = 0; i < cps.length; i++) {
    const cp = cps[i]!;
    if (cp === 0x3a3) out += isFinalSigma(cps, i) ? "\u03c2" : "\u03c3";
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
