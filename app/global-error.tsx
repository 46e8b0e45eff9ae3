"use client";

import "./globals.css";
import { BoundaryErrorView, type ErrorBoundaryProps } from "@/components/ui/error-view";

/** A failure of the root layout itself: replaces the whole document, so it brings its own. */
export default function GlobalError(props: ErrorBoundaryProps) {
  return (
    <html lang="en">
      <body>
        <title>Something went wrong · Kafka Security Console</title>
        <main className="signin-wrap">
          <div className="card">
            <BoundaryErrorView {...props} />
          </div>
        </main>
      </body>
    </html>
  );
}
