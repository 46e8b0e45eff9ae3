"use client";

import { useEffect, useRef, type ReactNode } from "react";

/**
 * One operation of the API reference, folded to its summary line so the page is a list of
 * operations rather than one very long page. It opens when clicked, and when the address
 * names it (`#<operation id>`, e.g. from the table of contents or a shared link).
 */
export function OperationDetails({
  id,
  className,
  summary,
  children,
}: {
  id: string;
  className?: string;
  summary: ReactNode;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const openIfNamed = () => {
      if (ref.current && decodeURIComponent(window.location.hash.slice(1)) === id) {
        ref.current.open = true;
        ref.current.scrollIntoView();
      }
    };
    openIfNamed();
    window.addEventListener("hashchange", openIfNamed);
    return () => window.removeEventListener("hashchange", openIfNamed);
  }, [id]);
  return (
    <details ref={ref} className={className}>
      <summary>{summary}</summary>
      {children}
    </details>
  );
}
