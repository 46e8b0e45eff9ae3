"use client";

import { BoundaryErrorView, type ErrorBoundaryProps } from "@/components/ui/error-view";

/** An unexpected failure of a console page, shown inside the console's frame. */
export default function ConsoleError(props: ErrorBoundaryProps) {
  return <BoundaryErrorView {...props} />;
}
