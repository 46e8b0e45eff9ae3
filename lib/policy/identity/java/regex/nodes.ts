/**
 * The matching half of the Java regex mirror: a backtracking matcher whose nodes behave
 * like the node types of java.util.regex.Pattern in OpenJDK 17, one class per node type,
 * linked through `next` the way Pattern links them. Mirroring the node graph (rather than
 * translating to a JavaScript RegExp) is what makes the quirks come out the same:
 * UTF-16 units vs code points per node, capture groups that keep their value across loop
 * iterations, zero-length loop iterations, look-behind windows computed from the pattern's
 * length bounds, search start positions inside surrogate pairs, and so on.
 *
 * Differences in Java's internal optimisations (Boyer-Moore for literal patterns, the
 * failed-position memo of greedy loops) are left out: they do not change results.
 */
import {
  ASCII,
  Character,
  charCount,
  codePointAt,
  codePointBefore,
  generalCategory,
  isHighSurrogate,
  isLowSurrogate,
  toLowerCaseCp,
  toUpperCaseCp,
} from "../characters";
import { JavaException, UNSUPPORTED_JAVA_REGEX } from "../exception";
import type { RegexBudget } from "../../regex-budget";

/** Upper bound on node visits per match operation; beyond it the matcher gives up instead of hanging the console. */
export const MAX_STEPS = 2_000_000;

export const MAX_REPS = 0x7fffffff;

/** One match operation's state: Matcher's fields that nodes read and write. */
export class MatchState {
  from = 0;
  to: number;
  first = -1;
  last = 0;
  oldLast = -1;
  lookbehindTo = 0;
  /** Matcher.ENDANCHOR: matches() requires the match to end at `to`. */
  endAnchor = false;
  groups: number[];
  locals: number[];
  /** Per memoising greedy loop: positions from which another iteration already failed. */
  localsPos: (Set<number> | null)[];
  steps = 0;

  constructor(
    readonly text: string,
    groupCount: number,
    localCount: number,
    memoCount: number,
    /** Shared with the other matches of the same request or document; null: only MAX_STEPS per match. */
    readonly budget: RegexBudget | null = null,
  ) {
    this.to = text.length;
    // Java sizes the array for at least 10 groups: \2 without a second group fails to match instead of failing.
    this.groups = new Array<number>(Math.max(groupCount + 1, 10) * 2).fill(-1);
    this.locals = new Array<number>(localCount).fill(-1);
    this.localsPos = new Array<Set<number> | null>(memoCount).fill(null);
  }

  /** What every search and match starts with (Matcher.search / Matcher.match). */
  begin(): void {
    this.groups.fill(-1);
    for (const set of this.localsPos) set?.clear();
    this.steps = 0;
  }

  tick(): void {
    if (++this.steps > MAX_STEPS) {
      throw new JavaException(
        UNSUPPORTED_JAVA_REGEX,
        `the regular expression needs more than ${MAX_STEPS} backtracking steps on this input (Kafka's JVM would spend as long on every connection); simplify the rule`,
      );
    }
    this.budget?.spend();
  }
}

/** Length bounds of a node chain, as Pattern's study() computes them (32-bit int arithmetic included). */
export class TreeInfo {
  minLength = 0;
  maxLength = 0;
  maxValid = true;
  deterministic = true;

  reset(): void {
    this.minLength = 0;
    this.maxLength = 0;
    this.maxValid = true;
    this.deterministic = true;
  }
}

const i32 = (n: number) => n | 0;
const imul = (a: number, b: number) => Math.imul(a, b);

// ---- predicates -------------------------------------------------------------------------

/**
 * A character predicate. `bmp` mirrors Java's BmpCharPredicate: such a predicate only ever
 * holds for BMP non-surrogate characters and its node reads one UTF-16 unit; any other
 * predicate's node reads a whole code point.
 */
export interface CharPredicate {
  readonly is: (cp: number) => boolean;
  readonly bmp: boolean;
}

export const pred = (is: (cp: number) => boolean, bmp = false): CharPredicate => ({ is, bmp });
export const union = (a: CharPredicate, b: CharPredicate): CharPredicate =>
  pred((c) => a.is(c) || b.is(c), a.bmp && b.bmp);
export const union3 = (a: CharPredicate, b: CharPredicate, c: CharPredicate): CharPredicate =>
  pred((x) => a.is(x) || b.is(x) || c.is(x));
