import type { ReactNode } from "react";
import "./globals.css";

export const metadata = { title: { default: "Kafka Security Console", template: "%s · Kafka Security Console" } };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
