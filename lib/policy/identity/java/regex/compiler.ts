/**
 * The compile half of the Java regex mirror: reads a pattern the way
 * java.util.regex.Pattern (OpenJDK 17) reads it — same recursive descent over code points,
 * same \Q...\E rewriting, same inline flags and comments mode — and builds the node graph
 * of ./nodes.ts. Syntax errors are PatternSyntaxException with Java's description and
 * index (the cursor position Java reports, in code points after \Q...\E rewriting), so the
 * message is the one the broker prints when it refuses a rule.
 *
 * Not reproduced (compiling them throws UnsupportedJavaRegex, naming the construct):
 * canonical equivalence (?c) with classes or properties, \X and \b{g} (grapheme
 * clusters), \N{name} (character names), Unicode blocks, and
 * \p{javaUnicodeIdentifierStart/Part}.
 */
import { ASCII, isSurrogate, javaToLowerCase, toLowerCaseCp, toUpperCaseCp } from "../characters";
import { JavaException, unsupported } from "../exception";
import {
  Begin,
  Behind,
  BOUND_BOTH,
  BOUND_NONE,
  BackRef,
  Bound,
  Branch,
  BranchConn,
  Caret,
  CharProperty,
  CharPropertyGreedy,
  Curly,
  Dollar,
  End,
  GroupCurly,
  GroupHead,
  GroupTail,
  LastMatch,
  LastNode,
  LazyLoop,
  LineEnding,
  LookBehindEnd,
  Loop,
  MAX_REPS,
  Neg,
  Pos,
  Prolog,
  Ques,
  Slice,
  Start,
  TreeInfo,
  UnixDollar,
  and,
  negate,
  pred,
  union,
  type CharPredicate,
  type Node,
  type Qtype,
  type SliceCase,
} from "./nodes";
import {
  ALL,
  ASCII_DIGIT,
  ASCII_SPACE,
  ASCII_WORD,
  DIGIT,
  DOT,
  HORIZ_WS,
  UNIXDOT,
  VERT_WS,
  WHITE_SPACE,
  WORD,
  forPosixName,
  forProperty,
  forUnicodeBlock,
  forUnicodeProperty,
  forUnicodeScript,
} from "./properties";

export const UNIX_LINES = 0x01;
export const CASE_INSENSITIVE = 0x02;
export const COMMENTS = 0x04;
export const MULTILINE = 0x08;
export const DOTALL = 0x20;
export const UNICODE_CASE = 0x40;
export const CANON_EQ = 0x80;
export const UNICODE_CHARACTER_CLASS = 0x100;

/** What Pattern.compile produces: the graph to search with, the graph to match with, and the group table. */
export interface CompiledPattern {
  readonly source: string;
  /** find(): the search loop over matchRoot. */
  readonly root: Node;
  /** matches() / lookingAt(): anchored at the start. */
  readonly matchRoot: Node;
  readonly lastAccept: LastNode;
  /** Capturing groups, group 0 excluded (Matcher.groupCount()). */
  readonly groupCount: number;
  readonly localCount: number;
  /** Loops that memoise failed positions (Loop.posIndex). */
  readonly memoCount: number;
  readonly namedGroups: ReadonlyMap<string, number>;
}

/** PatternSyntaxException.getMessage(): description, index, the pattern and a caret under the index. */
export function patternSyntaxMessage(desc: string, pattern: string, index: number): string {
  let s = desc;
  if (index >= 0) s += ` near index ${index}`;
  s += `\n${pattern}`;
  if (index >= 0 && index < pattern.length) {
    s += "\n";
    for (let i = 0; i < index; i++) s += pattern[i] === "\t" ? "\t" : " ";
    s += "^";
  }
  return s;
}

const isSupplementary = (ch: number) => ch >= 0x10000 || isSurrogate(ch);

/** Java's BitClass: Latin-1 characters of a class; mutable, and read live by every predicate built on it. */
function bitClass(): CharPredicate & { add(c: number, flags: number): void } {
  const bits: boolean[] = new Array<boolean>(256).fill(false);
  return {
    bmp: true,
    is: (ch: number) => ch < 256 && bits[ch] === true,
    add(c: number, flags: number) {
      if ((flags & CASE_INSENSITIVE) !== 0) {
        if (ASCII.isAscii(c)) {
          bits[ASCII.toUpper(c)] = true;
          bits[ASCII.toLower(c)] = true;
        } else if ((flags & UNICODE_CASE) !== 0) {
          bits[toLowerCaseCp(c)] = true;
          bits[toUpperCaseCp(c)] = true;
        }
      }
      bits[c] = true;
    },
  };
}

class Compiler {
  private temp: number[] = [];
  private patternLength = 0;
  private cursor = 0;
  private flags0 = 0;
  private capturingGroupCount = 1;
  private localCount = 0;
  private readonly namedGroups = new Map<string, number>();
  private hasSupplementary = false;
  private hasGroupRef = false;
  /** Unbounded greedy loops not nested in another quantifier or a look-behind (Java's topClosureNodes). */
  private topClosureNodes: Loop[] = [];
  /** Java's "double return": the tail of the node chain the last parse step produced. */
  private root: Node | null = null;
  /** Java's `predicate` field: what escape() built for \d, \w, ... inside a class. */
  private predicate: CharPredicate | null = null;
  private readonly lastAccept = new LastNode();

