/**
 * The character classes of Java's regex syntax: \d \w \s \h \v (ASCII unless (?U)), `.`,
 * and the \p{...} names Java 17 knows (java.util.regex.CharPredicates): general categories,
 * POSIX classes (ASCII by default), binary properties with the Is prefix, java* methods
 * and scripts. Blocks (\p{InGreek}, \p{block=...}) are not mirrored: the policy core says
 * so instead of guessing whether Java knows the block name.
 */
import { ASCII, Character, generalCategory, javaToUpperCase, type GeneralCategory } from "../characters";
import { unsupported } from "../exception";
import { negate, pred, union, union3, type CharPredicate } from "./nodes";

const category = (...gcs: GeneralCategory[]): CharPredicate => pred((cp) => gcs.includes(generalCategory(cp)));
const range = (lo: number, hi: number): CharPredicate => pred((cp) => cp >= lo && cp <= hi, true);
const ascii = (is: (cp: number) => boolean): CharPredicate => pred((cp) => cp < 128 && is(cp), true);

const LETTERS: GeneralCategory[] = ["Lu", "Ll", "Lt", "Lm", "Lo"];
const CASED: GeneralCategory[] = ["Lu", "Ll", "Lt"];

export const ALL = (): CharPredicate => pred(() => true);
export const DOT = (): CharPredicate => pred((ch) => ch !== 0x0a && ch !== 0x0d && (ch | 1) !== 0x2029 && ch !== 0x85);
export const UNIXDOT = (): CharPredicate => pred((ch) => ch !== 0x0a);
export const ASCII_DIGIT = (): CharPredicate => ascii(ASCII.isDigit);
export const ASCII_WORD = (): CharPredicate => ascii(ASCII.isWord);
export const ASCII_SPACE = (): CharPredicate => ascii(ASCII.isSpace);
export const HORIZ_WS = (): CharPredicate =>
  pred(
    (cp) =>
      cp === 0x09 ||
      cp === 0x20 ||
      cp === 0xa0 ||
      cp === 0x1680 ||
      cp === 0x180e ||
      (cp >= 0x2000 && cp <= 0x200a) ||
      cp === 0x202f ||
      cp === 0x205f ||
      cp === 0x3000,
    true,
  );
export const VERT_WS = (): CharPredicate =>
  pred((cp) => (cp >= 0x0a && cp <= 0x0d) || cp === 0x85 || cp === 0x2028 || cp === 0x2029, true);

const ALPHABETIC = (): CharPredicate => pred(Character.isAlphabetic);
export const DIGIT = (): CharPredicate => pred(Character.isDigit);
const LOWERCASE = (): CharPredicate => pred(Character.isLowerCase);
const UPPERCASE = (): CharPredicate => pred(Character.isUpperCase);
const TITLECASE = (): CharPredicate => pred(Character.isTitleCase);
export const WHITE_SPACE = (): CharPredicate =>
  pred((cp) => ["Zs", "Zl", "Zp"].includes(generalCategory(cp)) || (cp >= 0x09 && cp <= 0x0d) || cp === 0x85);
const CONTROL = (): CharPredicate => category("Cc");
const PUNCTUATION = (): CharPredicate => category("Pc", "Pd", "Ps", "Pe", "Po", "Pi", "Pf");
const HEX_DIGIT = (): CharPredicate =>
  union(
    DIGIT(),
    pred(
      (ch) =>
        (ch >= 0x30 && ch <= 0x39) ||
        (ch >= 0x41 && ch <= 0x46) ||
        (ch >= 0x61 && ch <= 0x66) ||
        (ch >= 0xff10 && ch <= 0xff19) ||
        (ch >= 0xff21 && ch <= 0xff26) ||
        (ch >= 0xff41 && ch <= 0xff46),
    ),
  );
const JOIN_CONTROL = (): CharPredicate => pred((ch) => ch === 0x200c || ch === 0x200d);
const BLANK = (): CharPredicate => pred((ch) => generalCategory(ch) === "Zs" || ch === 0x09);
const GRAPH = (): CharPredicate => pred((ch) => !["Zs", "Zl", "Zp", "Cc", "Cs", "Cn"].includes(generalCategory(ch)));
const PRINT = (): CharPredicate => pred((ch) => (GRAPH().is(ch) || BLANK().is(ch)) && !CONTROL().is(ch));
export const WORD = (): CharPredicate =>
  pred(
    (ch) =>
      Character.isAlphabetic(ch) ||
      ["Mn", "Me", "Mc", "Nd", "Pc"].includes(generalCategory(ch)) ||
      JOIN_CONTROL().is(ch),
  );

