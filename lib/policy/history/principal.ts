/**
 * What changed in a principal's access between two instants (#20, docs/history.md): every
 * decision the principal gained or lost, each with the change set that caused it.
 *
 * A decision here is the principal page's: for a resource pattern (type, pattern type, name)
 * and an operation, the answer `authorizePattern` gives for a name the pattern covers that no
 * narrower ACL names (a LITERAL name is itself). The patterns looked at are those of the
 * principal's and `User:*`'s ACLs before or after each change set, plus, while
 * allow.everyone.if.no.acl.found holds, the patterns of every ACL the change set touches (the
 * first ACL on a resource takes the default away from everyone). Super user status, from the
 * journalled `super.users`, is its own line.
 *
 * Which ACLs decide: with allow.everyone.if.no.acl.found false, only ACLs naming the principal
 * or `User:*` can change its answers (a DENY or ALLOW of someone else never matches it), so a
 * caller may pass a state and entries holding only those ACLs and the settings (`bearsOn`). With
 * it true, whether a resource has any ACL at all decides too, and the whole state is needed:
 * `needsWholeState` says when.
 *
 * Entries are applied in id order, grouped into change sets: one console change (its audit row)
 * or one read's outside changes (the same window and origin).
 */
import { WILDCARD_PRINCIPAL, type AclBinding, type AclOperation, type PatternType, type ResourceType } from "../types";
import { AclIndex } from "../acl/acl-index";
import { authorizePattern, representativeName } from "../acl/effective";
import { isSuperUser } from "../acl/authorize";
import type { AuthorizerConfig, Decision, MatchingRule } from "../acl/model";
import { SUPPORTED_OPERATIONS } from "../acl/operations";
import { parseKey, settingKey } from "./keys";
import { authorizerConfigOf, isSettingKey, type Entry, type State } from "./state";
import type { Json } from "./keys";

/** An entry with what the journal keeps beside it (audit row for a console change). */
export interface CausingEntry extends Entry {
  auditId?: string | null;
  planId?: string | null;
  actor?: string | null;
}

export interface DecisionAnswer {
  decision: Decision;
  rule: MatchingRule;
}

export interface AccessChange {
  resourceType: ResourceType;
  patternType: PatternType;
  resourceName: string;
  operation: AclOperation;
  change: "gained" | "lost";
  before: DecisionAnswer;
  after: DecisionAnswer;
}

export interface AccessChangeStep<E extends CausingEntry = CausingEntry> {
  /** The change set: its entries (those bearing on the principal), in id order. */
  entries: E[];
  /** Whether the principal became, or stopped being, a super user. */
  superUser: "gained" | "lost" | null;
  /** Every decision that flipped, by resource pattern then operation. */
  decisions: AccessChange[];
}

export interface PrincipalChangesInput<E extends CausingEntry> {
  principal: string;
  /** A client address; without one, only `*`-host ACLs count (as the principal page). */
  host?: string;
  /** The state at the first instant (or the part of it that bears on the principal: `bearsOn`). */
  state: State;
  /** The entries after it up to the second instant, in id order. */
  entries: readonly E[];
}

/** Whether a journal key can change the principal's answers while allow.everyone.if.no.acl.found is false. */
export function bearsOn(key: string, principal: string): boolean {
  if (key.startsWith('["setting"')) return isSettingKey(key);
  if (!key.startsWith('["acl"')) return false;
  // Most keys name neither: the principal's JSON text is not in them (no parse needed).
  if (!key.includes('"User:*"') && !key.includes(JSON.stringify(principal))) return false;
  const p = parseKey(key);
  return p.kind === "acl" && (p.binding.principal === principal || p.binding.principal === WILDCARD_PRINCIPAL);
}

const ALLOW_EVERYONE = settingKey("allowEveryoneIfNoAclFound");

/** Whether allow.everyone.if.no.acl.found holds at the start or is set by an entry: the whole state then decides. */
export function needsWholeState(state: State, entries: readonly Entry[]): boolean {
  if (state.get(ALLOW_EVERYONE) === true) return true;
  return entries.some((e) => e.key === ALLOW_EVERYONE && e.op === "appeared" && e.value === true);
}

const patternKey = (type: ResourceType, patternType: PatternType, name: string) =>
  `${type}\u0000${patternType}\u0000${name}`;

interface Pattern {
  resourceType: ResourceType;
  patternType: PatternType;
  resourceName: string;
}

/** Whether an ACL can apply to a name the pattern stands for (so its change can change the pattern's answers). */
function applies(acl: AclBinding, p: Pattern): boolean {
  if (acl.resourceType !== p.resourceType) return false;
  const name = representativeName(p.patternType, p.resourceName);
  if (acl.patternType === "LITERAL") return acl.resourceName === "*" || acl.resourceName === name;
  return name.startsWith(acl.resourceName);
}