export const and = (a: CharPredicate, b: CharPredicate): CharPredicate =>
  pred((c) => a.is(c) && b.is(c), a.bmp && b.bmp);
export const negate = (a: CharPredicate): CharPredicate => pred((c) => !a.is(c));

// ---- base --------------------------------------------------------------------------------

export abstract class Node {
  next: Node | null;

  constructor() {
    this.next = ACCEPT_HOLDER.node;
  }

  abstract match(m: MatchState, i: number): boolean;

  study(info: TreeInfo): boolean {
    return this.next !== null ? this.next.study(info) : info.deterministic;
  }

  protected then(m: MatchState, i: number): boolean {
    return (this.next as Node).match(m, i);
  }
}

const ACCEPT_HOLDER: { node: Node | null } = { node: null };

/** Pattern.accept: ends a sub-match (an atom of a quantifier, a look-around's condition). */
export class AcceptNode extends Node {
  match(m: MatchState, i: number): boolean {
    m.last = i;
    m.groups[0] = m.first;
    m.groups[1] = i;
    return true;
  }
}
export const ACCEPT = new AcceptNode();
ACCEPT.next = null;
ACCEPT_HOLDER.node = ACCEPT;

/** Pattern.lastAccept: the end of the whole pattern. */
export class LastNode extends Node {
  match(m: MatchState, i: number): boolean {
    if (m.endAnchor && i !== m.to) return false;
    m.last = i;
    m.groups[0] = m.first;
    m.groups[1] = i;
    return true;
  }
}

/** The search loop of find(); `supplementary` steps over whole surrogate pairs (StartS). */
export class Start extends Node {
  constructor(
    node: Node,
    readonly minLength: number,
    readonly supplementary: boolean,
  ) {
    super();
    this.next = node;
  }

  match(m: MatchState, i: number): boolean {
    const guard = m.to - this.minLength;
    if (i > guard) return false;
    while (i <= guard) {
      if (this.then(m, i)) {
        m.first = i;
        m.groups[0] = m.first;
        m.groups[1] = m.last;
        return true;
      }
      if (!this.supplementary) {
        i++;
        continue;
      }
      if (i === guard) break;
      if (isHighSurrogate(m.text.charCodeAt(i++)) && i < m.text.length && isLowSurrogate(m.text.charCodeAt(i))) i++;
    }
    return false;
  }

  override study(info: TreeInfo): boolean {
    this.next?.study(info);
    info.maxValid = false;
    info.deterministic = false;
    return false;
  }
}

// ---- anchors -----------------------------------------------------------------------------

const isLineTerminator = (ch: number) => ch === 0x0a || ch === 0x0d || (ch | 1) === 0x2029 || ch === 0x85;

/** ^ without MULTILINE, and \A. */
export class Begin extends Node {
  match(m: MatchState, i: number): boolean {
    if (i === m.from && this.then(m, i)) {
      m.first = i;
      m.groups[0] = i;
      m.groups[1] = m.last;
      return true;
    }
    return false;
  }
}

/** \z */
export class End extends Node {
  match(m: MatchState, i: number): boolean {
    return i === m.to && this.then(m, i);
  }
}

/** ^ with MULTILINE. */
export class Caret extends Node {
  constructor(readonly unixLines: boolean) {
    super();
  }

  match(m: MatchState, i: number): boolean {
    if (i === m.to) return false;
    if (i > m.from) {
      const ch = m.text.charCodeAt(i - 1);
      if (this.unixLines) {
        if (ch !== 0x0a) return false;
      } else {
        if (!isLineTerminator(ch)) return false;
        if (ch === 0x0d && m.text.charCodeAt(i) === 0x0a) return false;
      }
    }
    return this.then(m, i);
  }
}

/** \G: where the previous match ended. */
export class LastMatch extends Node {
  match(m: MatchState, i: number): boolean {
    return i === m.oldLast && this.then(m, i);
  }
}

/** $ (and \Z): before a final line terminator or at the end; with MULTILINE before any terminator. */
export class Dollar extends Node {
  constructor(readonly multiline: boolean) {
    super();
  }

  match(m: MatchState, i: number): boolean {
    const end = m.to;
    const s = m.text;
    if (!this.multiline) {
      if (i < end - 2) return false;
      if (i === end - 2 && !(s.charCodeAt(i) === 0x0d && s.charCodeAt(i + 1) === 0x0a)) return false;
    }
    if (i < end) {
      const ch = s.charCodeAt(i);
      if (ch === 0x0a) {
        if (i > 0 && s.charCodeAt(i - 1) === 0x0d) return false;
        if (this.multiline) return this.then(m, i);
      } else if (ch === 0x0d || ch === 0x85 || (ch | 1) === 0x2029) {
        if (this.multiline) return this.then(m, i);
      } else {
        return false;
      }
    }
    return this.then(m, i);
  }

