import type { ReactNode } from "react";
import { connection } from "next/server";
import "./globals.css";

export const metadata = { title: { default: "Kafka Security Console", template: "%s · Kafka Security Console" } };

/**
 * Every page renders per request: the Content-Security-Policy that proxy.ts sets carries
 * a fresh nonce, and Next can only put that nonce on its scripts while rendering. A page
 * prerendered at build time would have scripts without it, which the policy blocks.
 */
export default async function RootLayout({ children }: { children: ReactNode }) {
  await connection();
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
