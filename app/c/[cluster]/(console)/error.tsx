"use client";

import { ErrorView } from "@/components/ui/error-view";

/** An unexpected failure of a console page, shown inside the console's frame. */
export default function ConsoleError({
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
  return <ErrorView error={error} retry={retry ?? unstable_retry ?? reset} />;
}