  override study(info: TreeInfo): boolean {
    this.next?.study(info);
    return info.deterministic;
  }
}

/** $ and \Z with UNIX_LINES. */
export class UnixDollar extends Node {
  constructor(readonly multiline: boolean) {
    super();
  }

  match(m: MatchState, i: number): boolean {
    const end = m.to;
    if (i < end) {
      if (m.text.charCodeAt(i) !== 0x0a) return false;
      if (!this.multiline && i !== end - 1) return false;
      if (this.multiline) return this.then(m, i);
    }
    return this.then(m, i);
  }

  override study(info: TreeInfo): boolean {
    this.next?.study(info);
    return info.deterministic;
  }
}

/** \R: \r\n (backtracking to \r) or one vertical whitespace character. */
export class LineEnding extends Node {
  match(m: MatchState, i: number): boolean {
    if (i >= m.to) return false;
    const ch = m.text.charCodeAt(i);
    if (ch === 0x0a || ch === 0x0b || ch === 0x0c || ch === 0x85 || ch === 0x2028 || ch === 0x2029)
      return this.then(m, i + 1);
    if (ch === 0x0d) {
      i++;
      if (i < m.to && m.text.charCodeAt(i) === 0x0a && this.then(m, i + 1)) return true;
      return this.then(m, i);
    }
    return false;
  }

  override study(info: TreeInfo): boolean {
    info.minLength = i32(info.minLength + 1);
    info.maxLength = i32(info.maxLength + 2);
    return this.next !== null ? this.next.study(info) : info.deterministic;
  }
}

export const BOUND_LEFT = 1;
export const BOUND_RIGHT = 2;
export const BOUND_BOTH = 3;
export const BOUND_NONE = 4;

/** \b and \B (Java 17: letters or digits of any script and `_` are word characters; non-spacing marks after them too). */
export class Bound extends Node {
  constructor(
    readonly type: number,
    readonly unicodeWord: CharPredicate | null,
  ) {
    super();
  }

  private isWord(ch: number): boolean {
    return this.unicodeWord !== null ? this.unicodeWord.is(ch) : ch === 0x5f || Character.isLetterOrDigit(ch);
  }

  private hasBaseCharacter(m: MatchState, i: number): boolean {
    for (let x = i; x >= m.from; x--) {
      const ch = codePointAt(m.text, x);
      if (Character.isLetterOrDigit(ch)) return true;
      if (generalCategory(ch) === "Mn") continue;
      return false;
    }
    return false;
  }

  private check(m: MatchState, i: number): number {
    let left = false;
    if (i > m.from) {
      const ch = codePointBefore(m.text, i);
      left = this.isWord(ch) || (generalCategory(ch) === "Mn" && this.hasBaseCharacter(m, i - 1));
    }
    let right = false;
    if (i < m.to) {
      const ch = codePointAt(m.text, i);
      right = this.isWord(ch) || (generalCategory(ch) === "Mn" && this.hasBaseCharacter(m, i));
    }
    return left !== right ? (right ? BOUND_LEFT : BOUND_RIGHT) : BOUND_NONE;
  }

  match(m: MatchState, i: number): boolean {
    return (this.check(m, i) & this.type) > 0 && this.then(m, i);
  }
}

// ---- characters --------------------------------------------------------------------------

/** One character satisfying a predicate (Java's CharProperty / BmpCharProperty). */
export class CharProperty extends Node {
  constructor(readonly predicate: CharPredicate) {
    super();
  }

  match(m: MatchState, i: number): boolean {
    m.tick();
    if (i >= m.to) return false;
    if (this.predicate.bmp) return this.predicate.is(m.text.charCodeAt(i)) && this.then(m, i + 1);
    const ch = codePointAt(m.text, i);
    const j = i + charCount(ch);
    return j <= m.to && this.predicate.is(ch) && this.then(m, j);
  }

  override study(info: TreeInfo): boolean {
    info.minLength = i32(info.minLength + 1);
    info.maxLength = i32(info.maxLength + 1);
    return this.next !== null ? this.next.study(info) : info.deterministic;
  }
}

