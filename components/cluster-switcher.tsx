import { clusterById, clusters } from "@/lib/clusters";
import { switchClusterAction } from "@/lib/actions/cluster-switch";
import Link from "@/components/link";

/**
 * The cluster the signed-in session is on, and (with more than one cluster) a form to go
 * to another: its console when the browser has a session there, else its sign-in. A plain
 * form, so it works without JavaScript; it goes to the same page on the other cluster. Beside
 * it, the page comparing two clusters. Nothing is shown with a single cluster.
 */
export function ClusterSwitcher({ current }: { current: string | undefined }) {
  const all = clusters();
  if (all.length < 2) return null;
  const here = clusterById(current);
  return (
    <form action={switchClusterAction} className="cluster-switcher" aria-label="Cluster">
      <span>
        Cluster <strong data-testid="cluster-name">{here.displayName}</strong>
      </span>
      <label>
        <span className="sr-only">Switch to cluster</span>
        <select name="cluster" defaultValue={here.id}>
          {all.map((c) => (
            <option key={c.id} value={c.id}>
              {c.displayName}
            </option>
          ))}
        </select>
      </label>
      <button className="btn secondary small" type="submit">
        Switch
      </button>
      <Link href="/compare" className="small">
        Compare clusters
      </Link>
    </form>
  );
}
