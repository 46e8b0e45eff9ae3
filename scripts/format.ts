/**
 * `npm run format` (after `prettier --write .`) and `npm run format:check`: no line of the
 * console's TypeScript over 120 characters.
 *
 * Prettier leaves comments and string literals as they are. Fix mode (the default) does, in
 * .ts/.tsx files, only what cannot change meaning, then runs Prettier again on the files it
 * changed, until nothing changes (so a second `npm run format` changes nothing):
 * - `//` comment paragraphs of plain prose are re-wrapped from their first long line on; a long
 *   list item (`- `, `* `, `1. `) is split with a hanging indent, never merged with other lines;
 * - the same inside `/* *\/` and `/** *\/` comments, keeping the ` * ` prefix; a one-line
 *   `/** … *\/` that is too long becomes a block of three or more lines;
 * - a long plain double-quoted string literal that is a call argument, a `+` operand, a
 *   property value or an initialiser becomes `"a " + "b"` (split at spaces).
 * Directive comments (eslint-, @ts-, prettier-ignore, ///), code inside comments (fences,
 * indented lines, tables) and anything else it cannot fix safely are listed, not changed.
 *
 * Check mode (`--check`, in `npm test`) fails when a line of the checked paths is over 120
 * characters, except those EXEMPT names below.
 *
 * Usage: tsx scripts/format.ts [--check] [files...]  (default: the checked paths, from git)
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import * as prettier from "prettier";

export const MAX = 120;
const root = path.resolve(import.meta.dirname, "..");

/** What the check covers. */
const CHECKED = ["app", "components", "lib", "scripts", "test", "e2e", "proxy.ts", "instrumentation.ts"];
/** Never checked nor changed: generated code, and the JDK regex port (kept line for line with the Java source). */
const SKIPPED = [/^lib\/generated\//, /^lib\/policy\/identity\/java\/regex\//];
/**
 * The only long lines allowed elsewhere: those that are long because of one unbreakable
 * token, a URL or a regex literal (without it the line would fit).
 */
const EXEMPT: { name: string; token: RegExp }[] = [
  { name: "URL", token: /\bhttps?:\/\/\S+/g },
  { name: "regex literal", token: /(?<![\w)\]])\/(?![/*\s])(?:\\.|\[(?:\\.|[^\]\\])*\]|[^/\\\n[])+\/[dgimsuvy]*/g },
];

const width = (line: string) => [...line].length;

export function exempt(line: string): string | null {
  for (const { name, token } of EXEMPT) {
    for (const m of line.matchAll(token)) if (width(line) - width(m[0]) <= MAX) return name;
  }
  return null;
}

function files(args: string[]): string[] {
  const listed =
    args.length > 0
      ? args
      : execFileSync("git", ["ls-files", "--", ...CHECKED], { cwd: root, encoding: "utf8" }).split("\n");
  return listed.filter((f) => /\.(ts|tsx|mts|cts)$/.test(f) && !SKIPPED.some((r) => r.test(f)));
}

// ---- comments --------------------------------------------------------------------------

const DIRECTIVE = /^\s*(eslint-|eslint\s|@ts-|prettier-ignore|istanbul\s|c8\s|v8\s|#(end)?region|global\s|jshint|@jsx)/;
const LIST_ITEM = /^([-*+]|\d+[.)])\s+/;

/** Text that must keep its own line: empty, a list item, code, a table, a tag, a fence, a directive. */
function prose(text: string): boolean {
  return (
    text.trim() !== "" &&
    !/^\s/.test(text) &&
    !LIST_ITEM.test(text) &&
    !/^(@|```|~~~|\||<|>|#|\{@)/.test(text) &&
    !/\|\s*$/.test(text) &&
    !DIRECTIVE.test(text)
  );
}

/** The words of a comment line; a `code span` with spaces stays one word. */
function words(text: string): string[] {
  const out: string[] = [];
  for (const word of text.split(/ +/)) {
    const last = out[out.length - 1];
    if (last !== undefined && (last.match(/`/g) ?? []).length % 2 === 1) out[out.length - 1] = `${last} ${word}`;
    else out.push(word);
  }
  return out;
}

