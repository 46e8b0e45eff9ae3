"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { useEffect, useState } from "react";

/**
 * Where a click or a submit leads when Next's router has taken it over (it calls
 * `preventDefault` to navigate client-side), or null: a new tab, a download, another
 * origin, a link the browser follows itself, or the page already shown (only a #hash
 * differs). Forms count only when marked `data-navigates` (GetForm: `next/form`); a link
 * whose own click handler changes the view in the page (the ACL list's pages, sort
 * headers, Refresh) is marked `data-in-page`.
 */
export function clientNavigationTarget(event: Event, here: URL): URL | null {
  if (!event.defaultPrevented) return null;
  let target: URL;
  if (event.type === "submit") {
    const form = event.target;
    if (
      !(form instanceof HTMLFormElement) ||
      !form.hasAttribute("data-navigates") ||
      form.method.toLowerCase() !== "get"
    )
      return null;
    target = new URL(form.action, here);
    const fields = new FormData(form, (event as SubmitEvent).submitter);
    target.search = new URLSearchParams(
      [...fields].filter((e): e is [string, string] => typeof e[1] === "string"),
    ).toString();
  } else {
    const mouse = event as MouseEvent;
    if (mouse.button !== 0 || mouse.metaKey || mouse.ctrlKey || mouse.shiftKey || mouse.altKey) return null;
    const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
    if (
      !(link instanceof HTMLAnchorElement) ||
      link.hasAttribute("data-in-page") ||
      (link.target !== "" && link.target !== "_self") ||
      link.hasAttribute("download")
    )
      return null;
    target = new URL(link.href, here);
  }
  if (target.origin !== here.origin) return null;
  return target.pathname === here.pathname && target.search === here.search ? null : target;
}

/**
 * A bar across the top while the console opens another page through a link or a GET form
 * (the server renders each page as the viewer, which takes as long as Kafka does). It
 * shows after a short moment (an instant navigation does not flash it) and goes when the
 * address has changed, i.e. the new page (or its error or not-found page) is on screen. Screen readers hear "Opening
 * the page…". Without JavaScript the browser's own loading indicator does this job.
 */
export function NavigationProgress() {
  const here = `${usePathname()}?${useSearchParams().toString()}`;
  // The address a navigation started from: the bar shows while the address is still that.
  const [from, setFrom] = useState<string | null>(null);
  if (from !== null && from !== here) setFrom(null);

  useEffect(() => {
    const start = (event: Event) => {
      if (clientNavigationTarget(event, new URL(window.location.href)) !== null) setFrom(here);
    };
    // On window, in the bubbling phase: after React's handlers (on the document) have run.
    window.addEventListener("click", start);
    window.addEventListener("submit", start);
    return () => {
      window.removeEventListener("click", start);
      window.removeEventListener("submit", start);
    };
  }, [here]);

  const pending = from === here;
  return (
    <div className="nav-progress" role="status" data-testid="nav-progress" data-pending={pending ? "yes" : undefined}>
      {pending && (
        <>
          <span className="sr-only">Opening the page…</span>
          <span className="nav-progress-bar" aria-hidden="true" />
        </>
      )}
    </div>
  );
}