  constructor(private readonly pattern: string) {}

  compile(): CompiledPattern {
    let matchRoot: Node;
    let root: Node;
    if (this.pattern.length === 0) {
      matchRoot = this.lastAccept;
      root = new Start(matchRoot, 0, false);
    } else {
      for (let x = 0; x < this.pattern.length;) {
        const c = this.pattern.codePointAt(x)!;
        if (isSupplementary(c)) this.hasSupplementary = true;
        this.temp.push(c);
        x += c >= 0x10000 ? 2 : 1;
      }
      this.patternLength = this.temp.length;
      this.temp.push(0, 0);
      this.removeQEQuoting();
      matchRoot = this.expr(this.lastAccept);
      if (this.patternLength !== this.cursor) {
        if (this.peek() === 0x29) throw this.error("Unmatched closing ')'");
        throw this.error("Unexpected internal error");
      }
      const info = new TreeInfo();
      matchRoot.study(info);
      root = new Start(matchRoot, info.minLength, this.hasSupplementary);
    }
    let memoCount = 0;
    if (!this.hasGroupRef) for (const loop of this.topClosureNodes) loop.posIndex = memoCount++;
    return {
      source: this.pattern,
      root,
      matchRoot,
      lastAccept: this.lastAccept,
      groupCount: this.capturingGroupCount - 1,
      localCount: this.localCount,
      memoCount,
      namedGroups: this.namedGroups,
    };
  }

  // ---- \Q...\E --------------------------------------------------------------------------

  /** Rewrites \Q...\E into escaped characters before parsing, as Java does (which shifts error indices). */
  private removeQEQuoting(): void {
    const pLen = this.patternLength;
    const temp = this.temp;
    let i = 0;
    while (i < pLen - 1) {
      if (temp[i] !== 0x5c) i += 1;
      else if (temp[i + 1] !== 0x51) i += 2;
      else break;
    }
    if (i >= pLen - 1) return;
    let j = i;
    i += 2;
    const out: number[] = temp.slice(0, j);
    let inQuote = true;
    let beginQuote = true;
    while (i < pLen) {
      const c = temp[i++]!;
      if (!ASCII.isAscii(c) || ASCII.isAlpha(c)) {
        out[j++] = c;
      } else if (ASCII.isDigit(c)) {
        if (beginQuote) {
          out[j++] = 0x5c;
          out[j++] = 0x78;
          out[j++] = 0x33;
        }
        out[j++] = c;
      } else if (c !== 0x5c) {
        if (inQuote) out[j++] = 0x5c;
        out[j++] = c;
      } else if (inQuote) {
        if (temp[i] === 0x45) {
          i++;
          inQuote = false;
        } else {
          out[j++] = 0x5c;
          out[j++] = 0x5c;
        }
      } else {
        if (temp[i] === 0x51) {
          i++;
          inQuote = true;
          beginQuote = true;
          continue;
        }
        out[j++] = c;
        if (i !== pLen) out[j++] = temp[i++]!;
      }
      beginQuote = false;
    }
    this.patternLength = j;
    this.temp = [...out.slice(0, j), 0, 0];
  }

  // ---- cursor --------------------------------------------------------------------------

  private has(f: number): boolean {
    return (this.flags0 & f) !== 0;
  }

  private at(i: number): number {
    return this.temp[i] ?? 0;
  }

  private error(desc: string): JavaException {
    return new JavaException("PatternSyntaxException", patternSyntaxMessage(desc, this.pattern, this.cursor - 1));
  }

  private accept(ch: number, s: string): void {
    let testChar = this.at(this.cursor++);
    if (this.has(COMMENTS)) testChar = this.parsePastWhitespace(testChar);
    if (ch !== testChar) throw this.error(s);
  }

  private mark(c: number): void {
    this.temp[this.patternLength] = c;
  }

  private peek(): number {
    let ch = this.at(this.cursor);
    if (this.has(COMMENTS)) ch = this.peekPastWhitespace(ch);
    return ch;
  }

  private read(): number {
    let ch = this.at(this.cursor++);
    if (this.has(COMMENTS)) ch = this.parsePastWhitespace(ch);
    return ch;
  }

  private next(): number {
    let ch = this.at(++this.cursor);
    if (this.has(COMMENTS)) ch = this.peekPastWhitespace(ch);
    return ch;
  }

  private nextEscaped(): number {
    return this.at(++this.cursor);
  }

  private peekPastWhitespace(ch: number): number {
    while (ASCII.isSpace(ch) || ch === 0x23) {
      while (ASCII.isSpace(ch)) ch = this.at(++this.cursor);
      if (ch === 0x23) ch = this.peekPastLine();
    }
    return ch;
  }

  private parsePastWhitespace(ch: number): number {
    while (ASCII.isSpace(ch) || ch === 0x23) {
      while (ASCII.isSpace(ch)) ch = this.at(this.cursor++);
      if (ch === 0x23) ch = this.parsePastLine();
    }
    return ch;
  }