/** X* and X+ on a single character (Java's CharPropertyGreedy / BmpCharPropertyGreedy). */
export class CharPropertyGreedy extends Node {
  constructor(
    readonly predicate: CharPredicate,
    readonly cmin: number,
  ) {
    super();
  }

  match(m: MatchState, i: number): boolean {
    m.tick();
    const p = this.predicate;
    const to = m.to;
    const s = m.text;
    let n = 0;
    if (p.bmp) {
      while (i < to && p.is(s.charCodeAt(i))) {
        i++;
        n++;
      }
      while (n >= this.cmin) {
        if (this.then(m, i)) return true;
        i--;
        n--;
      }
      return false;
    }
    const starti = i;
    while (i < to) {
      let ch = codePointAt(s, i);
      let len = charCount(ch);
      if (i + len > to) {
        ch = s.charCodeAt(i);
        len = 1;
      }
      if (!p.is(ch)) break;
      i += len;
      n++;
    }
    while (n >= this.cmin) {
      if (this.then(m, i)) return true;
      if (n === this.cmin) return false;
      i = Math.max(starti, i - charCount(codePointBefore(s, i)));
      n--;
    }
    return false;
  }

  override study(info: TreeInfo): boolean {
    info.minLength = i32(info.minLength + this.cmin);
    if (info.maxValid) info.maxLength = i32(info.maxLength + MAX_REPS);
    info.deterministic = false;
    return this.next !== null ? this.next.study(info) : info.deterministic;
  }
}

export type SliceCase = "exact" | "ascii" | "unicode";

/** A run of literal characters (Java's Slice, SliceI, SliceU and their code point variants). */
export class Slice extends Node {
  private readonly buffer: number[];

  constructor(
    chars: readonly number[],
    readonly caseMode: SliceCase,
    readonly supplementary: boolean,
  ) {
    super();
    this.buffer = chars.map((c) =>
      caseMode === "ascii" ? ASCII.toLower(c) : caseMode === "unicode" ? toLowerCaseCp(toUpperCaseCp(c)) : c,
    );
  }

  private same(want: number, c: number): boolean {
    if (want === c) return true;
    if (this.caseMode === "ascii") return want === ASCII.toLower(c);
    if (this.caseMode === "unicode") return want === toLowerCaseCp(toUpperCaseCp(c));
    return false;
  }

  match(m: MatchState, i: number): boolean {
    m.tick();
    const s = m.text;
    if (!this.supplementary) {
      for (let j = 0; j < this.buffer.length; j++) {
        if (i + j >= m.to) return false;
        if (!this.same(this.buffer[j]!, s.charCodeAt(i + j))) return false;
      }
      return this.then(m, i + this.buffer.length);
    }
    let x = i;
    for (const want of this.buffer) {
      if (x >= m.to) return false;
      const c = codePointAt(s, x);
      if (!this.same(want, c)) return false;
      x += charCount(c);
      if (x > m.to) return false;
    }
    return this.then(m, x);
  }

  override study(info: TreeInfo): boolean {
    info.minLength = i32(info.minLength + this.buffer.length);
    info.maxLength = i32(info.maxLength + this.buffer.length);
    return this.next !== null ? this.next.study(info) : info.deterministic;
  }
}

// ---- quantifiers -------------------------------------------------------------------------

export type Qtype = "GREEDY" | "LAZY" | "POSSESSIVE" | "INDEPENDENT";

/** X? (and the atomic group, INDEPENDENT). */
export class Ques extends Node {
  constructor(
    readonly atom: Node,
    readonly type: Qtype,
  ) {
    super();
  }

  match(m: MatchState, i: number): boolean {
    m.tick();
    switch (this.type) {
      case "GREEDY":
        return (this.atom.match(m, i) && this.then(m, m.last)) || this.then(m, i);
      case "LAZY":
        return this.then(m, i) || (this.atom.match(m, i) && this.then(m, m.last));
      case "POSSESSIVE":
        if (this.atom.match(m, i)) i = m.last;
        return this.then(m, i);
      default:
        return this.atom.match(m, i) && this.then(m, m.last);
    }
  }

  override study(info: TreeInfo): boolean {
    if (this.type !== "INDEPENDENT") {
      const minL = info.minLength;
      this.atom.study(info);
      info.minLength = minL;
      info.deterministic = false;
    } else {
      this.atom.study(info);
    }
    return this.next !== null ? this.next.study(info) : info.deterministic;
  }
}