function posixPredicate(name: string, caseIns: boolean): CharPredicate | null {
  switch (name) {
    case "ALPHA":
      return ALPHABETIC();
    case "LOWER":
      return caseIns ? union3(LOWERCASE(), UPPERCASE(), TITLECASE()) : LOWERCASE();
    case "UPPER":
      return caseIns ? union3(UPPERCASE(), LOWERCASE(), TITLECASE()) : UPPERCASE();
    case "SPACE":
      return WHITE_SPACE();
    case "PUNCT":
      return PUNCTUATION();
    case "XDIGIT":
      return HEX_DIGIT();
    case "ALNUM":
      return union(ALPHABETIC(), DIGIT());
    case "CNTRL":
      return CONTROL();
    case "DIGIT":
      return DIGIT();
    case "BLANK":
      return BLANK();
    case "GRAPH":
      return GRAPH();
    case "PRINT":
      return PRINT();
    default:
      return null;
  }
}

function unicodePredicate(name: string, caseIns: boolean): CharPredicate | null {
  switch (name) {
    case "ALPHABETIC":
      return ALPHABETIC();
    case "ASSIGNED":
      return pred((ch) => generalCategory(ch) !== "Cn");
    case "CONTROL":
      return CONTROL();
    case "HEXDIGIT":
    case "HEX_DIGIT":
      return HEX_DIGIT();
    case "IDEOGRAPHIC":
      return pred(Character.isIdeographic);
    case "JOINCONTROL":
    case "JOIN_CONTROL":
      return JOIN_CONTROL();
    case "LETTER":
      return pred(Character.isLetter);
    case "LOWERCASE":
      return caseIns ? union3(LOWERCASE(), UPPERCASE(), TITLECASE()) : LOWERCASE();
    case "NONCHARACTERCODEPOINT":
    case "NONCHARACTER_CODE_POINT":
      return pred((ch) => (ch & 0xfffe) === 0xfffe || (ch >= 0xfdd0 && ch <= 0xfdef));
    case "TITLECASE":
      return caseIns ? union3(TITLECASE(), LOWERCASE(), UPPERCASE()) : TITLECASE();
    case "PUNCTUATION":
      return PUNCTUATION();
    case "UPPERCASE":
      return caseIns ? union3(UPPERCASE(), LOWERCASE(), TITLECASE()) : UPPERCASE();
    case "WHITESPACE":
    case "WHITE_SPACE":
      return WHITE_SPACE();
    case "WORD":
      return WORD();
    default:
      return null;
  }
}

/** \p{IsXxx} without the prefix: Unicode binary properties, then Unicode POSIX classes. */
export function forUnicodeProperty(name: string, caseIns: boolean): CharPredicate | null {
  const upper = javaToUpperCase(name);
  return unicodePredicate(upper, caseIns) ?? posixPredicate(upper, caseIns);
}

/** The Unicode versions of the POSIX names, used by \p{Alpha} etc. under (?U). */
export function forPosixName(name: string, caseIns: boolean): CharPredicate | null {
  return posixPredicate(javaToUpperCase(name), caseIns);
}

