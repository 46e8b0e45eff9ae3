/**
 * Differential test: the policy core's principal mapping against Apache Kafka 4.1.1's real
 * classes in a JVM (java/PrincipalMapHarness.java, driven by
 * scripts/principal-map-harness.ts; needs Java 17 and the jars of `bash scripts/kafka.sh
 * jars`, not the broker).
 *
 * fast-check generates whole `principal-map` documents — SSL rule lists and Kerberos rule
 * lists as they would be written in server.properties (several separators, empty items,
 * invalid rules, patterns with commas, escapes, groups, look-arounds, inline flags,
 * Unicode; replacements with $n, ${name}, escapes; /L /U and malformed flags), DNs with
 * escaped commas and non-ASCII letters, clients without certificates, Kerberos principals
 * with and without host and realm, malformed ones, and default realms — and both sides
 * must give the same `results` (name and principal, or exception class and message).
 *
 * Below the mapping, the Java regex mirror is compared with java.util.regex directly
 * (compile errors, matches, groups, lookingAt, replaceAll, replaceFirst, split) on random
 * patterns, and Java's case mapping on every code point and on strings around the Greek
 * capital sigma.
 *
 * Cases the mirror declines (UnsupportedJavaRegex: a construct it does not reproduce, or
 * a backtracking budget Java does not have) are counted, not compared. On a disagreement
 * fast-check shrinks the case and the failure prints the minimised input with both
 * answers.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import {
  HarnessTimeoutError,
  PrincipalMapHarness,
  type JavaRegexAnswer,
  type JavaRegexResult,
} from "../../../scripts/principal-map-harness";
import { javaToLowerCase, javaToUpperCase } from "./java/characters";
import { JavaException, UNSUPPORTED_JAVA_REGEX } from "./java/exception";
import { JavaPattern } from "./java/regex/pattern";
import { mapPrincipals, type PrincipalMappingConfig, type PrincipalMappingRequest } from "./principal-map";

const RUNS = Number(process.env.PRINCIPAL_MAP_DIFF_RUNS ?? 1500);

let harness: PrincipalMapHarness;

beforeAll(async () => {
  harness = await PrincipalMapHarness.start();
}, 180_000);

afterAll(async () => {
  await harness?.close();
});

// ---- generators: Java regular expressions ------------------------------------------------

const LITERALS = [
  "a",
  "b",
  "c",
  "A",
  "B",
  "C",
  "N",
  "O",
  "U",
  "=",
  ",",
  ".",
  "-",
  " ",
  "@",
  "é",
  "É",
  "ß",
  "İ",
  "Σ",
  "σ",
  "😀",
  "\u212a",
  "k",
  "_",
  "1",
  "\ud800",
  "\n",
  "#",
  "\t",
];
const ESCAPES = [
  String.raw`\,`,
  String.raw`\.`,
  String.raw`\w`,
  String.raw`\d`,
  String.raw`\s`,
  String.raw`\W`,
  String.raw`\S`,
  String.raw`\b`,
  String.raw`\B`,
  String.raw`\\`,
  String.raw`\@`,
  String.raw`\x41`,
  String.raw`\u00e9`,
  String.raw`\t`,
  String.raw`\Q.*\E`,
  String.raw`\Qa`,
  String.raw`\R`,
  String.raw`\h`,
  String.raw`\z`,
  String.raw`\Z`,
  String.raw`\A`,
  String.raw`\G`,
  String.raw`\1`,
  String.raw`\2`,
  String.raw`\k<n>`,
  "(?<=a|bc)",
  "(?<!b)",
  "(?<=\\w{1,2})",
  String.raw`\0101`,
  String.raw`\07`,
  String.raw`\x{1F600}`,
  String.raw`\ud83d\ude00`,
  String.raw`\ud83d`,
  String.raw`\cA`,
  String.raw`\e`,
  String.raw`\a`,
  String.raw`\f`,
  String.raw`\H`,
  String.raw`\v`,
  String.raw`\V`,
];
const CLASSES = [
  "[a-z]",
  "[A-Z]",
  "[^,]",
  "[Cc]",
  "[Nn]",
  "[a-zA-Z0-9.]",
  "[^=,]",
  String.raw`[\w&&[^\d]]`,
  String.raw`\p{Lu}`,
  String.raw`\p{L}`,
  String.raw`\P{Ll}`,
  "[é-ü]",
  "[^a]",
  String.raw`\p{IsLatin}`,
  String.raw`\p{Alpha}`,
  String.raw`\p{IsAlphabetic}`,
  String.raw`\p{javaLowerCase}`,
  "[a-c[x-z]]",
  "[^]a]",
  "[]a]",
  "[a-]",
  "[😀-😂]",
  String.raw`[\d-z]`,
  String.raw`[a-\d]`,
  "[&&a]",
  "[a&&]",
  "[^&&b]",
  String.raw`[\Q]\E]`,
  String.raw`[\x41-\x{5A}]`,
  String.raw`[\v-\x0d]`,
  "[a&b]",
  String.raw`\pL`,
  String.raw`\p{gc=Lu}`,
  String.raw`\p{sc=Greek}`,
  String.raw`\p{IsLu}`,
  String.raw`[\p{L}&&[^a-z]]`,
  "[k-m]",
  "[A-Z&&[^K]]",
  String.raw`\p{Lower}`,
  String.raw`\p{IsLowercase}`,
  "[ä-ö]",
  "[\u00e0-\u00ff]",
];
const BROKEN = [
  "(",
  ")",
  "[",
  "*",
  "+a",
  "{",
  "a{2,1}",
  "\\",
  String.raw`\k<x>`,
  String.raw`\p{Nope}`,
  "(?<n>a)(?<n>b)",
  "[b-a]",
  String.raw`\y`,
  "(?",
  "(?<=a*b+c)",
];
const QUANTIFIERS = ["", "", "", "", "*", "+", "?", "*?", "+?", "??", "{1,2}", "{2}", "{0,}", "*+", "++", "?+"];
const GROUP_OPENERS = [
  "(",
  "(",
  "(?:",
  "(?<n>",
  "(?=",
  "(?!",
  "(?i)(",
  "(?i:",
  "(?iu:",
  "(?>",
  "(?<=",
  "(?<!",
  "(?-i:",
  "(?x:",
];

function regexArb(opts: { allowBroken: boolean; maxDepth: number }): fc.Arbitrary<string> {
  const { re } = fc.letrec<{ re: string; seq: string; piece: string; atom: string; group: string }>((tie) => ({
    re: fc.oneof(
      { maxDepth: opts.maxDepth, depthIdentifier: "re" },
      tie("seq"),
      fc.tuple(tie("seq"), tie("seq")).map(([a, b]) => `${a}|${b}`),
    ),
    seq: fc.array(tie("piece"), { maxLength: 4 }).map((pieces) => pieces.join("")),
    piece: fc.tuple(tie("atom"), fc.constantFrom(...QUANTIFIERS)).map(([a, q]) => a + q),
    atom: fc.oneof(
      { maxDepth: opts.maxDepth, depthIdentifier: "re" },
      { weight: 5, arbitrary: fc.constantFrom(...LITERALS) },
      { weight: 2, arbitrary: fc.constantFrom(...ESCAPES) },
      { weight: 2, arbitrary: fc.constantFrom(...CLASSES) },
      { weight: 2, arbitrary: fc.constantFrom(".", "^", "$") },
      { weight: opts.allowBroken ? 1 : 0, arbitrary: fc.constantFrom(...BROKEN) },
      { weight: 2, arbitrary: tie("group") },
    ),
    group: fc.tuple(fc.constantFrom(...GROUP_OPENERS), tie("re")).map(([open, body]) => `${open}${body})`),
  }));
  return fc.oneof(
    re,
    fc.tuple(fc.constantFrom("(?i)", "(?iu)", "(?s)", "(?m)", "(?d)", "(?x)", "(?U)"), re).map(([f, r]) => f + r),
  );
}

const REPLACEMENTS = [
  "$1",
  "$1",
  "$2",
  "$0",
  "$1@$2",
  "${n}",
  "x",
  String.raw`\$1`,
  "$",
  "\\",
  "$12",
  "$x",
  "",
  "$1$1",
  "CN",
  "$99999999999",
  "${1n}",
  "${}",
  "é",
];

// ---- generators: SSL ---------------------------------------------------------------------

/** A well-formed SSL rule (the broker starts with it), or with `anything` any item at all. */
const sslRuleArb = (anything: boolean): fc.Arbitrary<string> =>
  fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .tuple(
          regexArb({ allowBroken: anything, maxDepth: 2 }),
          // A lone backslash would escape the rule's closing slash.
          fc.constantFrom(...REPLACEMENTS.filter((r) => anything || r !== "\\")),
          anything
            ? fc.constantFrom("", "", "", "L", "U", "LU", "X", "/", " ", "l")
            : fc.constantFrom("", "", "L", "U"),
          anything ? fc.constantFrom("", "", "", " ", "x") : fc.constant(""),
        )
        .map(([pattern, replacement, flags, tail]) => `RULE:${pattern}/${replacement}/${flags}${tail}`),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        "DEFAULT",
        "",
        "RULE://",
        "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/",
        "RULE:^CN=(.*?),OU=(.*?),O=(.*?),L=(.*?),ST=(.*?),C=(.*?)$/$1@$2/L",
        "RULE:^.*[Cc][Nn]=([a-zA-Z0-9.]*).*$/$1/L",
        String.raw`RULE:^CN=((\\, *|\w)+)(,.*|$)/$1/`,
        ...(anything ? ["default", "RULE:", "DEFAULT/L", "RULE:x"] : []),
      ),
    },
  );

