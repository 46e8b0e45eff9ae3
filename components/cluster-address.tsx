"use client";

import { createContext, useCallback, useContext, type ReactNode } from "react";
import { withClusterPrefix } from "@/lib/cluster-path";

/**
 * The cluster the page's address names (lib/cluster-path.ts), for links and in-page
 * addresses made in the browser: null with a single cluster, whose addresses carry none.
 * The console's layout provides it; outside it (the sign-in page) nothing is prefixed.
 */
const ClusterAddressContext = createContext<string | null>(null);

export function ClusterAddressProvider({ clusterId, children }: { clusterId: string | null; children: ReactNode }) {
  return <ClusterAddressContext.Provider value={clusterId}>{children}</ClusterAddressContext.Provider>;
}

/**
 * A function giving a console page's address on this page's cluster: `/acls` becomes `/c/<id>/acls` with several
 * clusters.
 */
export function useClusterHref(): (path: string) => string {
  const clusterId = useContext(ClusterAddressContext);
  return useCallback((path: string) => withClusterPrefix(clusterId, path), [clusterId]);
}