/** Greedy fill of `words` into lines of at most MAX characters with `prefix` (the first with `first`). */
function fill(words: string[], first: string, prefix: string): string[] | null {
  const lines: string[] = [];
  let current = first;
  let empty = true;
  for (const word of words) {
    const candidate = empty ? current + word : `${current} ${word}`;
    if (!empty && width(candidate) > MAX) {
      lines.push(current);
      current = prefix + word;
    } else current = candidate;
    empty = false;
  }
  lines.push(current);
  return lines.some((l) => width(l) > MAX) ? null : lines;
}

interface CommentLine {
  /** Everything before the text: indentation and `// ` or ` * `. */
  prefix: string;
  text: string;
}

/** Re-wraps the comment lines (each `prefix` + `text`); returns null when nothing is long. */
function wrapCommentLines(lines: CommentLine[], problems: string[]): string[] | null {
  if (!lines.some((l) => width(l.prefix + l.text) > MAX)) return null;
  const out: string[] = [];
  let changed = false;
  let fence = false;
  for (let i = 0; i < lines.length; i++) {
    const { prefix, text } = lines[i]!;
    if (/^(```|~~~)/.test(text)) fence = !fence;
    const line = prefix + text;
    if (width(line) <= MAX) {
      out.push(line);
      continue;
    }
    if (
      fence ||
      DIRECTIVE.test(text) ||
      /^\s/.test(text) ||
      /^\|/.test(text) ||
      /\|\s*$/.test(text) ||
      /^(```|~~~)/.test(text)
    ) {
      problems.push(`code, table or directive in a comment: ${line.trim().slice(0, 80)}…`);
      out.push(line);
      continue;
    }
    const item = LIST_ITEM.exec(text);
    if (item || /^@/.test(text)) {
      // A list item or a tag: split it, never merge it with the next line.
      const hang = item ? " ".repeat(item[0].length) : "  ";
      const wrapped = fill(words(text), prefix, prefix + hang);
      if (wrapped === null) {
        problems.push(`a word too long to wrap: ${line.trim().slice(0, 80)}…`);
        out.push(line);
      } else {
        out.push(...wrapped);
        changed = true;
      }
      continue;
    }
    // Plain prose: re-wrap it with the rest of its paragraph (the following prose lines of the same prefix).
    let end = i + 1;
    while (end < lines.length && lines[end]!.prefix === prefix && prose(lines[end]!.text) && !fence) end++;
    const paragraph = words(
      lines
        .slice(i, end)
        .map((l) => l.text)
        .join(" "),
    );
    const wrapped = fill(paragraph, prefix, prefix);
    if (wrapped === null) {
      problems.push(`a word too long to wrap: ${line.trim().slice(0, 80)}…`);
      out.push(line);
      continue;
    }
    out.push(...wrapped);
    changed = true;
    i = end - 1;
  }
  return changed ? out : null;
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

function commentRanges(source: ts.SourceFile): ts.CommentRange[] {
  const text = source.getFullText();
  const seen = new Map<number, ts.CommentRange>();
  const visit = (node: ts.Node) => {
    for (const r of [
      ...(ts.getLeadingCommentRanges(text, node.getFullStart()) ?? []),
      ...(ts.getTrailingCommentRanges(text, node.getEnd()) ?? []),
    ])
      seen.set(r.pos, r);
    ts.forEachChild(node, visit);
  };
  visit(source);
  for (const r of ts.getLeadingCommentRanges(text, source.endOfFileToken.getFullStart()) ?? []) seen.set(r.pos, r);
  return [...seen.values()].sort((a, b) => a.pos - b.pos);
}

function lineStart(text: string, pos: number) {
  return text.lastIndexOf("\n", pos - 1) + 1;
}

function lineEnd(text: string, pos: number) {
  const end = text.indexOf("\n", pos);
  return end === -1 ? text.length : end;
}

function commentEdits(source: ts.SourceFile, problems: string[]): Edit[] {
  const text = source.getFullText();
  const edits: Edit[] = [];
  const ranges = commentRanges(source);
  // Runs of `//` comments, each alone on its line, one after the other.
  let run: { start: number; end: number; lines: CommentLine[] } | null = null;
  const flush = () => {
    if (run) {
      const wrapped = wrapCommentLines(run.lines, problems);
      if (wrapped) edits.push({ start: run.start, end: run.end, text: wrapped.join("\n") });
    }
    run = null;
  };
  for (const r of ranges) {
    const start = lineStart(text, r.pos);
    const end = lineEnd(text, r.end);
    const before = text.slice(start, r.pos);
    const after = text.slice(r.end, end);
    const alone = before.trim() === "" && after.trim() === "";
    const body = text.slice(r.pos, r.end);
    if (r.kind === ts.SyntaxKind.SingleLineCommentTrivia) {
      const m = /^(\/\/+ ?)(.*)$/.exec(body)!;
      if (!alone) {
        flush();
        if (width(text.slice(start, end)) > MAX)
          problems.push(`a comment after code: ${text.slice(start, end).trim().slice(0, 80)}…`);
        continue;
      }
      if (m[1]!.startsWith("///")) {
        flush();
        continue;
      }
      const line: CommentLine = { prefix: before + m[1]!, text: m[2]! };
      const r0: { start: number; end: number; lines: CommentLine[] } | null = run;
      if (r0 && text.slice(r0.end, start) === "\n" && r0.lines[0]!.prefix.replace(/\S.*/, "") === before) {
        r0.lines.push(line);
        r0.end = end;
      } else {
        flush();
        run = { start, end, lines: [line] };
      }
      continue;
    }
    flush();
    const lines = text.slice(start, end).split("\n");
    if (!lines.some((l) => width(l) > MAX)) continue;
    const jsx = before.trim() === "{" && after.trim() === "}" && lines.length === 1;
    if (jsx) {
      // `{/* text */}` alone on its line: the same as a block of lines.
      const m = /^\/\*\s*(.*?)\s*\*\/$/.exec(body);
      const ws = before.slice(0, before.indexOf("{"));
      const inner =
        m && !DIRECTIVE.test(m[1]!)
          ? (wrapCommentLines([{ prefix: `${ws} * `, text: m[1]! }], problems) ?? [`${ws} * ${m[1]!}`])
          : null;
      if (inner) edits.push({ start, end, text: [`${ws}{/*`, ...inner, `${ws} */}`].join("\n") });
      else problems.push(`a JSX comment that cannot be wrapped: ${body.slice(0, 80)}…`);
      continue;
    }
    if (!alone) {
      problems.push(
        `a block comment beside code: ${lines
          .find((l) => width(l) > MAX)!
          .trim()
          .slice(0, 80)}…`,
      );
      continue;
    }
    const indent = before;
    if (lines.length === 1) {
      // `/** text */` or `/* text */` on one line: a block, then wrapped.
      const m = /^(\/\*\*?)\s*(.*?)\s*\*\/$/.exec(body);
      if (!m || m[2]!.includes("\n") || DIRECTIVE.test(m[2]!)) {
        problems.push(`a one-line comment that cannot become a block: ${body.slice(0, 80)}…`);
        continue;
      }
      const inner = wrapCommentLines([{ prefix: `${indent} * `, text: m[2]! }], problems) ?? [`${indent} * ${m[2]!}`];
      edits.push({ start, end, text: [`${indent}${m[1]}`, ...inner, `${indent} */`].join("\n") });
      continue;
    }
    // A block: ` * ` lines between the opening and the closing line, as long as every middle line has the prefix.
    const middle = lines.slice(1, -1);
    const first = lines[0]!;
    const last = lines[lines.length - 1]!;
    const parsed = middle.map((l) => /^(\s*\*(?: |$))(.*)$/.exec(l));
    if (
      !/^\s*\/\*\*?$/.test(first) ||
      !/^\s*\*\/$/.test(last) ||
      parsed.some((p) => p === null) ||
      width(first) > MAX ||
      width(last) > MAX
    ) {
      problems.push(
        `a block comment of an unusual shape: ${lines
          .find((l) => width(l) > MAX)!
          .trim()
          .slice(0, 80)}…`,
      );
      continue;
    }
    const prefixOf = (p: RegExpExecArray) => (p[1]!.endsWith(" ") ? p[1]! : `${p[1]!} `);
    const wrapped = wrapCommentLines(
      parsed.map((p) => ({ prefix: prefixOf(p!), text: p![2]! })),
      problems,
    );
    if (wrapped) edits.push({ start, end, text: [first, ...wrapped, last].join("\n") });
  }
  flush();
  return edits;
}

// ---- strings ---------------------------------------------------------------------------

/** Where `"a" + "b"` means the same as `"ab"`: places that take any string expression. */
function splittable(node: ts.StringLiteral | ts.TemplateLiteral): boolean {
  const parent = node.parent;
  if (ts.isCallExpression(parent) || ts.isNewExpression(parent)) return parent.arguments?.includes(node) ?? false;
  if (ts.isBinaryExpression(parent)) {
    const op = parent.operatorToken.kind;
    const assigns = op === ts.SyntaxKind.EqualsToken || op === ts.SyntaxKind.PlusEqualsToken;
    return op === ts.SyntaxKind.PlusToken || (parent.right === node && assigns);
  }
  if (ts.isPropertyAssignment(parent)) return parent.initializer === node;
  // A `const` without a type gets `string` instead of the literal's type: typecheck after formatting tells if that
  // matters.
  if (ts.isVariableDeclaration(parent)) return parent.initializer === node;
  if (ts.isReturnStatement(parent) || ts.isArrowFunction(parent) || ts.isJsxExpression(parent)) return true;
  if (ts.isConditionalExpression(parent)) return parent.whenTrue === node || parent.whenFalse === node;
  if (ts.isArrayLiteralExpression(parent) || ts.isParenthesizedExpression(parent)) return true;
  // `attr="…"` becomes `attr={"…" + "…"}`: only without escapes or entities (JSX attribute text has entities, not
  // escapes).
  if (ts.isJsxAttribute(parent)) return !/[\\&{}]/.test(node.getText());
  return false;
}

/**
 * Offsets in `raw` (a literal's source) where a cut is safe: in literal text (not in `${}`), never inside an
 * escape sequence; `spaces` are those just after a space, preferred.
 */
function cuts(
  node: ts.StringLiteral | ts.TemplateLiteral,
  source: ts.SourceFile,
): { spaces: number[]; anywhere: number[] } {
  const raw = node.getText(source);
  const start = node.getStart(source);
  const segments: [number, number][] = [];
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) segments.push([1, raw.length - 1]);
  else {
    segments.push([1, node.head.getEnd() - start - 2]);
    for (const span of node.templateSpans) {
      const literalStart = span.literal.getStart(source) - start + 1;
      const literalEnd = span.literal.getEnd() - start - (ts.isTemplateTail(span.literal) ? 1 : 2);
      segments.push([literalStart, literalEnd]);
    }
  }
  const out: number[] = [];
  const anywhere: number[] = [];
  for (const [from, to] of segments) {
    if (from > 1) anywhere.push(from); // just after a `}`
    for (let i = from; i < to; i++) {
      const escape = raw[i] === "\\";
      // Never inside an escape sequence, nor between the two halves of a surrogate pair.
      if (i > from && !/[\uDC00-\uDFFF]/.test(raw[i]!)) {
        anywhere.push(i);
        if (raw[i - 1] === " " && raw[i] !== " ") out.push(i);
      }
      if (escape)
        i +=
          raw[i + 1] === "u" && raw[i + 2] === "{"
            ? raw.indexOf("}", i) - i
            : /^u/.test(raw[i + 1]!)
              ? 5
              : raw[i + 1] === "x"
                ? 3
                : 1;
    }
    if (to > 1 && to < raw.length - 1) anywhere.push(to); // just before a `${`
  }
  return { spaces: out, anywhere: [...new Set(anywhere)].sort((a, b) => a - b) };
}