function studyRepeat(info: TreeInfo, atom: Node, cmin: number, cmax: number): void {
  const minL = info.minLength;
  const maxL = info.maxLength;
  const maxV = info.maxValid;
  const detm = info.deterministic;
  info.reset();
  atom.study(info);
  let temp = i32(imul(info.minLength, cmin) + minL);
  if (temp < minL) temp = 0xfffffff;
  info.minLength = temp;
  if (maxV && info.maxValid) {
    temp = i32(imul(info.maxLength, cmax) + maxL);
    info.maxLength = temp;
    if (temp < maxL) info.maxValid = false;
  } else {
    info.maxValid = false;
  }
  info.deterministic = info.deterministic && cmin === cmax ? detm : false;
}

/** X{n,m}, and X*, X+ on anything that is not a single character or a group (Java's Curly). */
export class Curly extends Node {
  constructor(
    readonly atom: Node,
    readonly cmin: number,
    readonly cmax: number,
    readonly type: Qtype,
  ) {
    super();
  }

  match(m: MatchState, i: number): boolean {
    m.tick();
    let j = 0;
    for (; j < this.cmin; j++) {
      if (!this.atom.match(m, i)) return false;
      i = m.last;
    }
    if (this.type === "GREEDY") return this.greedy(m, i, j);
    if (this.type === "LAZY") return this.lazy(m, i, j);
    return this.possessive(m, i, j);
  }

  private greedy(m: MatchState, i: number, j: number): boolean {
    if (j >= this.cmax) return this.then(m, i);
    const backLimit = j;
    if (this.atom.match(m, i)) {
      const k = m.last - i;
      if (k !== 0) {
        i = m.last;
        j++;
        while (j < this.cmax) {
          if (!this.atom.match(m, i)) break;
          if (i + k !== m.last) {
            if (this.greedy(m, m.last, j + 1)) return true;
            break;
          }
          i += k;
          j++;
        }
        while (j >= backLimit) {
          if (this.then(m, i)) return true;
          i -= k;
          j--;
        }
        return false;
      }
    }
    return this.then(m, i);
  }

  private lazy(m: MatchState, i: number, j: number): boolean {
    for (;;) {
      m.tick();
      if (this.then(m, i)) return true;
      if (j >= this.cmax) return false;
      if (!this.atom.match(m, i)) return false;
      if (i === m.last) return false;
      i = m.last;
      j++;
    }
  }

  private possessive(m: MatchState, i: number, j: number): boolean {
    for (; j < this.cmax; j++) {
      if (!this.atom.match(m, i)) break;
      if (i === m.last) break;
      i = m.last;
    }
    return this.then(m, i);
  }

  override study(info: TreeInfo): boolean {
    studyRepeat(info, this.atom, this.cmin, this.cmax);
    return this.next !== null ? this.next.study(info) : info.deterministic;
  }
}

/** A quantified group whose body has a single way to match (Java's GroupCurly). */
export class GroupCurly extends Node {
  constructor(
    readonly atom: Node,
    readonly cmin: number,
    readonly cmax: number,
    readonly type: Qtype,
    readonly localIndex: number,
    readonly groupIndex: number,
    readonly capture: boolean,
  ) {
    super();
  }

  match(m: MatchState, i: number): boolean {
    m.tick();
    const g = m.groups;
    const save0 = m.locals[this.localIndex]!;
    const save1 = this.capture ? g[this.groupIndex]! : 0;
    const save2 = this.capture ? g[this.groupIndex + 1]! : 0;
    m.locals[this.localIndex] = -1;
    let ret = true;
    for (let j = 0; j < this.cmin; j++) {
      if (this.atom.match(m, i)) {
        if (this.capture) {
          g[this.groupIndex] = i;
          g[this.groupIndex + 1] = m.last;
        }
        i = m.last;
      } else {
        ret = false;
        break;
      }
    }
    if (ret) {
      if (this.type === "GREEDY") ret = this.greedy(m, i, this.cmin);
      else if (this.type === "LAZY") ret = this.lazy(m, i, this.cmin);
      else ret = this.possessive(m, i, this.cmin);
    }
    if (!ret) {
      m.locals[this.localIndex] = save0;
      if (this.capture) {
        g[this.groupIndex] = save1;
        g[this.groupIndex + 1] = save2;
      }
    }
    return ret;
  }

