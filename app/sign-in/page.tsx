import { redirect } from "next/navigation";
import { clusterHrefOn, currentClusterId, getViewerOn } from "@/lib/auth/current";
import { splitClusterPath } from "@/lib/cluster-path";
import { safeNextPath } from "@/lib/auth/safe-next";
import { SignInForm } from "./sign-in-form";
import { clusters, findCluster } from "@/lib/clusters";
import { Alert } from "@/components/ui/alert";
import { isSsoFailureCode, SSO_FAILURE_MESSAGES, SSO_START_PATH } from "@/lib/auth/sso-http";

export const metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ next?: string; ended?: string; cluster?: string; sso?: string }>;
}) {
  const { next, ended, cluster, sso } = await searchParams;
  // The cluster to sign in to: the one asked for, else the one of the page to return to, else the one the browser is
  // on.
  const back = splitClusterPath(safeNextPath(next));
  const chosen =
    [cluster, back.clusterId].find((id) => id !== undefined && id !== null && findCluster(id)) ??
    (await currentClusterId());
  const viewer = await getViewerOn(chosen);
  // A failed single sign-on says why even to a browser still signed in (a replayed answer), then leads back.
  if (viewer && !isSsoFailureCode(sso)) redirect(clusterHrefOn(chosen, back.rest));
  return (
    <main className="signin-wrap">
      <div className="card signin">
        <h1>Kafka Security Console</h1>
        <p className="lead">
          {clusters().some((c) => c.oidc)
            ? "Sign in with your organisation's single sign-on or your Kafka credentials."
            : "Sign in with your Kafka credentials."}{" "}
          The console acts as you: it can never do more than your own ACLs allow.
        </p>
        {ended !== undefined && (
          <Alert tone="info">
            Your session has ended: it expired, or Kafka no longer accepts your credential. Sign in again
            {safeNextPath(next) !== "/" ? " to return to the page you were on." : "."}
          </Alert>
        )}
        {isSsoFailureCode(sso) && (
          <Alert tone="error" title="Single sign-on did not sign you in">
            {SSO_FAILURE_MESSAGES[sso]}
          </Alert>
        )}
        {viewer ? (
          <p>
            <a className="btn" href={clusterHrefOn(chosen, back.rest)}>
              Continue as {viewer.principal}
            </a>
          </p>
        ) : (
          <SsoLinks next={safeNextPath(next)} chosen={chosen} />
        )}
        {!viewer && !clusters().every((c) => c.oidc?.only) && (
          <SignInForm
            next={safeNextPath(next)}
            clusters={clusters()
              .filter((c) => !c.oidc?.only)
              .map((c) => ({ id: c.id, displayName: c.displayName, mechanisms: c.saslMechanisms }))}
            cluster={chosen}
          />
        )}
      </div>
    </main>
  );
}

/**
 * "Sign in with <provider>" for each cluster that has single sign-on (the chosen cluster first): a
 * plain link (a GET), so it works without JavaScript and under the pages' content security policy.
 */
function SsoLinks({ next, chosen }: { next: string; chosen: string }) {
  const withSso = clusters().filter((c) => c.oidc !== null);
  if (withSso.length === 0) return null;
  const several = clusters().length > 1;
  const ordered = [...withSso].sort((a, b) => Number(b.id === chosen) - Number(a.id === chosen));
  return (
    <div className="stack sso-links">
      {ordered.map((c) => {
        const params = new URLSearchParams({ cluster: c.id, next });
        return (
          <a key={c.id} className="btn sso-link" href={`${SSO_START_PATH}?${params}`} data-testid={`sso-${c.id}`}>
            Sign in with {c.oidc!.name}
            {several ? ` to ${c.displayName}` : ""}
          </a>
        );
      })}
      {!clusters().every((c) => c.oidc?.only) && <p className="muted">or with your Kafka credentials:</p>}
    </div>
  );
}