const SEPARATORS = [",", ",", ", ", " , ", ",\n", " ,  ", "\t,"];
const rulesListArb = (item: fc.Arbitrary<string>, edges: readonly string[]) =>
  fc
    .tuple(
      fc.array(item, { minLength: 1, maxLength: 3 }),
      fc.array(fc.constantFrom(...SEPARATORS), { minLength: 3, maxLength: 3 }),
      fc.constantFrom(...edges),
    )
    .map(
      ([items, seps, edge]) => edge + items.reduce((acc, it, i) => (i === 0 ? it : acc + seps[i - 1] + it), "") + edge,
    );

const DN_CHARS = [
  "a",
  "b",
  "d",
  "e",
  "k",
  "u",
  "A",
  "D",
  "K",
  "S",
  "0",
  "1",
  " ",
  ".",
  "-",
  "_",
  "é",
  "É",
  "ß",
  "İ",
  "Σ",
  "😀",
  "\\,",
  "+",
  "@",
  "/",
  "\u212a",
];
const dnValueArb = fc.string({ unit: fc.constantFrom(...DN_CHARS), maxLength: 8 });
const dnArb: fc.Arbitrary<string | null> = fc.oneof(
  { weight: 1, arbitrary: fc.constant(null) },
  {
    weight: 6,
    arbitrary: fc
      .array(fc.tuple(fc.constantFrom("CN", "OU", "O", "L", "ST", "C", "DC", "cn", "ou", "Cn"), dnValueArb), {
        minLength: 1,
        maxLength: 4,
      })
      .map((rdns) => rdns.map(([k, v]) => `${k}=${v}`).join(",")),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "CN=serviceuser,OU=ServiceUsers,O=Unknown,L=Unknown,ST=Unknown,C=Unknown",
      "CN=adminUser,OU=Admin,O=Unknown,L=Unknown,ST=Unknown,C=Unknown",
      "",
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom(...DN_CHARS, "=", ","), maxLength: 10 }) },
);

