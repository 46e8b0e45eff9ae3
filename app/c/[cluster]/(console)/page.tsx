import { requireViewer } from "@/lib/auth/current";
import { getDashboard } from "@/lib/services/dashboard";
import { PageHeader } from "@/components/ui/page-header";
import { DashboardLive } from "@/components/dashboard/dashboard-live";

export const metadata = { title: "Dashboard" };
export const dynamic = "force-dynamic";

type Search = Record<string, string | string[] | undefined>;

/**
 * The home page: what the signed-in principal may see of the cluster's security, each
 * number a link to the list behind it. Rendered on the server (complete without
 * JavaScript), then refreshed in the browser from GET /api/v1/dashboard.
 */
export default async function DashboardPage({ searchParams }: { searchParams: Promise<Search> }) {
  const viewer = await requireViewer();
  const lint = (await searchParams).lint === "1";
  const data = await getDashboard(viewer, { lint });
  return (
    <>
      <PageHeader
        title="Dashboard"
        lead={
          `What Kafka lets you (${viewer.principal}) see: ACL posture, decisions and tokens of yours, budgets, ` +
          `recent changes.`
        }
        details={
          <p>
            Every card is read as you, so two people see different numbers: a card Kafka does not let you read says so.
            Every number links to the list behind it. The ACL numbers come from the console&apos;s shared ACL snapshot
            and are computed once per change of the ACLs; the cards refresh every 30 seconds while the page is open.
          </p>
        }
      />
      <DashboardLive initial={data} lint={lint} />
    </>
  );
}