  private setGroup(m: MatchState, start: number, end: number): void {
    if (this.capture) {
      m.groups[this.groupIndex] = start;
      m.groups[this.groupIndex + 1] = end;
    }
  }

  private greedy(m: MatchState, i: number, j: number): boolean {
    const min = j;
    const g = m.groups;
    const save0 = this.capture ? g[this.groupIndex]! : 0;
    const save1 = this.capture ? g[this.groupIndex + 1]! : 0;
    for (;;) {
      if (j >= this.cmax) break;
      if (!this.atom.match(m, i)) break;
      const k = m.last - i;
      if (k <= 0) {
        this.setGroup(m, i, i + k);
        i = i + k;
        break;
      }
      for (;;) {
        this.setGroup(m, i, i + k);
        i = i + k;
        if (++j >= this.cmax) break;
        if (!this.atom.match(m, i)) break;
        if (i + k !== m.last) {
          if (this.greedy(m, i, j)) return true;
          break;
        }
      }
      while (j > min) {
        if (this.then(m, i)) {
          this.setGroup(m, i - k, i);
          return true;
        }
        i = i - k;
        this.setGroup(m, i - k, i);
        j--;
      }
      break;
    }
    if (this.capture) {
      g[this.groupIndex] = save0;
      g[this.groupIndex + 1] = save1;
    }
    return this.then(m, i);
  }

  private lazy(m: MatchState, i: number, j: number): boolean {
    for (;;) {
      m.tick();
      if (this.then(m, i)) return true;
      if (j >= this.cmax) return false;
      if (!this.atom.match(m, i)) return false;
      if (i === m.last) return false;
      this.setGroup(m, i, m.last);
      i = m.last;
      j++;
    }
  }

  private possessive(m: MatchState, i: number, j: number): boolean {
    for (; j < this.cmax; j++) {
      if (!this.atom.match(m, i)) break;
      this.setGroup(m, i, m.last);
      if (i === m.last) break;
      i = m.last;
    }
    return this.then(m, i);
  }

  override study(info: TreeInfo): boolean {
    studyRepeat(info, this.atom, this.cmin, this.cmax);
    return this.next !== null ? this.next.study(info) : info.deterministic;
  }
}

/** Where the alternatives of a Branch meet again. */
export class BranchConn extends Node {
  match(m: MatchState, i: number): boolean {
    return this.then(m, i);
  }

  override study(info: TreeInfo): boolean {
    return info.deterministic;
  }
}

/** Alternation; a null alternative is an empty one (goes straight to what follows). */
export class Branch extends Node {
  readonly atoms: (Node | null)[];

  constructor(
    first: Node | null,
    second: Node | null,
    readonly conn: BranchConn,
  ) {
    super();
    this.atoms = [first, second];
  }

  match(m: MatchState, i: number): boolean {
    m.tick();
    for (const atom of this.atoms) {
      if (atom === null) {
        if ((this.conn.next as Node).match(m, i)) return true;
      } else if (atom.match(m, i)) {
        return true;
      }
    }
    return false;
  }

  override study(info: TreeInfo): boolean {
    let minL = info.minLength;
    let maxL = info.maxLength;
    let maxV = info.maxValid;
    let minL2 = 0x7fffffff;
    let maxL2 = -1;
    for (const atom of this.atoms) {
      info.reset();
      if (atom !== null) atom.study(info);
      minL2 = Math.min(minL2, info.minLength);
      maxL2 = Math.max(maxL2, info.maxLength);
      maxV = maxV && info.maxValid;
    }
    minL = i32(minL + minL2);
    maxL = i32(maxL + maxL2);
    info.reset();
    this.conn.next?.study(info);
    info.minLength = i32(info.minLength + minL);
    info.maxLength = i32(info.maxLength + maxL);
    info.maxValid = info.maxValid && maxV;
    info.deterministic = false;
    return false;
  }
}

/** Start of a group: remembers where the current pass through it began. */
export class GroupHead extends Node {
  constructor(readonly localIndex: number) {
    super();
  }

  match(m: MatchState, i: number): boolean {
    const save = m.locals[this.localIndex]!;
    m.locals[this.localIndex] = i;
    const ret = this.then(m, i);
    m.locals[this.localIndex] = save;
    return ret;
  }
}

/** End of a group: records the capture (group index 0 for non-capturing groups) and undoes it on backtracking. */
export class GroupTail extends Node {
  constructor(
    readonly localIndex: number,
    readonly groupIndex: number,
  ) {
    super();
  }

