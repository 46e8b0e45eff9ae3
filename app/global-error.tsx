"use client";

import "./globals.css";
import { ErrorView } from "@/components/ui/error-view";

/** A failure of the root layout itself: replaces the whole document, so it brings its own. */
export default function GlobalError({
  error,
  retry,
  unstable_retry,
  reset,
}: {
  error: unknown;
  retry?: () => void;
  unstable_retry?: () => void;
  reset?: () => void;
}) {
  return (
    <html lang="en">
      <body>
        <title>Something went wrong · Kafka Security Console</title>
        <main className="signin-wrap">
          <div className="card">
            <ErrorView error={error} retry={retry ?? unstable_retry ?? reset} />
          </div>
        </main>
      </body>
    </html>
  );
}