  private parsePastLine(): number {
    let ch = this.at(this.cursor++);
    while (ch !== 0 && !this.isLineSeparator(ch)) ch = this.at(this.cursor++);
    if (ch === 0 && this.cursor > this.patternLength) {
      this.cursor = this.patternLength;
      ch = this.at(this.cursor++);
    }
    return ch;
  }

  private peekPastLine(): number {
    let ch = this.at(++this.cursor);
    while (ch !== 0 && !this.isLineSeparator(ch)) ch = this.at(++this.cursor);
    if (ch === 0 && this.cursor > this.patternLength) {
      this.cursor = this.patternLength;
      ch = this.at(this.cursor);
    }
    return ch;
  }

  private isLineSeparator(ch: number): boolean {
    if (this.has(UNIX_LINES)) return ch === 0x0a;
    return ch === 0x0a || ch === 0x0d || (ch | 1) === 0x2029 || ch === 0x85;
  }

  private skip(): number {
    const i = this.cursor;
    const ch = this.at(i + 1);
    this.cursor = i + 2;
    return ch;
  }

  private unread(): void {
    this.cursor--;
  }

  // ---- expressions -------------------------------------------------------------------------

  private expr(end: Node): Node {
    let prev: Node | null = null;
    let firstTail: Node | null = null;
    let branch: Branch | null = null;
    let branchConn: BranchConn | null = null;
    for (;;) {
      let node: Node | null = this.sequence(end);
      const nodeTail = this.root;
      if (prev === null) {
        prev = node;
        firstTail = nodeTail;
      } else {
        if (branchConn === null) {
          branchConn = new BranchConn();
          branchConn.next = end;
        }
        if (node === end) node = null;
        else (nodeTail as Node).next = branchConn;
        if (prev === branch) {
          branch.atoms.push(node);
        } else {
          if (prev === end) prev = null;
          else (firstTail as Node).next = branchConn;
          prev = branch = new Branch(prev, node, branchConn);
        }
      }
      if (this.peek() !== 0x7c) return prev;
      this.next();
    }
  }

  private sequence(end: Node): Node {
    let head: Node | null = null;
    let tail: Node | null = null;
    let node: Node;
    for (;;) {
      let ch = this.peek();
      let done = false;
      switch (ch) {
        case 0x28: {
          const group = this.group0();
          if (group === null) continue;
          if (head === null) head = group;
          else (tail as Node).next = group;
          tail = this.root;
          continue;
        }
        case 0x5b:
          if (this.has(CANON_EQ))
            throw unsupported("canonical equivalence (?c) with a character class is not reproduced by the policy core");
          node = this.newCharProperty(this.clazz(true));
          break;
        case 0x5c:
          ch = this.nextEscaped();
          if (ch === 0x70 || ch === 0x50) {
            let oneLetter = true;
            const comp = ch === 0x50;
            ch = this.next();
            if (ch !== 0x7b) this.unread();
            else oneLetter = false;
            if (this.has(CANON_EQ))
              throw unsupported("canonical equivalence (?c) with a \\p property is not reproduced by the policy core");
            node = this.newCharProperty(this.family(oneLetter, comp));
          } else {
            this.unread();
            node = this.atom();
          }
          break;
        case 0x5e:
          this.next();
          node = this.has(MULTILINE) ? new Caret(this.has(UNIX_LINES)) : new Begin();
          break;
        case 0x24:
          this.next();
          node = this.has(UNIX_LINES) ? new UnixDollar(this.has(MULTILINE)) : new Dollar(this.has(MULTILINE));
          break;
        case 0x2e:
          this.next();
          node = new CharProperty(this.has(DOTALL) ? ALL() : this.has(UNIX_LINES) ? UNIXDOT() : DOT());
          break;
        case 0x7c:
        case 0x29:
          done = true;
          break;
        case 0x5d:
        case 0x7d:
          node = this.atom();
          break;
        case 0x3f:
        case 0x2a:
        case 0x2b:
          this.next();
          throw this.error(`Dangling meta character '${String.fromCharCode(ch)}'`);
        case 0:
          if (this.cursor >= this.patternLength) {
            done = true;
            break;
          }
          node = this.atom();
          break;
        default:
          node = this.atom();
          break;
      }
      if (done) break;
      node = this.closure(node!);
      if (head === null) head = tail = node;
      else {
        (tail as Node).next = node;
        tail = node;
      }
    }
    if (head === null) return end;
    (tail as Node).next = end;
    this.root = tail;
    return head;
  }

