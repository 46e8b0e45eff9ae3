import type { ReactNode } from "react";
import type { Metadata, Viewport } from "next";
import { connection } from "next/server";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Kafka Security Console", template: "%s · Kafka Security Console" },
  // Files in public/ (served without a session: proxy.ts leaves them alone).
  icons: {
    icon: [
      { url: "/favicon.ico", sizes: "16x16 32x32 48x48" },
      { url: "/icons/icon.svg", type: "image/svg+xml" },
    ],
    apple: { url: "/icons/apple-icon.png", sizes: "180x180" },
  },
};

export const viewport: Viewport = { width: "device-width", initialScale: 1, themeColor: "#17202c" };

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
