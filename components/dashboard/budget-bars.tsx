import type { BudgetBar } from "@/lib/schemas/dashboard";
import { quotaUserHref } from "./links";
import styles from "./dashboard.module.css";

/** One bar per (user, key) with client sub-quotas: their sum against the user's total (KIP-55). */
export function BudgetBars({ bars }: { bars: readonly BudgetBar[] }) {
  return (
    <ul className={styles.bars} aria-label="KIP-55 budgets">
      {bars.map((b) => {
        const percent = b.usedPercent === null ? null : Math.round(b.usedPercent);
        return (
          <li key={`${b.label}|${b.key}`} data-user={b.label} data-key={b.key} data-over={b.overBudget ? "yes" : "no"}>
            <a href={quotaUserHref(b.user)} className={styles.barLabel}>
              <span className="mono">{b.label}</span> <span className="muted mono">{b.key}</span>
            </a>
            <div
              className={`${styles.bar} ${b.overBudget ? styles.barOver : ""}`}
              role="meter"
              aria-label={`${b.label} ${b.key}: sub-quotas ${b.sumDisplay} of ${b.totalDisplay}`}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={percent === null ? 0 : Math.min(percent, 100)}
            >
              <span style={{ width: `${percent === null ? 0 : Math.min(percent, 100)}%` }} />
            </div>
            <span className={styles.barText}>
              {b.sumDisplay} of {b.totalDisplay}
              {percent !== null && ` (${percent}%)`}
              {b.overBudget && <strong className={styles.overText}> over budget</strong>}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
