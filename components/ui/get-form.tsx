"use client";

import Form from "next/form";
import type { ReactNode } from "react";

/**
 * A GET form (filters, "which quota applies"): the fields go into the address, so the
 * result can be bookmarked, reloaded, and survives a sign-in (the address is the `next`
 * the sign-in page returns to). With JavaScript it navigates client-side and its
 * `SubmitButton` shows the pending state until the new page has rendered (and
 * components/navigation-progress.tsx its bar: `data-navigates`); without, it is a plain GET
 * form. `scroll={false}` keeps the reader where the form is (a result shown beside it).
 */
export function GetForm({ action, label, className, scroll, children }: { action: string; label: string; className?: string; scroll?: boolean; children: ReactNode }) {
  return (
    <Form action={action} className={className} aria-label={label} scroll={scroll} noValidate data-navigates="">
      {children}
    </Form>
  );
}
