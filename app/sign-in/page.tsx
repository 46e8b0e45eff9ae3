import { redirect } from "next/navigation";
import { clusterHrefOn, currentClusterId, getViewerOn } from "@/lib/auth/current";
import { splitClusterPath } from "@/lib/cluster-path";
import { safeNextPath } from "@/lib/auth/safe-next";
import { SignInForm } from "./sign-in-form";
import { clusters, findCluster } from "@/lib/clusters";
import { Alert } from "@/components/ui/alert";

export const metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ next?: string; ended?: string; cluster?: string }>;
}) {
  const { next, ended, cluster } = await searchParams;
  // The cluster to sign in to: the one asked for, else the one of the page to return to, else the one the browser is
  // on.
  const back = splitClusterPath(safeNextPath(next));
  const chosen =
    [cluster, back.clusterId].find((id) => id !== undefined && id !== null && findCluster(id)) ??
    (await currentClusterId());
  if (await getViewerOn(chosen)) redirect(clusterHrefOn(chosen, back.rest));
  return (
    <main className="signin-wrap">
      <div className="card signin">
        <h1>Kafka Security Console</h1>
        <p className="lead">
          Sign in with your Kafka credentials. The console acts as you: it can never do more than your own ACLs allow.
        </p>
        {ended !== undefined && (
          <Alert tone="info">
            Your session has ended: it expired, or Kafka no longer accepts your credential. Sign in again
            {safeNextPath(next) !== "/" ? " to return to the page you were on." : "."}
          </Alert>
        )}
        <SignInForm
          next={safeNextPath(next)}
          clusters={clusters().map((c) => ({ id: c.id, displayName: c.displayName, mechanisms: c.saslMechanisms }))}
          cluster={chosen}
        />
      </div>
    </main>
  );
}