  /** A run of literal characters, or one escape that is not a literal. */
  private atom(): Node {
    let first = 0;
    let prev = -1;
    let hasSupplementary = false;
    const buffer: number[] = [];
    let ch = this.peek();
    for (;;) {
      let stop = true;
      switch (ch) {
        case 0x2a:
        case 0x2b:
        case 0x3f:
        case 0x7b:
          if (first > 1) {
            this.cursor = prev;
            first--;
          }
          break;
        case 0x24:
        case 0x2e:
        case 0x5e:
        case 0x28:
        case 0x5b:
        case 0x7c:
        case 0x29:
          break;
        case 0x5c: {
          ch = this.nextEscaped();
          if (ch === 0x70 || ch === 0x50) {
            if (first > 0) {
              this.unread();
              break;
            }
            const comp = ch === 0x50;
            let oneLetter = true;
            ch = this.next();
            if (ch !== 0x7b) this.unread();
            else oneLetter = false;
            if (this.has(CANON_EQ))
              throw unsupported("canonical equivalence (?c) with a \\p property is not reproduced by the policy core");
            return this.newCharProperty(this.family(oneLetter, comp));
          }
          this.unread();
          prev = this.cursor;
          ch = this.escape(false, first === 0, false);
          if (ch >= 0) {
            buffer[first++] = ch;
            if (isSupplementary(ch)) hasSupplementary = true;
            ch = this.peek();
            stop = false;
            break;
          } else if (first === 0) {
            return this.root as Node;
          }
          this.cursor = prev;
          break;
        }
        case 0:
          if (this.cursor >= this.patternLength) break;
          prev = this.cursor;
          buffer[first++] = ch;
          if (isSupplementary(ch)) hasSupplementary = true;
          ch = this.next();
          stop = false;
          break;
        default:
          prev = this.cursor;
          buffer[first++] = ch;
          if (isSupplementary(ch)) hasSupplementary = true;
          ch = this.next();
          stop = false;
          break;
      }
      if (stop) break;
    }
    if (first === 1) return this.newCharProperty(this.single(buffer[0]!));
    return this.newSlice(buffer.slice(0, first), hasSupplementary);
  }

  private newSlice(buf: number[], supplementary: boolean): Node {
    const mode: SliceCase = !this.has(CASE_INSENSITIVE) ? "exact" : this.has(UNICODE_CASE) ? "unicode" : "ascii";
    return new Slice(buf, mode, supplementary);
  }

  private newCharProperty(p: CharPredicate): CharProperty {
    if (!p.bmp) this.hasSupplementary = true;
    return new CharProperty(p);
  }

  private ref(refNum: number): Node {
    for (;;) {
      const ch = this.peek();
      if (!ASCII.isDigit(ch)) break;
      const newRefNum = refNum * 10 + (ch - 0x30);
      if (this.capturingGroupCount - 1 < newRefNum) break;
      refNum = newRefNum;
      this.read();
    }
    this.hasGroupRef = true;
    return new BackRef(refNum * 2, this.caseMode());
  }

  private caseMode(): SliceCase {
    return !this.has(CASE_INSENSITIVE) ? "exact" : this.has(UNICODE_CASE) ? "unicode" : "ascii";
  }

  /**
   * An escape: returns the literal code point, or -1 after building the node (in `root`,
   * when `create`) or the class predicate (in `predicate`).
   */
  private escape(inclass: boolean, create: boolean, isrange: boolean): number {
    const ch = this.skip();
    const U = this.has(UNICODE_CHARACTER_CLASS);
    const build = (p: CharPredicate) => {
      this.predicate = p;
      if (!inclass) this.root = this.newCharProperty(p);
    };
    switch (String.fromCharCode(ch)) {
      case "0":
        return this.o();
      case "1":
      case "2":
      case "3":
      case "4":
      case "5":
      case "6":
      case "7":
      case "8":
      case "9":
        if (inclass) break;
        if (create) this.root = this.ref(ch - 0x30);
        return -1;
      case "A":
        if (inclass) break;
        if (create) this.root = new Begin();
        return -1;
      case "B":
        if (inclass) break;
        if (create) this.root = new Bound(BOUND_NONE, U ? WORD() : null);
        return -1;
      case "D":
        if (create) build(negate(U ? DIGIT() : ASCII_DIGIT()));
        return -1;
      case "G":
        if (inclass) break;
        if (create) this.root = new LastMatch();
        return -1;
      case "H":
        if (create) build(negate(HORIZ_WS()));
        return -1;
      case "N":
        return this.N();
      case "R":
        if (inclass) break;
        if (create) this.root = new LineEnding();
        return -1;
      case "S":
        if (create) build(negate(U ? WHITE_SPACE() : ASCII_SPACE()));
        return -1;
      case "V":
        if (create) build(negate(VERT_WS()));
        return -1;
      case "W":
        if (create) build(negate(U ? WORD() : ASCII_WORD()));
        return -1;
      case "X":
        if (inclass) break;
        if (create) throw unsupported("\\X (grapheme clusters) is not reproduced by the policy core");
        return -1;
      case "Z":
        if (inclass) break;
        if (create) this.root = this.has(UNIX_LINES) ? new UnixDollar(false) : new Dollar(false);
        return -1;
      case "a":
        return 0x07;
      case "b":
        if (inclass) break;
        if (create) {
          if (this.peek() === 0x7b) {
            if (this.skip() === 0x67) {
              if (this.read() === 0x7d)
                throw unsupported("\\b{g} (grapheme cluster boundaries) is not reproduced by the policy core");
              break;
            }
            this.unread();
            this.unread();
          }
          this.root = new Bound(BOUND_BOTH, U ? WORD() : null);
        }
        return -1;
      case "c":
        return this.c();
      case "d":
        if (create) build(U ? DIGIT() : ASCII_DIGIT());
        return -1;
      case "e":
        return 0x1b;
      case "f":
        return 0x0c;
      case "h":
        if (create) build(HORIZ_WS());
        return -1;
      case "k": {
        if (inclass) break;
        if (this.read() !== 0x3c) throw this.error("\\k is not followed by '<' for named capturing group");
        const name = this.groupname(this.read());
        const group = this.namedGroups.get(name);
        if (group === undefined) throw this.error(`named capturing group <${name}> does not exist`);
        if (create) {
          this.hasGroupRef = true;
          this.root = new BackRef(group * 2, this.caseMode());
        }
        return -1;
      }
      case "n":
        return 0x0a;
      case "r":
        return 0x0d;
      case "s":
        if (create) build(U ? WHITE_SPACE() : ASCII_SPACE());
        return -1;
      case "t":
        return 0x09;
      case "u":
        return this.u();
      case "v":
        if (isrange) return 0x0b;
        if (create) build(VERT_WS());
        return -1;
      case "w":
        if (create) build(U ? WORD() : ASCII_WORD());
        return -1;
      case "x":
        return this.x();
      case "z":
        if (inclass) break;
        if (create) this.root = new End();
        return -1;
      default:
        if (/^[A-Za-z]$/.test(String.fromCharCode(ch))) break;
        return ch;
    }
    throw this.error("Illegal/unsupported escape sequence");
  }

