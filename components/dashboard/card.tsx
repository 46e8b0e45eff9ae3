/** The pieces every dashboard card is made of: the card, a number that links, a card Kafka refused. */
import type { ReactNode } from "react";
import Link from "@/components/link";
import { Alert } from "@/components/ui/alert";
import type { DashboardCard } from "@/lib/schemas/dashboard";
import styles from "./dashboard.module.css";

/** A number that leads to the list behind it. */
export function Stat({
  label,
  value,
  href,
  testId,
  tone,
}: {
  label: ReactNode;
  value: number;
  href: string;
  testId: string;
  tone?: "bad" | "warn";
}) {
  return (
    <Link href={href} className={`${styles.stat} ${tone && value > 0 ? styles[tone] : ""}`} data-testid={testId}>
      <span className={styles.statValue}>{value.toLocaleString("en")}</span>
      <span className={styles.statLabel}>{label}</span>
    </Link>
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

/** A card Kafka refused or could not answer: what it would show and why it does not. */
export function Unavailable({
  card,
  testId,
}: {
  card: Extract<DashboardCard<unknown>, { ok: false }>;
  testId: string;
}) {
  return (
    <Alert tone={card.code === "DENIED" ? "info" : "error"} testId={testId}>
      {card.message}
    </Alert>
  );
}
