"use client";

import Link from "@/components/link";
import { useQuery } from "@tanstack/react-query";
import { fetchApi } from "@/components/ui/query";
import { Badge } from "@/components/ui/badge";
import type { TokenRequestLists } from "@/lib/schemas/tokens";
import { TOKEN_REFETCH_MS, decisionsWaiting, tokenKeys } from "./token-queries";

/**
 * "N token requests wait for you": requests the viewer may approve or deny, fetched
 * again while the page is open. Nothing while none wait (or the count is unknown).
 */
export function PendingRequestsBadge({ initial }: { initial: number | null }) {
  const query = useQuery({
    queryKey: tokenKeys.requests(),
    queryFn: ({ signal }) => fetchApi<TokenRequestLists>("/api/v1/token-requests", signal),
    select: decisionsWaiting,
    refetchInterval: TOKEN_REFETCH_MS,
  });
  const count = query.data ?? initial;
  if (!count) return null;
  return (
    <Link href="/token-requests" className="badge-link" data-testid="pending-requests">
      <Badge tone="warn">
        {count} token request{count === 1 ? "" : "s"} wait{count === 1 ? "s" : ""} for your decision
      </Badge>
    </Link>
  );
}