  // ---- character classes ---------------------------------------------------------------------

  private clazz(consume: boolean): CharPredicate {
    let prev: CharPredicate | null = null;
    let curr: CharPredicate | null = null;
    const bits = bitClass();
    let isNeg = false;
    let hasBits = false;
    let ch = this.next();
    if (ch === 0x5e && this.at(this.cursor - 1) === 0x5b) {
      ch = this.next();
      isNeg = true;
    }
    for (;;) {
      switch (ch) {
        case 0x5b:
          curr = this.clazz(true);
          prev = prev === null ? curr : union(prev, curr);
          ch = this.peek();
          continue;
        case 0x26:
          ch = this.next();
          if (ch === 0x26) {
            ch = this.next();
            let right: CharPredicate | null = null;
            while (ch !== 0x5d && ch !== 0x26) {
              if (ch === 0x5b) {
                right = right === null ? this.clazz(true) : union(right, this.clazz(true));
              } else {
                this.unread();
                right = right === null ? this.clazz(false) : union(right, this.clazz(false));
              }
              ch = this.peek();
            }
            if (hasBits) {
              if (prev === null) prev = curr = bits;
              else prev = union(prev, bits);
              hasBits = false;
            }
            if (right !== null) curr = right;
            if (prev === null) {
              if (right === null) throw this.error("Bad class syntax");
              prev = right;
            } else {
              prev = and(prev, curr as CharPredicate);
            }
            continue;
          }
          this.unread();
          break;
        case 0:
          if (this.cursor >= this.patternLength) throw this.error("Unclosed character class");
          break;
        case 0x5d:
          if (prev !== null || hasBits) {
            if (consume) this.next();
            if (prev === null) prev = bits;
            else if (hasBits) prev = union(prev, bits);
            return isNeg ? negate(prev) : prev;
          }
          break;
        default:
          break;
      }
      curr = this.range(bits);
      if (curr === null) {
        hasBits = true;
      } else if (prev === null) {
        prev = curr;
      } else if (prev !== curr) {
        prev = union(prev, curr);
      }
      ch = this.peek();
    }
  }

  private bitsOrSingle(bits: ReturnType<typeof bitClass>, ch: number): CharPredicate | null {
    const ciu = this.has(CASE_INSENSITIVE) && this.has(UNICODE_CASE);
    if (ch < 256 && !(ciu && [0xff, 0xb5, 0x49, 0x69, 0x53, 0x73, 0x4b, 0x6b, 0xc5, 0xe5].includes(ch))) {
      bits.add(ch, this.flags0);
      return null;
    }
    return this.single(ch);
  }

  private single(ch: number): CharPredicate {
    if (this.has(CASE_INSENSITIVE)) {
      if (this.has(UNICODE_CASE)) {
        const upper = toUpperCaseCp(ch);
        const lower = toLowerCaseCp(upper);
        if (upper !== lower) return pred((c) => lower === c || lower === toLowerCaseCp(toUpperCaseCp(c)));
      } else if (ASCII.isAscii(ch)) {
        const lower = ASCII.toLower(ch);
        const upper = ASCII.toUpper(ch);
        if (lower !== upper) return pred((c) => c === lower || c === upper, true);
      }
    }
    if (isSupplementary(ch)) return pred((c) => c === ch);
    return pred((c) => c === ch, true);
  }