  match(m: MatchState, i: number): boolean {
    const tmp = m.locals[this.localIndex]!;
    if (tmp >= 0) {
      const g = m.groups;
      const groupStart = g[this.groupIndex]!;
      const groupEnd = g[this.groupIndex + 1]!;
      g[this.groupIndex] = tmp;
      g[this.groupIndex + 1] = i;
      if (this.then(m, i)) return true;
      g[this.groupIndex] = groupStart;
      g[this.groupIndex + 1] = groupEnd;
      return false;
    }
    m.last = i;
    return true;
  }
}

/** A group with a quantifier whose body can match in several ways: entry point (Java's Prolog). */
export class Prolog extends Node {
  constructor(readonly loop: Loop) {
    super();
  }

  match(m: MatchState, i: number): boolean {
    return this.loop.matchInit(m, i);
  }

  override study(info: TreeInfo): boolean {
    return this.loop.study(info);
  }
}

/** The loop of a quantified group: its body ends by calling back into the loop. */
export class Loop extends Node {
  body: Node | null = null;
  cmin = 0;
  cmax = 0;
  /**
   * Java's backtracking stopper for an unbounded greedy loop outside any other quantifier,
   * in a pattern without back references: a position from which one more iteration already
   * failed is not tried again in the same search. It changes no answer, only the time.
   */
  posIndex = -1;

  constructor(
    readonly countIndex: number,
    readonly beginIndex: number,
  ) {
    super();
  }

  match(m: MatchState, i: number): boolean {
    m.tick();
    if (i > m.locals[this.beginIndex]!) {
      const count = m.locals[this.countIndex]!;
      if (count < this.cmin) {
        m.locals[this.countIndex] = count + 1;
        const b = (this.body as Node).match(m, i);
        if (!b) m.locals[this.countIndex] = count;
        return b;
      }
      if (count < this.cmax) {
        const memo = this.posIndex !== -1 ? m.localsPos[this.posIndex] : null;
        if (memo?.has(i)) return this.then(m, i);
        m.locals[this.countIndex] = count + 1;
        if ((this.body as Node).match(m, i)) return true;
        m.locals[this.countIndex] = count;
        memo?.add(i);
      }
    }
    return this.then(m, i);
  }

  matchInit(m: MatchState, i: number): boolean {
    const save = m.locals[this.countIndex]!;
    if (this.posIndex !== -1 && m.localsPos[this.posIndex] === null) m.localsPos[this.posIndex] = new Set();
    let ret: boolean;
    if (0 < this.cmin) {
      m.locals[this.countIndex] = 1;
      ret = (this.body as Node).match(m, i);
    } else if (0 < this.cmax) {
      m.locals[this.countIndex] = 1;
      ret = (this.body as Node).match(m, i);
      if (!ret) ret = this.then(m, i);
    } else {
      ret = this.then(m, i);
    }
    m.locals[this.countIndex] = save;
    return ret;
  }

  override study(info: TreeInfo): boolean {
    info.maxValid = false;
    info.deterministic = false;
    return false;
  }
}

export class LazyLoop extends Loop {
  override match(m: MatchState, i: number): boolean {
    m.tick();
    if (i > m.locals[this.beginIndex]!) {
      const count = m.locals[this.countIndex]!;
      if (count < this.cmin) {
        m.locals[this.countIndex] = count + 1;
        const r = (this.body as Node).match(m, i);
        if (!r) m.locals[this.countIndex] = count;
        return r;
      }
      if (this.then(m, i)) return true;
      if (count < this.cmax) {
        m.locals[this.countIndex] = count + 1;
        const r = (this.body as Node).match(m, i);
        if (!r) m.locals[this.countIndex] = count;
        return r;
      }
      return false;
    }
    return this.then(m, i);
  }

  override matchInit(m: MatchState, i: number): boolean {
    const save = m.locals[this.countIndex]!;
    let ret = false;
    if (0 < this.cmin) {
      m.locals[this.countIndex] = 1;
      ret = (this.body as Node).match(m, i);
    } else if (this.then(m, i)) {
      ret = true;
    } else if (0 < this.cmax) {
      m.locals[this.countIndex] = 1;
      ret = (this.body as Node).match(m, i);
    }
    m.locals[this.countIndex] = save;
    return ret;
  }
}

// ---- look-around ---------------------------------------------------------------------------

/** (?=X) */
export class Pos extends Node {
  constructor(readonly cond: Node) {
    super();
  }

