/**
 * java.util.regex.Pattern and Matcher as Kafka uses them: Pattern.compile(regex) (no
 * flags), matches(), lookingAt(), find() loops, replaceAll / replaceFirst with Java's
 * replacement syntax ($n, ${name}, backslash escapes, and its exceptions), and
 * Pattern.split(input, limit).
 *
 * The matcher is ./nodes.ts, built by ./compiler.ts; see there for what is mirrored and
 * what throws UnsupportedJavaRegex instead.
 *
 * Every way to match takes an optional RegexBudget (../../regex-budget.ts) that the steps
 * are also charged to; without one, only the per-match MAX_STEPS applies.
 */
import { ASCII } from "../characters";
import { JavaException, UNSUPPORTED_JAVA_REGEX } from "../exception";
import { compileJavaRegex, type CompiledPattern } from "./compiler";
import { MatchState } from "./nodes";
import type { RegexBudget } from "../../regex-budget";

export class JavaPattern {
  private constructor(private readonly compiled: CompiledPattern) {}

  /** Pattern.compile(regex): throws JavaException (PatternSyntaxException, or UnsupportedJavaRegex). */
  static compile(regex: string): JavaPattern {
    return new JavaPattern(compileJavaRegex(regex));
  }

  /** Pattern.pattern() / toString(). */
  get source(): string {
    return this.compiled.source;
  }

  toString(): string {
    return this.compiled.source;
  }

  /** Matcher.groupCount(). */
  get groupCount(): number {
    return this.compiled.groupCount;
  }

  get namedGroups(): ReadonlyMap<string, number> {
    return this.compiled.namedGroups;
  }

  matcher(text: string, budget: RegexBudget | null = null): JavaMatcher {
    return new JavaMatcher(this.compiled, text, budget);
  }

  /** Pattern.matcher(s).matches() */
  matches(text: string, budget: RegexBudget | null = null): boolean {
    return this.matcher(text, budget).matches();
  }

  /** Pattern.matcher(s).lookingAt() */
  lookingAt(text: string, budget: RegexBudget | null = null): boolean {
    return this.matcher(text, budget).lookingAt();
  }

  /** Pattern.matcher(s).replaceAll(replacement), i.e. String.replaceAll(regex, replacement). */
  replaceAll(text: string, replacement: string, budget: RegexBudget | null = null): string {
    return this.matcher(text, budget).replaceAll(replacement);
  }

  /** Pattern.matcher(s).replaceFirst(replacement). */
  replaceFirst(text: string, replacement: string, budget: RegexBudget | null = null): string {
    return this.matcher(text, budget).replaceFirst(replacement);
  }

  /** Pattern.split(input, limit). */
  split(input: string, limit: number, budget: RegexBudget | null = null): string[] {
    let index = 0;
    const matchLimited = limit > 0;
    const list: string[] = [];
    const m = this.matcher(input, budget);
    while (m.find()) {
      if (!matchLimited || list.length < limit - 1) {
        if (index === 0 && index === m.start() && m.start() === m.end()) continue;
        list.push(input.slice(index, m.start()));
        index = m.end();
      } else if (list.length === limit - 1) {
        list.push(input.slice(index));
        index = m.end();
      }
    }
    if (index === 0) return [input];
    if (!matchLimited || list.length < limit) list.push(input.slice(index));
    let size = list.length;
    if (limit === 0) while (size > 0 && list[size - 1] === "") size--;
    return list.slice(0, size);
  }
}

/** One java.util.regex.Matcher over one input. */
export class JavaMatcher {
  private readonly state: MatchState;
  private lastAppendPosition = 0;

  constructor(
    private readonly compiled: CompiledPattern,
    private readonly text: string,
    budget: RegexBudget | null = null,
  ) {
    this.state = new MatchState(text, compiled.groupCount, compiled.localCount, compiled.memoCount, budget);
  }

  private run(fn: () => boolean): boolean {
    try {
      return fn();
    } catch (e) {
      if (e instanceof RangeError) {
        throw new JavaException(
          UNSUPPORTED_JAVA_REGEX,
          "the regular expression recurses too deeply on this input for the policy core to follow (Java may throw StackOverflowError here)",
        );
      }
      throw e;
    }
  }

  private reset(): void {
    const m = this.state;
    m.first = -1;
    m.last = 0;
    m.oldLast = -1;
    m.groups.fill(-1);
    m.locals.fill(-1);
    this.lastAppendPosition = 0;
  }

  private anchoredMatch(endAnchor: boolean): boolean {
    const m = this.state;
    m.first = 0;
    m.oldLast = m.oldLast < 0 ? 0 : m.oldLast;
    m.begin();
    m.endAnchor = endAnchor;
    const result = this.run(() => this.compiled.matchRoot.match(m, 0));
    if (!result) m.first = -1;
    m.oldLast = m.last;
    return result;
  }

  matches(): boolean {
    this.reset();
    return this.anchoredMatch(true);
  }

