import type { ReactNode } from "react";
import Link from "next/link";
import { requireViewer } from "@/lib/auth/current";
import { NavLinks } from "@/components/nav-links";
import { signOutAction } from "../sign-in/actions";

export const dynamic = "force-dynamic";

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const viewer = await requireViewer();
  return (
    <div className="shell">
      <aside className="sidebar">
        <div className="brand">Kafka Security Console</div>
        <NavLinks />
        <nav aria-label="Developers">
          <Link href="/api-reference">API reference</Link>
        </nav>
      </aside>
      <div className="main">
        <header className="topbar">
          <span className="who">
            Signed in as <strong data-testid="principal">{viewer.principal}</strong> ({viewer.credential.mechanism})
          </span>
          <form action={signOutAction}>
            <button className="btn secondary small" type="submit">
              Sign out
            </button>
          </form>
        </header>
        <main className="content">{children}</main>
      </div>
    </div>
  );
}
