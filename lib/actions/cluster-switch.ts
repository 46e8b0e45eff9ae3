"use server";

import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import {
  CLUSTER_COOKIE,
  clusterHref,
  clusterHrefOn,
  sessionCookieName,
  sessionCookieOptions,
} from "@/lib/auth/current";
import { PAGE_PATH_HEADER } from "@/lib/auth/page-path";
import { safeNextPath } from "@/lib/auth/safe-next";
import { splitClusterPath } from "@/lib/cluster-path";
import { findCluster } from "@/lib/clusters";

/**
 * The shell's cluster switcher: the same page on `cluster` (`/c/<id>/…`) when the browser
 * has a session there, else that cluster's sign-in, which returns to it (the other
 * clusters' sessions stay). The cluster chosen is remembered for addresses that name none.
 *
 * Here, not beside the sign-in page, because components/cluster-switcher.tsx uses it and
 * components may not import from app/ (the layer rule in eslint.config.js).
 */
export async function switchClusterAction(formData: FormData): Promise<void> {
  const clusterId = String(formData.get("cluster") ?? "");
  if (!findCluster(clusterId)) redirect(await clusterHref("/"));
  const jar = await cookies();
  jar.set(CLUSTER_COOKIE, clusterId, sessionCookieOptions(new Date(Date.now() + 365 * 86_400_000)));
  const here = splitClusterPath(safeNextPath((await headers()).get(PAGE_PATH_HEADER))).rest;
  const there = clusterHrefOn(clusterId, here);
  if (jar.has(sessionCookieName(clusterId))) redirect(there);
  const params = new URLSearchParams({ cluster: clusterId });
  if (there !== "/") params.set("next", there);
  redirect(`/sign-in?${params}`);
}