// ---- generators: Kerberos ----------------------------------------------------------------

const FORMAT_TOKENS = ["$0", "$1", "$1", "$2", "$3", "@", ".", "x", "-", "$1$2"];
const SIMPLE_PATTERNS = [
  ".*",
  ".*@MYDOMAIN.COM",
  String.raw`App\..*`,
  "[a-z]+",
  "ABC.*",
  ".*@.*",
  "a",
  "",
  "x|y",
  "[^@]*",
  "(?i)app.*",
  "(.*)@(.*)",
  "[A-Z]",
  String.raw`\.`,
  "ß",
  "(?iu)é",
];
const simplePatternArb = (anything: boolean) =>
  anything
    ? fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...SIMPLE_PATTERNS) },
        { weight: 2, arbitrary: regexArb({ allowBroken: true, maxDepth: 1 }) },
      )
    : fc.constantFrom(...SIMPLE_PATTERNS);

/** A well-formed Kerberos rule, or with `anything` any item at all. */
const kerberosRuleArb = (anything: boolean): fc.Arbitrary<string> =>
  fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .record({
          n: anything
            ? fc.constantFrom("0", "1", "1", "2", "2", "3", "", "01")
            : fc.constantFrom("0", "1", "1", "2", "2", "3"),
          format: fc
            .array(fc.constantFrom(...FORMAT_TOKENS, ...(anything ? ["$", "$a", "/"] : [])), {
              minLength: 1,
              maxLength: 3,
            })
            .map((t) => t.join("")),
          match: fc.option(
            simplePatternArb(anything).filter((p) => anything || !p.includes(")")),
            { nil: null },
          ),
          subst: fc.option(
            fc.tuple(
              simplePatternArb(anything).filter((p) => anything || !p.includes("/")),
              fc.constantFrom("", "$1", "x", "XYZ", "@", "_", ...(anything ? ["\\", "$"] : [])),
            ),
            { nil: null },
          ),
          g: fc.boolean(),
          flag: anything
            ? fc.constantFrom("", "", "/L", "/U", "/LU", "/l", "L", "/")
            : fc.constantFrom("", "", "/L", "/U"),
        })
        .map(
          ({ n, format, match, subst, g, flag }) =>
            `RULE:[${n}:${format}]${match === null ? "" : `(${match})`}` +
            `${subst === null ? "" : `s/${subst[0]}/${subst[1]}/${g ? "g" : ""}`}${flag}`,
        ),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        "DEFAULT",
        "DEFAULT",
        "RULE:[1:$1@$0](.*@MYDOMAIN.COM)s/@.*//",
        ...(anything ? ["default", "", "DEFAULT/L", "RULE:[2:$1;$2](.*)", "RULE:[1:$1"] : []),
      ),
    },
  );

