"use client";

import { useQuery } from "@tanstack/react-query";
import { fetchApi } from "@/components/ui/query";
import type { Dashboard } from "@/lib/schemas/dashboard";
import { DashboardCards } from "./dashboard-cards";
import styles from "./dashboard.module.css";

/** TanStack Query keys of the dashboard (one factory, never inline keys). */
export const dashboardKeys = {
  all: ["dashboard"] as const,
  view: (lint: boolean) => [...dashboardKeys.all, { lint }] as const,
};

/** How often the cards are fetched again while the page is open. */
export const DASHBOARD_REFETCH_MS = 30_000;

/**
 * The dashboard as the server rendered it (the first paint, and all there is without
 * JavaScript), then kept fresh from GET /api/v1/dashboard while the page is open.
 */
export function DashboardLive({ initial, lint }: { initial: Dashboard; lint: boolean }) {
  const query = useQuery({
    queryKey: dashboardKeys.view(lint),
    queryFn: ({ signal }) => fetchApi<Dashboard>(lint ? "/api/v1/dashboard?lint=1" : "/api/v1/dashboard", signal),
    initialData: initial,
    initialDataUpdatedAt: Date.parse(initial.generatedAt),
    refetchInterval: DASHBOARD_REFETCH_MS,
  });
  return (
    <>
      <p className={styles.updated} aria-live="polite" data-testid="dashboard-updated">
        As of {query.data.generatedAt.replace("T", " ").slice(0, 19)} UTC{query.isFetching ? " · updating…" : ""}
        {query.isError && " · the last refresh failed; showing the previous numbers"}
      </p>
      <DashboardCards data={query.data} lintHref="/?lint=1" />
    </>
  );
}
