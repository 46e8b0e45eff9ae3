import type { HTMLAttributes, ReactNode } from "react";

export type Tone = "ok" | "bad" | "warn" | "info" | "neutral";

/** The existing badge colours (globals.css) by meaning. */
export const TONE_CLASS: Record<Tone, string> = {
  ok: "success",
  bad: "failure",
  warn: "partial",
  info: "info",
  neutral: "neutral",
};

export function Badge({
  tone = "neutral",
  children,
  className,
  ...rest
}: { tone?: Tone; children: ReactNode } & HTMLAttributes<HTMLSpanElement>) {
  return (
    <span className={["badge", TONE_CLASS[tone], className ?? ""].filter(Boolean).join(" ")} {...rest}>
      {children}
    </span>
  );
}

/** The tone of a Kafka permission or decision: ALLOW / ALLOWED green, DENY / DENIED red. */
export function decisionTone(value: string): Tone {
  return value === "ALLOW" || value === "ALLOWED" ? "ok" : "bad";
}