const NAME_CHARS = ["a", "b", "u", "A", "B", "x", "0", ".", "-", "_", "é", "ß", "Σ", "İ", "😀"];
const componentArb = fc.string({ unit: fc.constantFrom(...NAME_CHARS), maxLength: 6 });
const principalArb: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .record({
        service: componentArb,
        host: fc.option(componentArb, { nil: null }),
        realm: fc.option(fc.constantFrom("REALM.COM", "EXAMPLE.COM", "MYDOMAIN.COM", "", "R"), { nil: null }),
      })
      .map(
        ({ service, host, realm }) => service + (host === null ? "" : `/${host}`) + (realm === null ? "" : `@${realm}`),
      ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "a/b/c@R",
      "a@b@c",
      "user@MYDOMAIN.COM",
      "App.service-name/example.com@REALM.COM",
      "@",
      "/",
      "",
    ),
  },
);

const requestArb: fc.Arbitrary<PrincipalMappingRequest> = fc.oneof(
  dnArb.map((distinguishedName) => ({ type: "ssl" as const, distinguishedName })),
  principalArb.map((principal) => ({ type: "kerberos" as const, principal })),
);

interface Doc extends PrincipalMappingConfig {
  readonly requests: PrincipalMappingRequest[];
}

/** Rule lists the broker starts with (mostly), or any value at all (the configuration errors). */
const rulesValueArb = (rule: (anything: boolean) => fc.Arbitrary<string>, validEdges: readonly string[]) =>
  fc.oneof(
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 6, arbitrary: rulesListArb(rule(false), validEdges) },
    { weight: 1, arbitrary: rulesListArb(rule(true), ["", " ", ",", "\n"]) },
  );

