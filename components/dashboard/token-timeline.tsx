import { formatRelative } from "@/lib/services/token-view";
import type { TokenPosture } from "@/lib/schemas/dashboard";
import styles from "./dashboard.module.css";

const WIDTH = 560;
const LEFT = 84;
const RIGHT = 60;
const DAY = 86_400_000;
const SPAN = 7 * DAY;

/**
 * The viewer's tokens on the next seven days (inline SVG): a dot per token at the moment
 * it expires, the first 24 hours shaded; expired tokens at the left edge, later ones at the
 * right. Every dot links to the token list.
 */
export function TokenTimeline({ posture }: { posture: TokenPosture }) {
  const { now, tokens } = posture;
  const axis = WIDTH - LEFT - RIGHT;
  const x = (at: number) =>
    at < now ? LEFT - 48 : at > now + SPAN ? WIDTH - RIGHT + 32 : LEFT + ((at - now) / SPAN) * axis;
  // Tokens expiring at nearly the same moment are stacked, not drawn over each other.
  const placed: { x: number; row: number }[] = [];
  const rowOf = (px: number) => {
    let row = 0;
    while (placed.some((p) => p.row === row && Math.abs(p.x - px) < 9)) row++;
    placed.push({ x: px, row });
    return Math.min(row, 3);
  };
  return (
    <svg
      className={styles.timeline}
      viewBox={`0 0 ${WIDTH} 78`}
      role="group"
      aria-label="When your tokens expire, over the next 7 days"
      data-testid="token-timeline"
    >
      <rect x={LEFT} y={8} width={axis / 7} height={44} className={styles.soon} />
      <line x1={LEFT} x2={WIDTH - RIGHT} y1={52} y2={52} className={styles.axis} />
      {Array.from({ length: 8 }, (_, d) => (
        <g key={d} transform={`translate(${LEFT + (d / 7) * axis} 0)`}>
          <line y1={50} y2={56} className={styles.axis} />
          <text y={70} textAnchor="middle" className={styles.chartLabel}>
            {d === 0 ? "now" : `${d} d`}
          </text>
        </g>
      ))}
      <text x={LEFT - 48} y={70} textAnchor="middle" className={styles.chartLabel}>
        expired
      </text>
      <text x={WIDTH - RIGHT + 32} y={70} textAnchor="middle" className={styles.chartLabel}>
        later
      </text>
      {tokens.map((t) => {
        const px = x(t.expiresAt);
        const row = rowOf(px);
        const when =
          t.expiresAt < now
            ? `expired ${formatRelative(t.expiresAt, now)}`
            : `expires ${formatRelative(t.expiresAt, now)}`;
        const label = `${t.tokenId} (${t.role === "owner" ? "yours" : `${t.owner}'s, you renew it`}) ${when}`;
        const tone =
          t.expiresAt < now
            ? styles.expired
            : t.expiresAt - now <= DAY
              ? styles.urgent
              : t.expiresAt - now <= SPAN
                ? styles.week
                : styles.later;
        return (
          <a key={t.tokenId} href="/tokens" aria-label={label}>
            <title>{label}</title>
            <circle cx={px} cy={42 - row * 10} r={5} className={tone} />
          </a>
        );
      })}
    </svg>
  );
}