/** The literal cut into pieces of at most `room` characters (quotes included), or null. */
function pieces(raw: string, at: number[], room: number): string[] | null {
  const quote = raw[0]!;
  const out: string[] = [];
  let from = 0;
  while (width(raw.slice(from)) + (from === 0 ? 0 : 1) > room) {
    const fits = at.filter((i) => i > from && width(raw.slice(from, i)) + (from === 0 ? 1 : 2) <= room);
    if (fits.length === 0) return null;
    const cut = fits[fits.length - 1]!;
    out.push((from === 0 ? "" : quote) + raw.slice(from, cut) + quote);
    from = cut;
  }
  out.push((from === 0 ? "" : quote) + raw.slice(from));
  return out.length > 1 ? out : null;
}

function stringEdits(source: ts.SourceFile, problems: string[]): Edit[] {
  const text = source.getFullText();
  const edits: Edit[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) {
      const start = node.getStart(source);
      const line = text.slice(lineStart(text, start), lineEnd(text, start));
      const raw = node.getText(source);
      if (width(line) > MAX && !exempt(line) && !raw.includes("\n")) {
        const indent = /^\s*/.exec(line)![0].length;
        // Short enough to fit on a line of its own, and shorter than the line's excess.
        const room = Math.min(MAX - indent - 8, width(raw) - (width(line) - MAX) - 2);
        const plain = !raw.includes("\n") && /^["'`]/.test(raw) && splittable(node);
        const at = plain && room >= 20 ? cuts(node, source) : null;
        const split = at ? (pieces(raw, at.spaces, room) ?? pieces(raw, at.anywhere, room)) : null;
        if (split) {
          const joined = split.join(" +\n" + " ".repeat(indent + 2));
          edits.push({ start, end: node.getEnd(), text: ts.isJsxAttribute(node.parent) ? `{${joined}}` : joined });
          return;
        } else if (node.parent.kind !== ts.SyntaxKind.ImportDeclaration) {
          problems.push(`a string that cannot be split safely: ${raw.slice(0, 60)}…`);
        }
      }
      if (!ts.isTemplateExpression(node)) return;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edits;
}

// ---- the runs --------------------------------------------------------------------------

function apply(text: string, edits: Edit[]): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

/** Fixes one file's text; returns the new text (after Prettier) and what it could not fix. */
export async function fixText(file: string, input: string): Promise<{ text: string; problems: string[] }> {
  const options = { ...((await prettier.resolveConfig(path.join(root, file))) ?? {}), filepath: path.join(root, file) };
  // Prettier's first pass over a long one-line call can differ from its second (it keeps an object it broke
  // open): run it to a fixed point, so that a second `npm run format` changes nothing.
  const settle = async (from: string) => {
    let current = from;
    for (let i = 0; i < 4; i++) {
      const next = await prettier.format(current, options);
      if (next === current) break;
      current = next;
    }
    return current;
  };
  let text = await settle(input);
  let problems: string[] = [];
  for (let pass = 0; pass < 6; pass++) {
    problems = [];
    const kind = file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
    // Comments first; strings on the next pass, on the re-parsed text.
    let edits = commentEdits(source, problems);
    if (edits.length === 0) edits = stringEdits(source, problems);
    else problems = [];
    if (edits.length === 0) break;
    const next = await settle(apply(text, edits));
    if (next === text) break;
    text = next;
  }
  return { text, problems: [...new Set(problems)] };
}

function longLines(file: string, text: string): string[] {
  return text
    .split("\n")
    .map((line, i) => ({ line, n: i + 1 }))
    .filter(({ line }) => width(line) > MAX && !exempt(line))
    .map(({ line, n }) => `${file}:${n}: ${width(line)} characters`);
}

async function main() {
  const args = process.argv.slice(2);
  const check = args.includes("--check");
  const list = files(args.filter((a) => a !== "--check"));
  const long: string[] = [];
  let changed = 0;
  for (const file of list) {
    const full = path.join(root, file);
    const text = readFileSync(full, "utf8");
    if (check) {
      long.push(...longLines(file, text));
      continue;
    }
    const fixed = await fixText(file, text);
    if (fixed.text !== text) {
      writeFileSync(full, fixed.text);
      changed += 1;
    }
    const left = longLines(file, fixed.text);
    if (left.length > 0) long.push(...left, ...fixed.problems.map((p) => `  ${p}`));
  }
  if (check) {
    for (const l of long) console.log(l);
    console.log(
      long.length === 0
        ? `format:check: no line over ${MAX} characters in ${list.length} files`
        : `format:check: ${long.length} lines over ${MAX} characters`,
    );
    process.exit(long.length === 0 ? 0 : 1);
  }
  console.log(`format: ${changed} files re-wrapped`);
  if (long.length > 0) {
    console.log(`left over ${MAX} characters (fix by hand, or make them fit):`);
    for (const l of long) console.log(`  ${l}`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