  lookingAt(): boolean {
    this.reset();
    return this.anchoredMatch(false);
  }

  private search(from: number): boolean {
    const m = this.state;
    m.first = from;
    m.oldLast = m.oldLast < 0 ? from : m.oldLast;
    m.begin();
    m.endAnchor = false;
    const result = this.run(() => this.compiled.root.match(m, from));
    if (!result) m.first = -1;
    m.oldLast = m.last;
    return result;
  }

  /** Matcher.find(): the next match after the previous one (one character further after an empty match). */
  find(): boolean {
    const m = this.state;
    let next = m.last;
    if (next === m.first) next++;
    if (next < m.from) next = m.from;
    if (next > m.to) {
      m.groups.fill(-1);
      return false;
    }
    return this.search(next);
  }

  /** Matcher.find(int): resets, then searches from `start`. */
  findFrom(start: number): boolean {
    if (start < 0 || start > this.text.length)
      throw new JavaException("IndexOutOfBoundsException", "Illegal start index");
    this.reset();
    return this.search(start);
  }

  start(group = 0): number {
    this.checkGroup(group);
    return this.state.groups[group * 2]!;
  }

  end(group = 0): number {
    this.checkGroup(group);
    return this.state.groups[group * 2 + 1]!;
  }

  /** Matcher.group(n): null when the group did not take part in the match. */
  group(group = 0): string | null {
    this.checkGroup(group);
    const s = this.state.groups[group * 2]!;
    const e = this.state.groups[group * 2 + 1]!;
    return s === -1 || e === -1 ? null : this.text.slice(s, e);
  }

  private checkGroup(group: number): void {
    if (this.state.first < 0) throw new JavaException("IllegalStateException", "No match available");
    if (group < 0 || group > this.compiled.groupCount)
      throw new JavaException("IndexOutOfBoundsException", `No group ${group}`);
  }

  /** Matcher.appendExpandedReplacement: $n (longest group number that exists), ${name}, \x. */
  private expand(replacement: string): string {
    let out = "";
    let cursor = 0;
    const groupCount = this.compiled.groupCount;
    while (cursor < replacement.length) {
      let next = replacement.charCodeAt(cursor);
      if (next === 0x5c) {
        cursor++;
        if (cursor === replacement.length)
          throw new JavaException("IllegalArgumentException", "character to be escaped is missing");
        out += replacement[cursor];
        cursor++;
      } else if (next === 0x24) {
        cursor++;
        if (cursor === replacement.length)
          throw new JavaException("IllegalArgumentException", "Illegal group reference: group index is missing");
        next = replacement.charCodeAt(cursor);
        let refNum: number;
        if (next === 0x7b) {
          cursor++;
          let name = "";
          while (cursor < replacement.length) {
            next = replacement.charCodeAt(cursor);
            if (ASCII.isLower(next) || ASCII.isUpper(next) || ASCII.isDigit(next)) {
              name += replacement[cursor];
              cursor++;
            } else {
              break;
            }
          }
          if (name.length === 0)
            throw new JavaException("IllegalArgumentException", "named capturing group has 0 length name");
          if (next !== 0x7d)
            throw new JavaException("IllegalArgumentException", "named capturing group is missing trailing '}'");
          if (ASCII.isDigit(name.charCodeAt(0)))
            throw new JavaException(
              "IllegalArgumentException",
              `capturing group name {${name}} starts with digit character`,
            );
          const n = this.compiled.namedGroups.get(name);
          if (n === undefined) throw new JavaException("IllegalArgumentException", `No group with name {${name}}`);
          refNum = n;
          cursor++;
        } else {
          refNum = next - 0x30;
          if (refNum < 0 || refNum > 9) throw new JavaException("IllegalArgumentException", "Illegal group reference");
          cursor++;
          while (cursor < replacement.length) {
            const digit = replacement.charCodeAt(cursor) - 0x30;
            if (digit < 0 || digit > 9) break;
            const newRefNum = refNum * 10 + digit;
            if (groupCount < newRefNum) break;
            refNum = newRefNum;
            cursor++;
          }
        }
        if (this.start(refNum) !== -1 && this.end(refNum) !== -1)
          out += this.text.slice(this.start(refNum), this.end(refNum));
      } else {
        out += replacement[cursor];
        cursor++;
      }
    }
    return out;
  }

  private appendReplacement(replacement: string): string {
    const expanded = this.expand(replacement);
    const out = this.text.slice(this.lastAppendPosition, this.state.first) + expanded;
    this.lastAppendPosition = this.state.last;
    return out;
  }

  replaceAll(replacement: string): string {
    this.reset();
    if (!this.find()) return this.text;
    let sb = "";
    do {
      sb += this.appendReplacement(replacement);
    } while (this.find());
    return sb + this.text.slice(this.lastAppendPosition);
  }

  replaceFirst(replacement: string): string {
    this.reset();
    if (!this.find()) return this.text;
    const sb = this.appendReplacement(replacement);
    return sb + this.text.slice(this.lastAppendPosition);
  }
}
