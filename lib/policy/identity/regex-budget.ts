/**
 * One allowance of regex steps shared by every match of a piece of work (a request to the
 * console, one document of the policy CLI), so that many rules against many inputs cannot
 * add up to seconds of work: each match alone is bounded by MAX_STEPS (./java/regex/nodes.ts),
 * their sum by the budget. Spending past it throws RegexBudgetExceeded, which no mapping
 * function turns into a per-input result: the whole piece of work is refused.
 *
 * The policy core has no clock: a caller that also wants a time limit or to stop when its
 * client goes away passes `checkpoint`, called every CHECKPOINT_STEPS steps and before each
 * input is mapped; it throws RegexBudgetExceeded to stop.
 */

/** How often (in steps) the checkpoint runs: often enough to stop within a millisecond or so. */
export const CHECKPOINT_STEPS = 4096;

export class RegexBudgetExceeded extends Error {
  override readonly name = "RegexBudgetExceeded";
}

export class RegexBudget {
  /** Steps spent so far, over every match. */
  used = 0;

  constructor(
    readonly maxSteps: number,
    private readonly checkpoint: (() => void) | null = null,
    /** What the budget is for, in its message: "request", "document". */
    private readonly per = "request",
  ) {}

  /** One step of some match (MatchState.tick). */
  spend(): void {
    if (++this.used > this.maxSteps) {
      throw new RegexBudgetExceeded(
        `The mapping rules need more than ${this.maxSteps.toLocaleString("en-US")} regex steps for these ` +
          `inputs (the limit per ${this.per}, shared by every rule and input); simplify the rules or send fewer ` +
          `inputs.`,
      );
    }
    if (this.used % CHECKPOINT_STEPS === 0) this.checkpoint?.();
  }

  /** Runs the caller's checkpoint (before each input, and every CHECKPOINT_STEPS steps). */
  check(): void {
    this.checkpoint?.();
  }
}
