import type { ReactNode } from "react";
import Link from "@/components/link";
import { clustersInAddresses, currentClusterId, requireViewer } from "@/lib/auth/current";
import { ClusterAddressProvider } from "@/components/cluster-address";
import { NavLinks } from "@/components/nav-links";
import { pendingRequestCount } from "@/lib/services/requests";
import { NavigationProgress } from "@/components/navigation-progress";
import { QueryProvider } from "@/components/ui/query";
import { signOutAction } from "@/app/sign-in/actions";
import { ClusterSwitcher } from "@/components/cluster-switcher";

export const dynamic = "force-dynamic";

/**
 * The console's frame: a skip link, the sidebar (at narrow widths a "Menu" disclosure, a
 * `<details>` that opens and closes without JavaScript), the top bar with who is signed
 * in, the page in `<main id="content">`, and a progress bar while another page is opened.
 */
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const viewer = await requireViewer();
  // One count query; a database hiccup leaves the badge out rather than the page.
  const pending = await pendingRequestCount(viewer).catch(() => 0);
  return (
    <ClusterAddressProvider clusterId={clustersInAddresses() ? await currentClusterId() : null}>
      <a className="skip-link" href="#content">
        Skip to content
      </a>
      <NavigationProgress />
      <div className="shell">
        <aside className="sidebar">
          <div className="brand">
            <Link href="/">Kafka Security Console</Link>
          </div>
          <details className="nav-menu">
            <summary>Menu</summary>
            <NavLinks pending={pending} />
            <nav aria-label="Developers">
              <Link href="/api-reference">API reference</Link>
            </nav>
          </details>
        </aside>
        <div className="main">
          <header className="topbar">
            <span className="who">
              Signed in as <strong data-testid="principal">{viewer.principal}</strong> (
              {viewer.credential.mechanism === "OAUTHBEARER" ? "single sign-on" : viewer.credential.mechanism})
            </span>
            <ClusterSwitcher current={viewer.credential.clusterId} />
            <form action={signOutAction}>
              <button className="btn secondary small" type="submit">
                Sign out
              </button>
            </form>
          </header>
          <main className="content" id="content" tabIndex={-1}>
            <QueryProvider>{children}</QueryProvider>
          </main>
        </div>
      </div>
    </ClusterAddressProvider>
  );
}