/** \p{name} names that are case-sensitive in Java: categories, ASCII POSIX classes, java* methods. */
export function forProperty(name: string, caseIns: boolean): CharPredicate | null {
  switch (name) {
    case "Cn":
      return category("Cn");
    case "Lu":
      return category(...(caseIns ? CASED : ["Lu" as const]));
    case "Ll":
      return category(...(caseIns ? CASED : ["Ll" as const]));
    case "Lt":
      return category(...(caseIns ? CASED : ["Lt" as const]));
    case "Lm":
    case "Lo":
    case "Mn":
    case "Me":
    case "Mc":
    case "Nd":
    case "Nl":
    case "No":
    case "Zs":
    case "Zl":
    case "Zp":
    case "Cc":
    case "Cf":
    case "Co":
    case "Cs":
    case "Pd":
    case "Ps":
    case "Pe":
    case "Pc":
    case "Po":
    case "Sm":
    case "Sc":
    case "Sk":
    case "So":
    case "Pi":
    case "Pf":
      return category(name);
    case "L":
      return category(...LETTERS);
    case "M":
      return category("Mn", "Me", "Mc");
    case "N":
      return category("Nd", "Nl", "No");
    case "Z":
      return category("Zs", "Zl", "Zp");
    case "C":
      return category("Cc", "Cf", "Co", "Cs", "Cn");
    case "P":
      return PUNCTUATION();
    case "S":
      return category("Sm", "Sc", "Sk", "So");
    case "LC":
      return category(...CASED);
    case "LD":
      return category(...LETTERS, "Nd");
    case "L1":
      return range(0x00, 0xff);
    case "all":
      return ALL();
    case "ASCII":
      return range(0x00, 0x7f);
    case "Alnum":
      return ascii(ASCII.isAlnum);
    case "Alpha":
      return ascii(ASCII.isAlpha);
    case "Blank":
      return ascii(ASCII.isBlank);
    case "Cntrl":
      return ascii(ASCII.isCntrl);
    case "Digit":
      return range(0x30, 0x39);
    case "Graph":
      return ascii(ASCII.isGraph);
    case "Lower":
      return caseIns ? ascii(ASCII.isAlpha) : range(0x61, 0x7a);
    case "Print":
      return range(0x20, 0x7e);
    case "Punct":
      return ascii(ASCII.isPunct);
    case "Space":
      return ascii(ASCII.isSpace);
    case "Upper":
      return caseIns ? ascii(ASCII.isAlpha) : range(0x41, 0x5a);
    case "XDigit":
      return ascii(ASCII.isHexDigit);
    case "javaLowerCase":
      return caseIns ? union3(LOWERCASE(), UPPERCASE(), TITLECASE()) : LOWERCASE();
    case "javaUpperCase":
      return caseIns ? union3(UPPERCASE(), LOWERCASE(), TITLECASE()) : UPPERCASE();
    case "javaAlphabetic":
      return ALPHABETIC();
    case "javaIdeographic":
      return pred(Character.isIdeographic);
    case "javaTitleCase":
      return caseIns ? union3(TITLECASE(), LOWERCASE(), UPPERCASE()) : TITLECASE();
    case "javaDigit":
      return DIGIT();
    case "javaDefined":
      return pred(Character.isDefined);
    case "javaLetter":
      return pred(Character.isLetter);
    case "javaLetterOrDigit":
      return pred(Character.isLetterOrDigit);
    case "javaJavaIdentifierStart":
      return pred(Character.isJavaIdentifierStart);
    case "javaJavaIdentifierPart":
      return pred(Character.isJavaIdentifierPart);
    case "javaIdentifierIgnorable":
      return pred(Character.isIdentifierIgnorable);
    case "javaSpaceChar":
      return pred(Character.isSpaceChar);
    case "javaWhitespace":
      return pred(Character.isWhitespace);
    case "javaISOControl":
      return pred(Character.isISOControl);
    case "javaMirrored":
      return pred(Character.isMirrored);
    case "javaUnicodeIdentifierStart":
    case "javaUnicodeIdentifierPart":
      throw unsupported(`\\p{${name}} (Character.isUnicodeIdentifierStart/Part) is not reproduced by the policy core`);
    default:
      return null;
  }
}

