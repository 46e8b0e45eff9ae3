"use client";

import Form from "next/form";
import type { ReactNode } from "react";
import { useClusterHref } from "@/components/cluster-address";

/**
 * A GET form (filters, "which quota applies"): the fields go into the address, so the
 * result can be bookmarked, reloaded, and survives a sign-in (the address is the `next`
 * the sign-in page returns to). With JavaScript it navigates client-side and its
 * `SubmitButton` shows the pending state until the new page has rendered (and
 * components/navigation-progress.tsx its bar: `data-navigates`); without, it is a plain GET
 * form. `scroll={false}` keeps the reader where the form is (a result shown beside it).
 */
export function GetForm({
  action,
  label,
  className,
  scroll,
  children,
}: {
  action: string;
  label: string;
  className?: string;
  scroll?: boolean;
  children: ReactNode;
}) {
  const clusterHref = useClusterHref(); // the page's cluster stays in the address (lib/cluster-path.ts)
  return (
    <Form
      action={clusterHref(action)}
      className={className}
      aria-label={label}
      scroll={scroll}
      noValidate
      data-navigates=""
    >
      {children}
    </Form>
  );
}
