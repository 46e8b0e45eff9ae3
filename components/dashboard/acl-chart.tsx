import type { AclPosture } from "@/lib/schemas/dashboard";
import { aclsHref } from "./links";
import styles from "./dashboard.module.css";

const ROW = 26;
const LABEL = 130;
const WIDTH = 460;
const BARS = WIDTH - LABEL - 80;

/**
 * ACLs by resource type, ALLOW and DENY side by side in one bar per type (inline SVG).
 * Each part of a bar is a link to the ACL list filtered to exactly those ACLs.
 */
export function AclChart({ byType }: { byType: AclPosture["byType"] }) {
  const max = Math.max(1, ...byType.map((t) => t.allow + t.deny));
  const scale = (n: number) => (n === 0 ? 0 : Math.max(2, (n / max) * BARS));
  return (
    <svg
      className={styles.chart}
      viewBox={`0 0 ${WIDTH} ${byType.length * ROW + 22}`}
      role="group"
      aria-label="ACLs by resource type and permission"
      data-testid="acl-chart"
    >
      {byType.map((t, i) => {
        const y = i * ROW;
        const allowW = scale(t.allow);
        const denyW = scale(t.deny);
        return (
          <g key={t.resourceType} transform={`translate(0 ${y})`}>
            <text x={LABEL - 8} y={16} textAnchor="end" className={styles.chartLabel}>
              {t.resourceType}
            </text>
            {t.allow > 0 && (
              <a
                href={aclsHref({ resourceType: t.resourceType, permissionType: "ALLOW" })}
                aria-label={`${t.allow} ALLOW ACLs on ${t.resourceType}`}
              >
                <title>{`${t.allow} ALLOW on ${t.resourceType}`}</title>
                <rect x={LABEL} y={4} width={allowW} height={16} rx={3} className={styles.allow} />
              </a>
            )}
            {t.deny > 0 && (
              <a
                href={aclsHref({ resourceType: t.resourceType, permissionType: "DENY" })}
                aria-label={`${t.deny} DENY ACLs on ${t.resourceType}`}
              >
                <title>{`${t.deny} DENY on ${t.resourceType}`}</title>
                <rect
                  x={LABEL + allowW + (allowW > 0 ? 1 : 0)}
                  y={4}
                  width={denyW}
                  height={16}
                  rx={3}
                  className={styles.deny}
                />
              </a>
            )}
            <text x={LABEL + allowW + denyW + 6} y={16} className={styles.chartValue}>
              {t.deny > 0 ? `${t.allow} + ${t.deny}` : String(t.allow)}
            </text>
          </g>
        );
      })}
      <g transform={`translate(${LABEL} ${byType.length * ROW + 6})`} aria-hidden="true">
        <rect width={10} height={10} rx={2} className={styles.allow} />
        <text x={14} y={9} className={styles.chartLabel}>
          ALLOW
        </text>
        <rect x={70} width={10} height={10} rx={2} className={styles.deny} />
        <text x={84} y={9} className={styles.chartLabel}>
          DENY
        </text>
      </g>
    </svg>
  );
}