const docArb: fc.Arbitrary<Doc> = fc.record({
  ssl: fc.oneof(
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 6, arbitrary: rulesValueArb(sslRuleArb, ["", " ", ",", "\n"]).map((rules) => ({ rules })) },
  ),
  kerberos: fc.oneof(
    { weight: 1, arbitrary: fc.constant(null) },
    {
      weight: 6,
      arbitrary: fc.record({
        rules: rulesValueArb(kerberosRuleArb, ["", " ", "\n"]),
        defaultRealm: fc.constantFrom(null, "", "REALM.COM", "EXAMPLE.COM", "MYDOMAIN.COM"),
      }),
    },
  ),
  requests: fc.array(requestArb, { minLength: 1, maxLength: 5 }),
});

// ---- comparison ----------------------------------------------------------------------------

type CliResult = { name: string; principal: string } | { error: string; message: string | null };

const stats = { compared: 0, declined: 0, javaTimeouts: 0, outcomes: new Map<string, number>() };
const count = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

function show(value: unknown): string {
  return JSON.stringify(value, null, 1);
}

describe("principal-map documents: the policy core against Kafka 4.1.1's classes", () => {
  it(
    "the authorization document's examples: Kafka and the policy core both give serviceuser, " +
      "adminuser@admin and user",
    async () => {
      const doc: Doc = {
        ssl: {
          rules:
            "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/,\nRULE:^CN=(.*?),OU=(.*?),O=(.*?),L=(.*?),ST=(.*?),C=(.*?)$/$1" +
            "@$2/L,\nRULE:^.*[Cc][Nn]=([a-zA-Z0-9.]*).*$/$1/L,\nDEFAULT",
        },
        kerberos: { rules: "RULE:[1:$1@$0](.*@MYDOMAIN.COM)s/@.*//,DEFAULT", defaultRealm: null },
        requests: [
          { type: "ssl", distinguishedName: "CN=serviceuser,OU=ServiceUsers,O=Unknown,L=Unknown,ST=Unknown,C=Unknown" },
          { type: "ssl", distinguishedName: "CN=adminUser,OU=Admin,O=Unknown,L=Unknown,ST=Unknown,C=Unknown" },
          { type: "kerberos", principal: "user@MYDOMAIN.COM" },
          { type: "ssl", distinguishedName: null },
        ],
      };
      const expected = ["serviceuser", "adminuser@admin", "user", "ANONYMOUS"].map((name) => ({
        name,
        principal: `User:${name}`,
      }));
      expect(await harness.principalMap({ ...doc })).toEqual(expected);
      expect(
        mapPrincipals(doc, doc.requests).map((r) => (r.ok ? { name: r.name, principal: r.principal } : r)),
      ).toEqual(expected);
    },
  );

  it(`agrees on ${RUNS} random documents (SSL and Kerberos rules, DNs, principals)`, async () => {
    await fc.assert(
      fc.asyncProperty(docArb, async (doc) => {
        const detailed = mapPrincipals(doc, doc.requests);
        const ours: CliResult[] = detailed.map((r) =>
          r.ok ? { name: r.name, principal: r.principal } : { error: r.error, message: r.message },
        );
        let kafka: CliResult[];
        try {
          kafka = await harness.principalMap({ ssl: doc.ssl, kerberos: doc.kerberos, requests: doc.requests });
        } catch (e) {
          if (e instanceof HarnessTimeoutError) {
            stats.javaTimeouts++;
            return;
          }
          throw e;
        }
        const comparable = ours.map((r, i) =>
          "error" in r && r.error === UNSUPPORTED_JAVA_REGEX ? null : ([r, kafka[i]] as const),
        );
        stats.declined += comparable.filter((c) => c === null).length;
        stats.compared += comparable.filter((c) => c !== null).length;
        for (const [i, pair] of comparable.entries()) {
          if (pair === null) continue;
          const [mine, theirs] = pair;
          const d = detailed[i]!;
          count(
            stats.outcomes,
            d.ok ? "name" : `${d.error} (${d.stage === "config" ? "refused rules" : "refused client"})`,
          );
          if (JSON.stringify(mine) !== JSON.stringify(theirs)) {
            throw new Error(
              `the policy core and Kafka ` +
                `disagree.\ndocument: ${show(doc)}\nKafka:       ${show(kafka)}\npolicy core: ${show(ours)}`,
            );
          }
        }
      }),
      { numRuns: RUNS },
    );
    console.info(
      `principal-map differential: ${stats.compared} results compared ` +
        `(${[...stats.outcomes].map(([k, v]) => `${k} ${v}`).join(", ")}), ` +
        `${stats.declined} declined as unsupported, ${stats.javaTimeouts} documents Java did not answer in time`,
    );
    // The generators aim at what the mirror supports: almost everything must be compared.
    expect(stats.declined).toBeLessThan(stats.compared / 20);
  }, 900_000);
});

