"use client";

import { useQuery } from "@tanstack/react-query";
import { createColumnHelper, type Table } from "@tanstack/react-table";
import { useState } from "react";
import { fetchApi, ApiError } from "@/components/ui/query";
import { PrincipalLink } from "@/components/principals/decision-cell";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/skeleton";
import { SortableDataTable } from "@/components/ui/sortable-data-table";
import {
  NO_TOKEN_FILTER,
  expiryPhrase,
  formatRelative,
  matchesTokenFilter,
  tokenEndsAt,
  type TokenFilter,
} from "@/lib/services/token-view";
import type { TokenList as TokenListData, TokenView } from "@/lib/schemas/tokens";
import {
  TOKEN_REFETCH_MS,
  mayChangeExpiry,
  tokenKeys,
  whyNoExpiryChange,
  withKeptRows,
} from "@/components/tokens/token-queries";
import { TokenExpiryForms } from "./token-expiry-forms";

const iso = (at: number) => new Date(at).toISOString().replace(".000Z", "Z");

function When({ at, now }: { at: number; now: number }) {
  return (
    <>
      <div>{formatRelative(at, now)}</div>
      <div className="muted mono">{iso(at)}</div>
    </>
  );
}

/**
 * The tokens Kafka describes to the viewer, fetched again every 15 s (and when the tab
 * regains focus) while the page is open; the server's first answer shows at once. With a
 * `filter` (a dashboard number's), just the tokens it counted.
 */
export function TokenList({
  initial,
  initialError,
  viewer,
  filter = NO_TOKEN_FILTER,
}: {
  initial: TokenListData | null;
  initialError: string | null;
  viewer: string;
  filter?: TokenFilter;
}) {
  const query = useQuery({
    queryKey: tokenKeys.list(),
    queryFn: ({ signal }) => fetchApi<TokenListData>("/api/v1/tokens", signal),
    initialData: initial ?? undefined,
    initialDataUpdatedAt: initial ? initial.now : undefined,
    refetchInterval: TOKEN_REFETCH_MS,
  });
  // Tokens this page expired: kept in view with their outcome after Kafka drops them.
  const [kept, setKept] = useState<ReadonlyMap<string, TokenView>>(new Map());
  const data = query.data;
  const error = query.error instanceof ApiError ? query.error : null;

  if (!data) {
    if (initialError || error)
      return (
        <Alert tone="error" testId="tokens-error">
          {error?.message ?? initialError}
        </Alert>
      );
    return <Skeleton label="Loading the tokens" lines={0} table />;
  }
  const tokens = withKeptRows(data, kept).filter(
    (t) => kept.has(t.tokenId) || matchesTokenFilter(t, viewer, filter, data.now),
  );
  return (
    <>
      {error && (
        <Alert tone="warn" small testId="tokens-refresh-error">
          {error.sessionEnded
            ? "Your session has ended: sign in again to see changes. "
            : `Could not refresh the list: ${error.message} `}
          The list below is from {new Date(query.dataUpdatedAt).toLocaleTimeString()}.
        </Alert>
      )}
      {tokens.length === 0 ? (
        <EmptyState>
          {filter.role === null && filter.expiring === null
            ? "No delegation token you may see."
            : "No token of yours matches this filter."}
        </EmptyState>
      ) : (
        <TokenTable
          tokens={tokens}
          now={data.now}
          removed={kept}
          onExpired={(token) => setKept((m) => (m.has(token.tokenId) ? m : new Map(m).set(token.tokenId, token)))}
        />
      )}
      <p className="muted small-print" aria-live="off">
        Updated {new Date(query.dataUpdatedAt).toLocaleTimeString()} · refreshed every {TOKEN_REFETCH_MS / 1000} s
        {query.isFetching ? " · refreshing…" : ""}
      </p>
    </>
  );
}

const columns = createColumnHelper<TokenView>();

/**
 * The columns, each sortable in the browser (the whole list is here; it is refetched every
 * 15 s and keeps the chosen order). Cells need the answer's `now`, passed as table meta.
 */
const TOKEN_COLUMNS = [
  columns.accessor("tokenId", { header: "Token id", cell: (c) => <span className="mono">{c.getValue()}</span> }),
  columns.accessor("owner", { header: "Owner", cell: (c) => <PrincipalLink principal={c.getValue()} /> }),
  columns.accessor("requester", { header: "Requester", cell: (c) => <PrincipalLink principal={c.getValue()} /> }),
  columns.accessor((t) => t.renewers.join(", "), {
    id: "renewers",
    header: "Renewers",
    cell: ({ row }) =>
      row.original.renewers.length ? (
        row.original.renewers.map((r, i) => (
          <span key={r}>
            {i > 0 && ", "}
            <PrincipalLink principal={r} />
          </span>
        ))
      ) : (
        <span className="muted">none</span>
      ),
  }),
  columns.accessor("issueTimestamp", {
    header: "Issued",
    cell: (c) => <When at={c.getValue()} now={nowOf(c.table)} />,
  }),
  columns.accessor((t) => tokenEndsAt(t), {
    id: "expiry",
    header: "Expiry",
    cell: ({ row, table }) => (
      <>
        <div>{expiryPhrase(row.original, nowOf(table))}</div>
        <div className="muted mono">{iso(row.original.expiryTimestamp)}</div>
      </>
    ),
  }),
  columns.accessor("maxTimestamp", { header: "Max", cell: (c) => <When at={c.getValue()} now={nowOf(c.table)} /> }),
  columns.accessor("status", {
    header: "Status",
    cell: ({ row }) => {
      const why = whyNoExpiryChange(row.original);
      return (
        <>
          <Badge tone={row.original.status === "expired" ? "bad" : "ok"}>{row.original.status}</Badge>
          {why && <div className="muted">{why}</div>}
        </>
      );
    },
  }),
];

const nowOf = (table: Table<TokenView>) => (table.options.meta as { now: number }).now;

function TokenTable({
  tokens,
  now,
  removed,
  onExpired,
}: {
  tokens: TokenView[];
  now: number;
  removed: ReadonlyMap<string, TokenView>;
  onExpired: (t: TokenView) => void;
}) {
  return (
    <SortableDataTable
      label="Delegation tokens"
      columns={TOKEN_COLUMNS}
      rows={tokens}
      rowKey={(t) => t.tokenId}
      // Soonest to stop working first (also the order without JavaScript, which renders the same table).
      initialSorting={[{ id: "expiry", desc: false }]}
      meta={{ now }}
      rowProps={(t) => ({ "data-token-id": t.tokenId })}
      rowDetail={(t) =>
        (mayChangeExpiry(t) || removed.has(t.tokenId)) && (
          <details>
            <summary>Renew or expire {t.tokenId}</summary>
            <TokenExpiryForms tokenId={t.tokenId} onExpired={() => onExpired(t)} />
          </details>
        )
      }
    />
  );
}
