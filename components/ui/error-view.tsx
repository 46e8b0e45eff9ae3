"use client";

import Link from "@/components/link";

/**
 * What a person sees when a page fails unexpectedly: no message from the error and no
 * stack trace (they could carry internals), only the reference Next gives the error
 * (`digest`, the same one the server wrote to its log next to the real error), a way to
 * try again and a way out.
 */
export function ErrorView({ error, retry, home = true }: { error: unknown; retry?: () => void; home?: boolean }) {
  const digest =
    typeof error === "object" && error !== null && "digest" in error && typeof error.digest === "string"
      ? error.digest
      : null;
  return (
    <section className="state-page" aria-labelledby="error-title">
      <h1 id="error-title">Something went wrong</h1>
      <p>
        The console could not show this page. The problem has been logged on the server; trying again often helps when
        Kafka was briefly unavailable.
      </p>
      <p className="reference muted" data-testid="error-reference">
        {digest ? (
          <>
            Reference: <code>{digest}</code> (give it to whoever runs the console: it finds the error in the
            server&apos;s log)
          </>
        ) : (
          "No reference: the error happened in the browser."
        )}
      </p>
      <div className="row">
        {retry && (
          <button type="button" className="btn" onClick={() => retry()}>
            Try again
          </button>
        )}
        {home && (
          <Link className="btn secondary" href="/">
            Go to the start page
          </Link>
        )}
      </div>
    </section>
  );
}

/**
 * The props Next gives an error boundary (`error.tsx`, `global-error.tsx`): the error and the
 * function that renders the segment again, named `retry`, `unstable_retry` or `reset` by version.
 */
export interface ErrorBoundaryProps {
  error: unknown;
  retry?: () => void;
  unstable_retry?: () => void;
  reset?: () => void;
}

/** ErrorView from an error boundary's props, with whichever retry function Next gave. */
export function BoundaryErrorView({ error, retry, unstable_retry, reset }: ErrorBoundaryProps) {
  return <ErrorView error={error} retry={retry ?? unstable_retry ?? reset} />;
}