  private range(bits: ReturnType<typeof bitClass>): CharPredicate | null {
    let ch = this.peek();
    if (ch === 0x5c) {
      ch = this.nextEscaped();
      if (ch === 0x70 || ch === 0x50) {
        const comp = ch === 0x50;
        let oneLetter = true;
        ch = this.next();
        if (ch !== 0x7b) this.unread();
        else oneLetter = false;
        return this.family(oneLetter, comp);
      }
      const isrange = this.at(this.cursor + 1) === 0x2d;
      this.unread();
      ch = this.escape(true, true, isrange);
      if (ch === -1) return this.predicate;
    } else {
      this.next();
    }
    if (ch >= 0) {
      if (this.peek() === 0x2d) {
        const endRange = this.at(this.cursor + 1);
        if (endRange === 0x5b) return this.bitsOrSingle(bits, ch);
        if (endRange !== 0x5d) {
          this.next();
          let m = this.peek();
          if (m === 0x5c) m = this.escape(true, false, true);
          else this.next();
          if (m < ch) throw this.error("Illegal character range");
          const lo = ch;
          const hi = m;
          const inRange = (c: number) => lo <= c && c <= hi;
          if (this.has(CASE_INSENSITIVE)) {
            if (this.has(UNICODE_CASE)) {
              return pred((c) => {
                if (inRange(c)) return true;
                const up = toUpperCaseCp(c);
                return inRange(up) || inRange(toLowerCaseCp(up));
              });
            }
            return pred(
              (c) => inRange(c) || (ASCII.isAscii(c) && (inRange(ASCII.toUpper(c)) || inRange(ASCII.toLower(c)))),
            );
          }
          const bmp = hi < 0xd800 || (lo > 0xdfff && hi < 0x10000);
          return pred(inRange, bmp);
        }
      }
      return this.bitsOrSingle(bits, ch);
    }
    throw this.error(`Unexpected character '${String.fromCharCode(ch)}'`);
  }

  /** \p{name} / \pL: a Unicode category, script, binary property, POSIX class or java* method. */
  private family(singleLetter: boolean, isComplement: boolean): CharPredicate {
    this.next();
    let name: string;
    if (singleLetter) {
      const c = this.at(this.cursor);
      name = c >= 0x10000 ? String.fromCodePoint(c) : String.fromCharCode(c);
      this.read();
    } else {
      const i = this.cursor;
      this.mark(0x7d);
      while (this.read() !== 0x7d) {
        /* to the closing brace */
      }
      this.mark(0);
      const j = this.cursor;
      if (j > this.patternLength) throw this.error("Unclosed character family");
      if (i + 1 >= j) throw this.error("Empty character family");
      name = this.temp
        .slice(i, j - 1)
        .map((c) => (c >= 0x10000 ? String.fromCodePoint(c) : String.fromCharCode(c)))
        .join("");
    }
    const ci = this.has(CASE_INSENSITIVE);
    let p: CharPredicate | null = null;
    const eq = name.indexOf("=");
    if (eq !== -1) {
      const value = name.slice(eq + 1);
      const key = javaToLowerCase(name.slice(0, eq));
      switch (key) {
        case "sc":
        case "script":
          p = forUnicodeScript(value);
          break;
        case "blk":
        case "block":
          p = forUnicodeBlock(value);
          break;
        case "gc":
        case "general_category":
          p = forProperty(value, ci);
          break;
      }
      if (p === null) throw this.error(`Unknown Unicode property {name=<${key}>, value=<${value}>}`);
    } else {
      if (name.startsWith("In")) {
        p = forUnicodeBlock(name.slice(2));
      } else if (name.startsWith("Is")) {
        const shortName = name.slice(2);
        p = forUnicodeProperty(shortName, ci) ?? forProperty(shortName, ci) ?? forUnicodeScript(shortName);
      } else {
        if (this.has(UNICODE_CHARACTER_CLASS)) p = forPosixName(name, ci);
        if (p === null) p = forProperty(name, ci);
      }
      if (p === null) throw this.error(`Unknown character property name {${name}}`);
    }
    if (isComplement) {
      this.hasSupplementary = true;
      p = negate(p);
    }
    return p;
  }

  // ---- groups ----------------------------------------------------------------------------------

  private groupname(ch: number): string {
    let s = "";
    if (!ASCII.isAlpha(ch)) throw this.error("capturing group name does not start with a Latin letter");
    do {
      s += String.fromCharCode(ch);
    } while (ASCII.isAlnum((ch = this.read())));
    if (ch !== 0x3e) throw this.error("named capturing group is missing trailing '>'");
    return s;
  }

  private createGroup(anonymous: boolean): [GroupHead, GroupTail] {
    const localIndex = this.localCount++;
    const groupIndex = anonymous ? 0 : this.capturingGroupCount++;
    const head = new GroupHead(localIndex);
    const tail = new GroupTail(localIndex, groupIndex * 2);
    this.root = tail;
    return [head, tail];
  }

