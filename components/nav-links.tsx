"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

export const AREAS = [
  { href: "/", label: "Cluster" },
  { href: "/resources", label: "Resources" },
  { href: "/acls", label: "ACLs" },
  { href: "/access-check", label: "Access check" },
  { href: "/quotas", label: "Quotas" },
  { href: "/tokens", label: "Tokens" },
  { href: "/token-requests", label: "Token requests" },
  { href: "/audit", label: "Audit" },
] as const;

export function NavLinks() {
  const pathname = usePathname();
  return (
    <nav aria-label="Areas">
      {AREAS.map((area) => {
        const current = area.href === "/" ? pathname === "/" : pathname.startsWith(area.href);
        return (
          <Link key={area.href} href={area.href} aria-current={current ? "page" : undefined}>
            {area.label}
          </Link>
        );
      })}
    </nav>
  );
}
