"use client";

// eslint-disable-next-line no-restricted-imports -- the one place next/link is used
import NextLink from "next/link";
import type { ComponentProps } from "react";
import { useClusterHref } from "./cluster-address";

/**
 * Next's Link, on the page's cluster: every link to a console page keeps the cluster of the
 * page it is on (`/c/<id>/…` with several clusters, lib/cluster-path.ts), so a tab stays on
 * its cluster whatever another tab does. Use it instead of next/link everywhere.
 */
export default function Link({ href, ...props }: ComponentProps<typeof NextLink> & { href: string }) {
  const clusterHref = useClusterHref();
  return <NextLink href={clusterHref(href)} {...props} />;
}