function groupKey(e: CausingEntry): string {
  return e.auditId ? `audit\u0000${e.auditId}` : `${e.origin}\u0000${e.from}\u0000${e.to}`;
}

/** The change sets of the entries (consecutive entries of one audit row, or of one read). */
function changeSets<E extends CausingEntry>(entries: readonly E[]): E[][] {
  const sets: E[][] = [];
  let key: string | null = null;
  for (const e of [...entries].sort((a, b) => a.id - b.id)) {
    const k = groupKey(e);
    if (k !== key || sets.length === 0) sets.push([]);
    sets[sets.length - 1]!.push(e);
    key = k;
  }
  return sets;
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const toPattern = (p: Pattern): Pattern => ({
  resourceType: p.resourceType,
  patternType: p.patternType,
  resourceName: p.resourceName,
});

/** Where an ACL can apply: a LITERAL name (`*` included) or a prefix, per resource type. */
const slotOf = (b: AclBinding) =>
  `${b.resourceType}\u0000${b.patternType === "PREFIXED" ? "P" : "L"}\u0000${b.resourceName}`;

class PrincipalView {
  /** ACLs by key, and by where they apply (slotOf). */
  private readonly acls = new Map<string, AclBinding>();
  private readonly bySlot = new Map<string, Map<string, AclBinding>>();
  /** The principal's and `User:*`'s patterns per resource type, with how many of their ACLs each has. */
  private readonly own = new Map<ResourceType, Map<string, { pattern: Pattern; acls: number }>>();
  private readonly settings = new Map<string, Json>();
  config: AuthorizerConfig = {};

  constructor(
    private readonly principal: string,
    state: State,
  ) {
    for (const [key, value] of state) this.set(key, value);
    this.config = authorizerConfigOf(this.settings);
  }

  /** The value `key` has now (undefined: absent). */
  get(key: string): Json | undefined {
    if (key.startsWith('["setting"')) return this.settings.get(key);
    return this.acls.has(key) ? true : undefined;
  }

  /** Sets `key` to `value` (undefined: removes it). Keys other than ACLs and settings play no part. */
  set(key: string, value: Json | undefined): void {
    if (key.startsWith('["setting"')) {
      if (value === undefined) this.settings.delete(key);
      else this.settings.set(key, value);
      this.config = authorizerConfigOf(this.settings);
      return;
    }
    if (!key.startsWith('["acl"')) return;
    const had = this.acls.get(key);
    if (value === undefined) {
      if (had === undefined) return;
      this.acls.delete(key);
      this.bySlot.get(slotOf(had))?.delete(key);
      if (this.isOwn(had)) {
        const byType = this.own.get(had.resourceType)!;
        const pk = patternKey(had.resourceType, had.patternType, had.resourceName);
        const slot = byType.get(pk)!;
        if (--slot.acls === 0) byType.delete(pk);
      }
      return;
    }
    if (had !== undefined) return;
    const p = parseKey(key);
    if (p.kind !== "acl") return;
    const b = p.binding;
    this.acls.set(key, b);
    const slot = slotOf(b);
    let m = this.bySlot.get(slot);
    if (m === undefined) this.bySlot.set(slot, (m = new Map<string, AclBinding>()));
    m.set(key, b);
    if (this.isOwn(b)) {
      let byType = this.own.get(b.resourceType);
      if (byType === undefined)
        this.own.set(b.resourceType, (byType = new Map<string, { pattern: Pattern; acls: number }>()));
      const pk = patternKey(b.resourceType, b.patternType, b.resourceName);
      const slot = byType.get(pk);
      if (slot === undefined) byType.set(pk, { pattern: toPattern(b), acls: 1 });
      else slot.acls += 1;
    }
  }

  private isOwn(b: AclBinding): boolean {
    return b.principal === this.principal || b.principal === WILDCARD_PRINCIPAL;
  }

  /**
   * The principal's and `User:*`'s patterns (all of them, or only those one of `touched` applies to),
   * added to `into` by pattern key.
   */
  ownPatterns(into: Map<string, Pattern>, touched: readonly AclBinding[] | "all"): void {
    if (touched === "all") {
      for (const byType of this.own.values()) for (const [k, { pattern }] of byType) into.set(k, pattern);
      return;
    }
    for (const b of touched) {
      const byType = this.own.get(b.resourceType);
      if (byType === undefined) continue;
      if (b.patternType === "LITERAL" && b.resourceName !== "*") {
        const k = patternKey(b.resourceType, "LITERAL", b.resourceName);
        const slot = byType.get(k);
        if (slot !== undefined) into.set(k, slot.pattern);
      } else for (const [k, { pattern }] of byType) if (applies(b, pattern)) into.set(k, pattern);
    }
  }

  /** The ACLs that can apply to a name the pattern stands for. */
  private applicable(p: Pattern, into: Map<string, AclBinding>): void {
    const name = representativeName(p.patternType, p.resourceName);
    const add = (slot: string) => {
      for (const [k, b] of this.bySlot.get(slot) ?? []) into.set(k, b);
    };
    add(`${p.resourceType}\u0000L\u0000${name}`);
    add(`${p.resourceType}\u0000L\u0000*`);
    for (let i = 1; i <= name.length; i++) add(`${p.resourceType}\u0000P\u0000${name.slice(0, i)}`);
  }

  /** The answers for each pattern's operations, from the ACLs that can apply to them. */
  answers(patterns: readonly Pattern[], host: string): Map<string, DecisionAnswer> {
    const relevant = new Map<string, AclBinding>();
    for (const p of patterns) this.applicable(p, relevant);
    const index = AclIndex.build([...relevant.keys()].sort(cmp).map((k) => relevant.get(k)!));
    const out = new Map<string, DecisionAnswer>();
    for (const p of patterns)
      for (const operation of SUPPORTED_OPERATIONS[p.resourceType]) {
        const { decision, rule } = authorizePattern(
          index,
          { principal: this.principal, host, operation, ...p },
          this.config,
        );
        out.set(`${patternKey(p.resourceType, p.patternType, p.resourceName)}\u0000${operation}`, { decision, rule });
      }
    return out;
  }
}

/** A host no ACL names: only `*`-host ACLs match it (as effective.ts). */
const UNSPECIFIED_HOST = "\u0000";

/** Every decision gained or lost, per change set (see the module comment). */
export function principalChanges<E extends CausingEntry>(input: PrincipalChangesInput<E>): AccessChangeStep<E>[] {
  const { principal } = input;
  const host = input.host ?? UNSPECIFIED_HOST;
  const view = new PrincipalView(principal, input.state);
  const steps: AccessChangeStep<E>[] = [];
  for (const set of changeSets(input.entries)) {
    const beforeConfig = view.config;
    const prior = new Map<string, Json | undefined>();
    for (const e of set) if (!prior.has(e.key)) prior.set(e.key, view.get(e.key));
    const touched: AclBinding[] = [];
    let settingsChanged = false;
    for (const e of set) {
      if (e.key.startsWith('["setting"')) settingsChanged = true;
      if (!e.key.startsWith('["acl"')) continue;
      const p = parseKey(e.key);
      if (p.kind === "acl") touched.push(p.binding);
    }
    // The patterns asked: the principal's own (before or after) that a changed ACL applies to (all of
    // them when a setting changed), and while the default lets everyone in, every pattern the change
    // set touches. No other answer can change.
    const patterns = new Map<string, Pattern>();
    view.ownPatterns(patterns, settingsChanged ? "all" : touched);
    for (const e of set) view.set(e.key, e.op === "appeared" ? e.value : undefined);
    view.ownPatterns(patterns, settingsChanged ? "all" : touched);
    const afterConfig = view.config;
    const afterValues = new Map([...prior.keys()].map((k) => [k, view.get(k)]));
    const open = beforeConfig.allowEveryoneIfNoAclFound === true || afterConfig.allowEveryoneIfNoAclFound === true;
    if (open)
      for (const b of touched) patterns.set(patternKey(b.resourceType, b.patternType, b.resourceName), toPattern(b));
    const asked = [...patterns.values()];
    const after = view.answers(asked, host);
    for (const [k, v] of prior) view.set(k, v);
    const before = view.answers(asked, host);
    for (const [k, v] of afterValues) view.set(k, v);

    const decisions: AccessChange[] = [];
    for (const p of asked)
      for (const operation of SUPPORTED_OPERATIONS[p.resourceType]) {
        const k = `${patternKey(p.resourceType, p.patternType, p.resourceName)}\u0000${operation}`;
        const b = before.get(k)!;
        const a = after.get(k)!;
        if (b.decision !== a.decision)
          decisions.push({
            ...p,
            operation,
            change: a.decision === "ALLOWED" ? "gained" : "lost",
            before: b,
            after: a,
          });
      }
    decisions.sort(
      (x, y) =>
        cmp(x.resourceType, y.resourceType) ||
        cmp(x.patternType, y.patternType) ||
        cmp(x.resourceName, y.resourceName) ||
        cmp(x.operation, y.operation),
    );
    const superBefore = isSuperUser(principal, beforeConfig);
    const superAfter = isSuperUser(principal, afterConfig);
    const superUser = superBefore === superAfter ? null : superAfter ? "gained" : "lost";
    if (decisions.length > 0 || superUser !== null) steps.push({ entries: set, superUser, decisions });
  }
  return steps;
}