// ---- the regex mirror on its own ----------------------------------------------------------

const INPUT_CHARS = [
  "a",
  "b",
  "c",
  "A",
  "B",
  "C",
  "N",
  "=",
  ",",
  ".",
  " ",
  "@",
  "é",
  "É",
  "ß",
  "ẞ",
  "İ",
  "i",
  "Σ",
  "σ",
  "ς",
  "😀",
  "\u212a",
  "k",
  "K",
  "1",
  "_",
  "\n",
  "\r",
  "\u0301",
  "\ud800",
];
const inputArb = fc.string({ unit: fc.constantFrom(...INPUT_CHARS), maxLength: 10 });

type Outcome = { value: string } | { error: string; message: string | null };

function oursFor(pattern: string, inputs: readonly string[], replacement: string): JavaRegexAnswer | "declined" {
  let p: JavaPattern;
  try {
    p = JavaPattern.compile(pattern);
  } catch (e) {
    if (!(e instanceof JavaException)) throw e;
    if (e.exception === UNSUPPORTED_JAVA_REGEX) return "declined";
    return { compile: { error: e.exception, message: e.message } };
  }
  const outcome = (f: () => string): Outcome => {
    try {
      return { value: f() };
    } catch (e) {
      if (!(e instanceof JavaException)) throw e;
      if (e.exception === UNSUPPORTED_JAVA_REGEX) throw e;
      return { error: e.exception, message: e.message };
    }
  };
  try {
    const results: JavaRegexResult[] = inputs.map((input) => {
      const m = p.matcher(input);
      const matches = m.matches();
      return {
        matches,
        groups: matches ? Array.from({ length: p.groupCount + 1 }, (_, g) => m.group(g)) : null,
        lookingAt: p.lookingAt(input),
        replaceAll: outcome(() => p.replaceAll(input, replacement)),
        replaceFirst: outcome(() => p.replaceFirst(input, replacement)),
        split: p.split(input, -1),
      };
    });
    return { groupCount: p.groupCount, results };
  } catch (e) {
    if (e instanceof JavaException && e.exception === UNSUPPORTED_JAVA_REGEX) return "declined";
    throw e;
  }
}