  /** A parenthesised construct; null for a flags-only group such as (?i). */
  private group0(): Node | null {
    let capturingGroup = false;
    let head: Node;
    let tail: Node;
    const save = this.flags0;
    const saveTCNCount = this.topClosureNodes.length;
    this.root = null;
    let ch = this.next();
    if (ch === 0x3f) {
      ch = this.skip();
      switch (ch) {
        case 0x3a: {
          [head, tail] = this.createGroup(true);
          head.next = this.expr(tail);
          break;
        }
        case 0x3d:
        case 0x21: {
          const [h, t] = this.createGroup(true);
          h.next = this.expr(t);
          head = tail = ch === 0x3d ? new Pos(h) : new Neg(h);
          break;
        }
        case 0x3e: {
          const [h, t] = this.createGroup(true);
          h.next = this.expr(t);
          head = tail = new Ques(h, "INDEPENDENT");
          break;
        }
        case 0x3c: {
          ch = this.read();
          if (ch !== 0x3d && ch !== 0x21) {
            const name = this.groupname(ch);
            if (this.namedGroups.has(name)) throw this.error(`Named capturing group <${name}> is already defined`);
            capturingGroup = true;
            [head, tail] = this.createGroup(false);
            this.namedGroups.set(name, this.capturingGroupCount - 1);
            head.next = this.expr(tail);
            break;
          }
          const start = this.cursor;
          const [h, t] = this.createGroup(true);
          h.next = this.expr(t);
          t.next = new LookBehindEnd();
          const info = new TreeInfo();
          h.study(info);
          if (!info.maxValid) throw this.error("Look-behind group does not have an obvious maximum length");
          const supplementary = this.temp.slice(start, this.patternLength).some(isSupplementary);
          head = tail = new Behind(h, info.maxLength, info.minLength, supplementary, ch === 0x21);
          this.topClosureNodes.length = saveTCNCount;
          break;
        }
        case 0x24:
        case 0x40:
          throw this.error("Unknown group type");
        default: {
          this.unread();
          this.addFlag();
          ch = this.read();
          if (ch === 0x29) return null;
          if (ch !== 0x3a) throw this.error("Unknown inline modifier");
          [head, tail] = this.createGroup(true);
          head.next = this.expr(tail);
          break;
        }
      }
    } else {
      capturingGroup = true;
      [head, tail] = this.createGroup(false);
      head.next = this.expr(tail);
    }

    this.accept(0x29, "Unclosed group");
    this.flags0 = save;

    const node = this.closure(head);
    if (node === head) {
      this.root = tail;
      return node;
    }
    if (head === tail) {
      this.root = node;
      return node;
    }
    this.topClosureNodes.length = saveTCNCount;
    if (node instanceof Ques) {
      if (node.type === "POSSESSIVE") {
        this.root = node;
        return node;
      }
      const conn = new BranchConn();
      tail.next = conn;
      const branch = node.type === "GREEDY" ? new Branch(head, null, conn) : new Branch(null, head, conn);
      this.root = conn;
      return branch;
    }
    if (node instanceof Curly) {
      if (node.type === "POSSESSIVE") {
        this.root = node;
        return node;
      }
      const info = new TreeInfo();
      const groupTail = tail as GroupTail;
      if (head.study(info)) {
        const gc = new GroupCurly(
          head.next as Node,
          node.cmin,
          node.cmax,
          node.type,
          groupTail.localIndex,
          groupTail.groupIndex,
          capturingGroup,
        );
        this.root = gc;
        return gc;
      }
      const begin = (head as GroupHead).localIndex;
      const loop = node.type === "GREEDY" ? new Loop(this.localCount, begin) : new LazyLoop(this.localCount, begin);
      if (node.type === "GREEDY" && node.cmax === MAX_REPS) this.topClosureNodes.push(loop);
      const prolog = new Prolog(loop);
      this.localCount += 1;
      loop.cmin = node.cmin;
      loop.cmax = node.cmax;
      loop.body = head;
      tail.next = loop;
      this.root = loop;
      return prolog;
    }
    throw this.error("Internal logic error");
  }

  private addFlag(): void {
    let ch = this.peek();
    for (;;) {
      switch (ch) {
        case 0x69:
          this.flags0 |= CASE_INSENSITIVE;
          break;
        case 0x6d:
          this.flags0 |= MULTILINE;
          break;
        case 0x73:
          this.flags0 |= DOTALL;
          break;
        case 0x64:
          this.flags0 |= UNIX_LINES;
          break;
        case 0x75:
          this.flags0 |= UNICODE_CASE;
          break;
        case 0x63:
          this.flags0 |= CANON_EQ;
          break;
        case 0x78:
          this.flags0 |= COMMENTS;
          break;
        case 0x55:
          this.flags0 |= UNICODE_CHARACTER_CLASS | UNICODE_CASE;
          break;
        case 0x2d:
          this.next();
          this.subFlag();
          return;
        default:
          return;
      }
      ch = this.next();
    }
  }

  private subFlag(): void {
    let ch = this.peek();
    for (;;) {
      switch (ch) {
        case 0x69:
          this.flags0 &= ~CASE_INSENSITIVE;
          break;
        case 0x6d:
          this.flags0 &= ~MULTILINE;
          break;
        case 0x73:
          this.flags0 &= ~DOTALL;
          break;
        case 0x64:
          this.flags0 &= ~UNIX_LINES;
          break;
        case 0x75:
          this.flags0 &= ~UNICODE_CASE;
          break;
        case 0x63:
          this.flags0 &= ~CANON_EQ;
          break;
        case 0x78:
          this.flags0 &= ~COMMENTS;
          break;
        case 0x55:
          this.flags0 &= ~(UNICODE_CHARACTER_CLASS | UNICODE_CASE);
          break;
        default:
          return;
      }
      ch = this.next();
    }
  }

