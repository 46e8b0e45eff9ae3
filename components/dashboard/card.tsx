/** The pieces every dashboard card is made of: the card, its row of numbers that link, a card Kafka refused. */
import type { ReactNode } from "react";
import Link from "@/components/link";
import { Alert } from "@/components/ui/alert";
import type { DashboardCard } from "@/lib/schemas/dashboard";
import styles from "./dashboard.module.css";

export interface StatProps {
  label: ReactNode;
  value: number;
  href: string;
  testId: string;
  tone?: "bad" | "warn";
}

/** A number that leads to the list behind it. */
function Stat({ label, value, href, testId, tone }: StatProps) {
  return (
    <Link href={href} className={`${styles.stat} ${tone && value > 0 ? styles[tone] : ""}`} data-testid={testId}>
      <span className={styles.statValue}>{value.toLocaleString("en")}</span>
      <span className={styles.statLabel}>{label}</span>
    </Link>
  );
}

/** A Stat's props in the order of a card's list: test id, label, value, link and tone. */
export function stat(
  testId: string,
  label: ReactNode,
  value: number,
  href: string,
  tone?: StatProps["tone"],
): StatProps {
  return { label, value, href, testId, tone };
}

/** A card's row of numbers. */
function Stats({ stats }: { stats: StatProps[] }) {
  return (
    <div className={styles.stats}>
      {stats.map((stat) => (
        <Stat key={stat.testId} {...stat} />
      ))}
    </div>
  );
}

export function Card({
  title,
  id,
  children,
  footer,
}: {
  title: string;
  id: string;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <section className={`card ${styles.card}`} aria-labelledby={`${id}-title`} data-testid={`card-${id}`}>
      <h2 id={`${id}-title`} className={styles.cardTitle}>
        {title}
      </h2>
      {children}
      {footer !== undefined && <div className={styles.cardFooter}>{footer}</div>}
    </section>
  );
}

/**
 * A card of what Kafka answered: its `stats` row, then `children`; when Kafka refused or could
 * not answer, the card says why instead (test id `${id}-unavailable` unless `unavailableTestId`).
 */
export function DataCard<T>(props: {
  title: string;
  id: string;
  card: DashboardCard<T>;
  footer?: ReactNode;
  unavailableTestId?: string;
  stats?: (data: T) => StatProps[];
  children: (data: T) => ReactNode;
}) {
  const { title, id, card, footer, unavailableTestId = `${id}-unavailable`, stats, children } = props;
  return (
    <Card title={title} id={id} footer={footer}>
      {card.ok ? (
        <>
          {stats && <Stats stats={stats(card.data)} />}
          {children(card.data)}
        </>
      ) : (
        <Alert tone={card.code === "DENIED" ? "info" : "error"} testId={unavailableTestId}>
          {card.message}
        </Alert>
      )}
    </Card>
  );
}