/** Characters of every class Java's word break rules (which decide the final sigma) distinguish. */
const SIGMA_CONTEXT = [
  "Σ",
  "Σ",
  "Α",
  "σ",
  "a",
  "B",
  "İ",
  "ß",
  "😀",
  " ",
  "\t",
  "\n",
  "\r",
  ".",
  "-",
  "_",
  "'",
  '"',
  ",",
  "1",
  "٫",
  "$",
  "#",
  "¢",
  "%",
  "\u0301",
  "\u20dd",
  "\u0903",
  "\u200b",
  "ア",
  "あ",
  "一",
  "゛",
  "।",
  "\u2028",
];

describe("the Java regex mirror against java.util.regex", () => {
  it(
    `agrees on ${RUNS} random patterns (compile errors, matches, groups, lookingAt, replaceAll, ` +
      `replaceFirst, split)`,
    async () => {
      let compared = 0;
      let declined = 0;
      const outcomes = new Map<string, number>();
      await fc.assert(
        fc.asyncProperty(
          regexArb({ allowBroken: true, maxDepth: 3 }),
          fc.array(inputArb, { minLength: 1, maxLength: 4 }),
          fc.constantFrom(...REPLACEMENTS),
          async (pattern, inputs, replacement) => {
            const ours = oursFor(pattern, inputs, replacement);
            if (ours === "declined") {
              declined++;
              return;
            }
            let java: JavaRegexAnswer;
            try {
              java = await harness.regex(pattern, inputs, replacement);
            } catch (e) {
              if (e instanceof HarnessTimeoutError) return;
              throw e;
            }
            delete (java as { id?: unknown }).id;
            compared++;
            if ("compile" in java) count(outcomes, `compile ${java.compile.error}`);
            else
              for (const r of java.results)
                count(
                  outcomes,
                  r.matches
                    ? "matches"
                    : r.lookingAt
                      ? "lookingAt only"
                      : r.split.length > 1
                        ? "found inside"
                        : "no match",
                );
            if (JSON.stringify(ours) !== JSON.stringify(java)) {
              throw new Error(
                `the mirror and java.util.regex disagree.\npattern: ${JSON.stringify(pattern)}\ninputs: ` +
                  `${JSON.stringify(inputs)}\nreplacement: ${JSON.stringify(replacement)}\nJava:   ${show(java)}\nm` +
                  `irror: ${show(ours)}`,
              );
            }
          },
        ),
        { numRuns: RUNS },
      );
      console.info(
        `regex differential: ${compared} patterns compared ` +
          `(${[...outcomes].map(([k, v]) => `${k} ${v}`).join(", ")}), ${declined} declined as unsupported`,
      );
      expect(declined).toBeLessThan(compared / 10);
    },
    900_000,
  );

  it("String.toLowerCase / toUpperCase (Locale.ENGLISH) of every code point", async () => {
    const all: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) if (cp < 0xd800 || cp > 0xdfff) all.push(String.fromCodePoint(cp));
    const mismatches: string[] = [];
    for (let i = 0; i < all.length; i += 50_000) {
      const chunk = all.slice(i, i + 50_000);
      const java = await harness.caseMapping(chunk);
      chunk.forEach((s, j) => {
        const ours = { lower: javaToLowerCase(s), upper: javaToUpperCase(s) };
        if (ours.lower !== java[j]!.lower || ours.upper !== java[j]!.upper)
          mismatches.push(
            `U+${s.codePointAt(0)!.toString(16)}: Java ${JSON.stringify(java[j])}, mirror ${JSON.stringify(ours)}`,
          );
      });
    }
    expect(mismatches.slice(0, 20)).toEqual([]);
  }, 300_000);

  it("String.toLowerCase around the Greek capital sigma (final sigma) and other context", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ unit: fc.constantFrom(...SIGMA_CONTEXT), maxLength: 8 }), { minLength: 1, maxLength: 20 }),
        async (inputs) => {
          const java = await harness.caseMapping(inputs);
          const ours = inputs.map((s) => ({ lower: javaToLowerCase(s), upper: javaToUpperCase(s) }));
          expect(ours).toEqual(java);
        },
      ),
      { numRuns: Math.ceil(RUNS / 10) },
    );
  }, 300_000);
});