  match(m: MatchState, i: number): boolean {
    return this.cond.match(m, i) && this.then(m, i);
  }
}

/** (?!X) */
export class Neg extends Node {
  constructor(readonly cond: Node) {
    super();
  }

  match(m: MatchState, i: number): boolean {
    return !this.cond.match(m, i) && this.then(m, i);
  }
}

/** Ends a look-behind's condition: it must end exactly where the look-behind stands. */
export class LookBehindEnd extends Node {
  match(m: MatchState, i: number): boolean {
    return i === m.lookbehindTo;
  }
}

/**
 * Java's countChars(seq, index, lengthInCodePoints) with a negative length: how many UTF-16
 * units the given number of code points before `index` take. (A positive length, which
 * Java reaches only through its int overflow of the look-behind bounds, counts forwards.)
 */
function countChars(s: string, index: number, lengthInCodePoints: number): number {
  const length = s.length;
  let x = index;
  if (lengthInCodePoints >= 0) {
    for (let n = 0; x < length && n < lengthInCodePoints; n++) {
      if (isHighSurrogate(s.charCodeAt(x++)) && x < length && isLowSurrogate(s.charCodeAt(x))) x++;
    }
    return x - index;
  }
  if (index === 0) return 0;
  const len = i32(-lengthInCodePoints);
  for (let n = 0; x > 0 && n < len; n++) {
    if (isLowSurrogate(s.charCodeAt(--x)) && x > 0 && isHighSurrogate(s.charCodeAt(x - 1))) x--;
  }
  return index - x;
}

/**
 * (?<=X) and (?<!X): tries every start between `rmin` and `rmax` characters back (code
 * points when the pattern has supplementary characters from here on), nearest first.
 */
export class Behind extends Node {
  constructor(
    readonly cond: Node,
    readonly rmax: number,
    readonly rmin: number,
    readonly supplementary: boolean,
    readonly negative: boolean,
  ) {
    super();
  }

  match(m: MatchState, i: number): boolean {
    m.tick();
    const savedLBT = m.lookbehindTo;
    let matched = false;
    m.lookbehindTo = i;
    if (!this.supplementary) {
      const from = Math.max(i32(i - this.rmax), m.from);
      for (let j = i32(i - this.rmin); !matched && j >= from; j--) matched = this.cond.match(m, j);
    } else {
      const rmaxChars = countChars(m.text, i, i32(-this.rmax));
      const rminChars = countChars(m.text, i, i32(-this.rmin));
      const from = Math.max(i - rmaxChars, m.from);
      for (let j = i - rminChars; !matched && j >= from; j -= j > from ? countChars(m.text, j, -1) : 1)
        matched = this.cond.match(m, j);
    }
    m.lookbehindTo = savedLBT;
    return matched !== this.negative && this.then(m, i);
  }
}

// ---- back references -----------------------------------------------------------------------

/** \n and \k<name>; `caseMode` as for slices under (?i) / (?iu). */
export class BackRef extends Node {
  constructor(
    readonly groupIndex: number,
    readonly caseMode: SliceCase,
  ) {
    super();
  }

  match(m: MatchState, i: number): boolean {
    m.tick();
    let j = m.groups[this.groupIndex]!;
    const k = m.groups[this.groupIndex + 1]!;
    const groupSize = k - j;
    if (j < 0) return false;
    if (i + groupSize > m.to) return false;
    const s = m.text;
    if (this.caseMode === "exact") {
      for (let n = 0; n < groupSize; n++) if (s.charCodeAt(i + n) !== s.charCodeAt(j + n)) return false;
      return this.then(m, i + groupSize);
    }
    let x = i;
    for (let n = 0; n < groupSize; n++) {
      const c1 = codePointAt(s, x);
      const c2 = codePointAt(s, j);
      if (c1 !== c2) {
        if (this.caseMode === "unicode") {
          const cc1 = toUpperCaseCp(c1);
          const cc2 = toUpperCaseCp(c2);
          if (cc1 !== cc2 && toLowerCaseCp(cc1) !== toLowerCaseCp(cc2)) return false;
        } else if (ASCII.toLower(c1) !== ASCII.toLower(c2)) {
          return false;
        }
      }
      x += charCount(c1);
      j += charCount(c2);
    }
    return this.then(m, i + groupSize);
  }

  override study(info: TreeInfo): boolean {
    info.maxValid = false;
    return this.next !== null ? this.next.study(info) : info.deterministic;
  }
}
