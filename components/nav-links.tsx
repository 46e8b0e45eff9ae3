"use client";

import { useLinkStatus } from "next/link";
import Link from "@/components/link";
import { Badge } from "@/components/ui/badge";
import { splitClusterPath } from "@/lib/cluster-path";
import { usePathname } from "next/navigation";
import { useEffect, useRef } from "react";

/**
 * The console's areas, in the sidebar's order. Only pages that exist are listed
 * (components/nav-links.test.ts checks each has a page). To add an area, add one line
 * here, e.g. `"/identities": "Identities"`, where it belongs.
 */
const AREA_LABELS: Record<string, string> = {
  "/": "Dashboard",
  "/resources": "Resources",
  "/acls": "ACLs",
  "/access-check": "Access check",
  "/principals": "Principals",
  "/identities": "Identities",
  "/quotas": "Quotas",
  "/tokens": "Tokens",
  "/token-requests": "Token requests",
  "/requests": "Requests",
  "/users": "SCRAM users",
  "/audit": "Audit",
  "/drift": "Drift",
  "/webhook": "Notifications",
};

export const AREAS = Object.entries(AREA_LABELS).map(([href, label]) => ({ href, label }));

/** Whether `href` is the area `pathname` is in ("/" only for itself; "/acls" for "/acls/new"). */
export function isCurrentArea(href: string, address: string): boolean {
  const pathname = splitClusterPath(address).rest; // /c/<id>/acls is the ACLs area too
  return href === "/" ? pathname === "/" : pathname === href || pathname.startsWith(`${href}/`);
}

/** A small spinner beside the link being opened, until its page has rendered. */
function Pending() {
  const { pending } = useLinkStatus();
  return <span aria-hidden="true" className={pending ? "nav-pending is-pending" : "nav-pending"} />;
}

const WIDE = "(min-width: 761px)";

/** `pending`: requests waiting for a decision, shown as a badge beside Requests. */
export function NavLinks({ pending = 0 }: { pending?: number }) {
  const pathname = usePathname();
  const navRef = useRef<HTMLElement>(null);

  // The menu is a <details> (it works without JavaScript). On wide screens CSS shows it
  // open; here it is also opened for real, so browsers without ::details-content show it
  // and assistive technology reads it as expanded.
  useEffect(() => {
    const details = navRef.current?.closest("details");
    if (!details) return;
    const wide = window.matchMedia(WIDE);
    const sync = () => {
      if (wide.matches) details.open = true;
    };
    sync();
    wide.addEventListener("change", sync);
    return () => wide.removeEventListener("change", sync);
  }, []);

  // On a narrow screen, close the menu once a link has taken the user to another page.
  useEffect(() => {
    const details = navRef.current?.closest("details");
    if (details && !window.matchMedia(WIDE).matches) details.open = false;
  }, [pathname]);

  return (
    <nav aria-label="Areas" ref={navRef}>
      {AREAS.map((area) => (
        <Link key={area.href} href={area.href} aria-current={isCurrentArea(area.href, pathname) ? "page" : undefined}>
          {area.label}
          {area.href === "/requests" && pending > 0 && (
            <>
              {" "}
              <Badge tone="warn" data-testid="nav-requests-pending" title={`${pending} waiting for a decision`}>
                {pending}
                <span className="sr-only"> waiting</span>
              </Badge>
            </>
          )}
          <Pending />
        </Link>
      ))}
    </nav>
  );
}
