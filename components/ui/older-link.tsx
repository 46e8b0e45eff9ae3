import type { ReactNode } from "react";
import Link from "@/components/link";

/**
 * The link to a list's next, older page: the list's own filters (`params`) with the cursor its
 * answer gave. Nothing on the last page (no cursor).
 */
export function OlderLink({
  path,
  params,
  cursor,
  children,
}: {
  path: string;
  params: URLSearchParams;
  cursor: string | null | undefined;
  children: ReactNode;
}) {
  if (!cursor) return null;
  const next = new URLSearchParams(params);
  next.set("cursor", cursor);
  return (
    <p>
      <Link href={`${path}?${next}`}>{children} →</Link>
    </p>
  );
}