  // ---- quantifiers -------------------------------------------------------------------------------

  private qtype(): Qtype {
    const ch = this.next();
    if (ch === 0x3f) {
      this.next();
      return "LAZY";
    }
    if (ch === 0x2b) {
      this.next();
      return "POSSESSIVE";
    }
    return "GREEDY";
  }

  private curly(prev: Node, cmin: number): Node {
    const qtype = this.qtype();
    if (qtype === "GREEDY" && prev instanceof CharProperty) return new CharPropertyGreedy(prev.predicate, cmin);
    return new Curly(prev, cmin, MAX_REPS, qtype);
  }

  private closure(prev: Node): Node {
    let ch = this.peek();
    switch (ch) {
      case 0x3f:
        return new Ques(prev, this.qtype());
      case 0x2a:
        return this.curly(prev, 0);
      case 0x2b:
        return this.curly(prev, 1);
      case 0x7b: {
        ch = this.skip();
        if (!ASCII.isDigit(ch)) throw this.error("Illegal repetition");
        let cmin = 0;
        let cmax: number;
        let overflow = false;
        const step = (acc: number, digit: number) => {
          const v = acc * 10 + (digit - 0x30);
          if (v > 0x7fffffff) overflow = true;
          return v;
        };
        do {
          cmin = step(cmin, ch);
        } while (!overflow && ASCII.isDigit((ch = this.read())));
        if (!overflow && ch === 0x2c) {
          ch = this.read();
          if (ch === 0x7d) {
            this.unread();
            return this.curly(prev, cmin);
          }
          cmax = 0;
          while (!overflow && ASCII.isDigit(ch)) {
            cmax = step(cmax, ch);
            if (!overflow) ch = this.read();
          }
        } else {
          cmax = cmin;
        }
        if (overflow) throw this.error("Illegal repetition range");
        if (ch !== 0x7d) throw this.error("Unclosed counted closure");
        if (cmax < cmin) throw this.error("Illegal repetition range");
        this.unread();
        return cmin === 0 && cmax === 1 ? new Ques(prev, this.qtype()) : new Curly(prev, cmin, cmax, this.qtype());
      }
      default:
        return prev;
    }
  }

  // ---- literal escapes -------------------------------------------------------------------------

  private c(): number {
    if (this.cursor < this.patternLength) return this.read() ^ 64;
    throw this.error("Illegal control escape sequence");
  }

  private o(): number {
    const isOct = (c: number) => c >= 0x30 && c <= 0x37;
    const n = this.read();
    if (isOct(n)) {
      const m = this.read();
      if (isOct(m)) {
        const o = this.read();
        if (isOct(o) && n >= 0x30 && n <= 0x33) return (n - 0x30) * 64 + (m - 0x30) * 8 + (o - 0x30);
        this.unread();
        return (n - 0x30) * 8 + (m - 0x30);
      }
      this.unread();
      return n - 0x30;
    }
    throw this.error("Illegal octal escape sequence");
  }

  private x(): number {
    let n = this.read();
    if (ASCII.isHexDigit(n)) {
      const m = this.read();
      if (ASCII.isHexDigit(m)) return ASCII.toDigit(n) * 16 + ASCII.toDigit(m);
    } else if (n === 0x7b && ASCII.isHexDigit(this.peek())) {
      let ch = 0;
      while (ASCII.isHexDigit((n = this.read()))) {
        ch = ch * 16 + ASCII.toDigit(n);
        if (ch > 0x10ffff) throw this.error("Hexadecimal codepoint is too big");
      }
      if (n !== 0x7d) throw this.error("Unclosed hexadecimal escape sequence");
      return ch;
    }
    throw this.error("Illegal hexadecimal escape sequence");
  }

  private uxxxx(): number {
    let n = 0;
    for (let i = 0; i < 4; i++) {
      const ch = this.read();
      if (!ASCII.isHexDigit(ch)) throw this.error("Illegal Unicode escape sequence");
      n = n * 16 + ASCII.toDigit(ch);
    }
    return n;
  }

  private u(): number {
    const n = this.uxxxx();
    if (n >= 0xd800 && n <= 0xdbff) {
      const cur = this.cursor;
      if (this.read() === 0x5c && this.read() === 0x75) {
        const n2 = this.uxxxx();
        if (n2 >= 0xdc00 && n2 <= 0xdfff) return (n - 0xd800) * 0x400 + (n2 - 0xdc00) + 0x10000;
      }
      this.cursor = cur;
    }
    return n;
  }

  private N(): number {
    if (this.read() === 0x7b)
      throw unsupported("\\N{name} (characters by Unicode name) is not reproduced by the policy core");
    throw this.error("Illegal character name escape sequence");
  }
}

/** Pattern.compile(regex) with no flags (what Kafka calls): throws JavaException on a syntax error. */
export function compileJavaRegex(regex: string): CompiledPattern {
  return new Compiler(regex).compile();
}