/** Java 17's scripts: ISO 15924 code and Character.UnicodeScript constant. */
const SCRIPTS =
  "ADLM:ADLAM AGHB:CAUCASIAN_ALBANIAN AHOM:AHOM ARAB:ARABIC ARMI:IMPERIAL_ARAMAIC ARMN:ARMENIAN AVST:AVESTAN BALI:BALINESE BAMU:BAMUM " +
  "BASS:BASSA_VAH BATK:BATAK BENG:BENGALI BHKS:BHAIKSUKI BOPO:BOPOMOFO BRAH:BRAHMI BRAI:BRAILLE BUGI:BUGINESE BUHD:BUHID CAKM:CHAKMA " +
  "CANS:CANADIAN_ABORIGINAL CARI:CARIAN CHAM:CHAM CHER:CHEROKEE CHRS:CHORASMIAN COPT:COPTIC CPRT:CYPRIOT CYRL:CYRILLIC DEVA:DEVANAGARI " +
  "DIAK:DIVES_AKURU DOGR:DOGRA DSRT:DESERET DUPL:DUPLOYAN EGYP:EGYPTIAN_HIEROGLYPHS ELBA:ELBASAN ELYM:ELYMAIC ETHI:ETHIOPIC GEOR:GEORGIAN " +
  "GLAG:GLAGOLITIC GONM:MASARAM_GONDI GOTH:GOTHIC GONG:GUNJALA_GONDI GRAN:GRANTHA GREK:GREEK GUJR:GUJARATI GURU:GURMUKHI HANG:HANGUL HANI:HAN " +
  "HANO:HANUNOO HATR:HATRAN HEBR:HEBREW HIRA:HIRAGANA HLUW:ANATOLIAN_HIEROGLYPHS HMNG:PAHAWH_HMONG HMNP:NYIAKENG_PUACHUE_HMONG " +
  "HUNG:OLD_HUNGARIAN ITAL:OLD_ITALIC JAVA:JAVANESE KALI:KAYAH_LI KANA:KATAKANA KHAR:KHAROSHTHI KHMR:KHMER KHOJ:KHOJKI " +
  "KITS:KHITAN_SMALL_SCRIPT KNDA:KANNADA KTHI:KAITHI LANA:TAI_THAM LAOO:LAO LATN:LATIN LEPC:LEPCHA LIMB:LIMBU LINA:LINEAR_A LINB:LINEAR_B " +
  "LISU:LISU LYCI:LYCIAN LYDI:LYDIAN MAHJ:MAHAJANI MAKA:MAKASAR MARC:MARCHEN MAND:MANDAIC MANI:MANICHAEAN MEDF:MEDEFAIDRIN MEND:MENDE_KIKAKUI " +
  "MERC:MEROITIC_CURSIVE MERO:MEROITIC_HIEROGLYPHS MLYM:MALAYALAM MODI:MODI MONG:MONGOLIAN MROO:MRO MTEI:MEETEI_MAYEK MULT:MULTANI " +
  "MYMR:MYANMAR NAND:NANDINAGARI NARB:OLD_NORTH_ARABIAN NBAT:NABATAEAN NEWA:NEWA NKOO:NKO NSHU:NUSHU OGAM:OGHAM OLCK:OL_CHIKI ORKH:OLD_TURKIC " +
  "ORYA:ORIYA OSGE:OSAGE OSMA:OSMANYA PALM:PALMYRENE PAUC:PAU_CIN_HAU PERM:OLD_PERMIC PHAG:PHAGS_PA PHLI:INSCRIPTIONAL_PAHLAVI " +
  "PHLP:PSALTER_PAHLAVI PHNX:PHOENICIAN PLRD:MIAO PRTI:INSCRIPTIONAL_PARTHIAN RJNG:REJANG ROHG:HANIFI_ROHINGYA RUNR:RUNIC SAMR:SAMARITAN " +
  "SARB:OLD_SOUTH_ARABIAN SAUR:SAURASHTRA SGNW:SIGNWRITING SHAW:SHAVIAN SHRD:SHARADA SIDD:SIDDHAM SIND:KHUDAWADI SINH:SINHALA SOGD:SOGDIAN " +
  "SOGO:OLD_SOGDIAN SORA:SORA_SOMPENG SOYO:SOYOMBO SUND:SUNDANESE SYLO:SYLOTI_NAGRI SYRC:SYRIAC TAGB:TAGBANWA TAKR:TAKRI TALE:TAI_LE " +
  "TALU:NEW_TAI_LUE TAML:TAMIL TANG:TANGUT TAVT:TAI_VIET TELU:TELUGU TFNG:TIFINAGH TGLG:TAGALOG THAA:THAANA THAI:THAI TIBT:TIBETAN " +
  "TIRH:TIRHUTA UGAR:UGARITIC VAII:VAI WARA:WARANG_CITI WCHO:WANCHO XPEO:OLD_PERSIAN XSUX:CUNEIFORM YIII:YI YEZI:YEZIDI ZANB:ZANABAZAR_SQUARE " +
  "ZINH:INHERITED ZYYY:COMMON ZZZZ:UNKNOWN ";
const scriptCodes = new Map<string, string>();
for (const entry of SCRIPTS.trim().split(/\s+/)) {
  const [code, constant] = entry.split(":") as [string, string];
  const jsCode = code[0] + code.slice(1).toLowerCase();
  scriptCodes.set(code, jsCode);
  if (!scriptCodes.has(constant)) scriptCodes.set(constant, jsCode);
}

/** Character.UnicodeScript.forName(name): the alias or the constant name, case-insensitively. */
export function forUnicodeScript(name: string): CharPredicate | null {
  const code = scriptCodes.get(javaToUpperCase(name));
  if (code === undefined) return null;
  const re = new RegExp(`^\\p{Script=${code}}$`, "u");
  return pred((cp) => re.test(String.fromCodePoint(cp)));
}

/** Unicode blocks are not mirrored (Java's block table is not reproduced). */
export function forUnicodeBlock(name: string): never {
  throw unsupported(
    `the Unicode block property "${name}" (\\p{In...} / \\p{block=...}) is not reproduced by the policy core`,
  );
}

export { negate };
