import { requireViewer } from "@/lib/auth/current";
import { getClusterView } from "@/lib/services/cluster";
import { toErrorResult } from "@/lib/actions/errors";

export const metadata = { title: "Cluster" };

export default async function ClusterPage() {
  const viewer = await requireViewer();
  let cluster;
  try {
    cluster = await getClusterView(viewer);
  } catch (error) {
    const failure = toErrorResult(error, "describe the cluster");
    return (
      <>
        <h1>Cluster</h1>
        <div role="alert" className="alert error">
          {failure.message}
        </div>
      </>
    );
  }
  return (
    <>
      <h1>Cluster</h1>
      <p className="lead">What your own Kafka connection sees.</p>
      <dl className="facts">
        <div className="fact">
          <dt>Cluster id</dt>
          <dd data-testid="cluster-id">{cluster.clusterId ?? "unknown"}</dd>
        </div>
        <div className="fact">
          <dt>Controller</dt>
          <dd data-testid="controller-id">{cluster.controllerId ?? "unknown"}</dd>
        </div>
        <div className="fact">
          <dt>Brokers</dt>
          <dd>{cluster.brokers.length}</dd>
        </div>
        <div className="fact">
          <dt>Your principal</dt>
          <dd>{cluster.principal}</dd>
        </div>
      </dl>
      <h2>Brokers</h2>
      <table className="data" aria-label="Brokers">
        <thead>
          <tr>
            <th>Id</th>
            <th>Host</th>
            <th>Port</th>
            <th>Rack</th>
            <th>Role</th>
          </tr>
        </thead>
        <tbody>
          {cluster.brokers.map((b) => (
            <tr key={b.id}>
              <td>{b.id}</td>
              <td className="mono">{b.host}</td>
              <td>{b.port}</td>
              <td>{b.rack ?? "—"}</td>
              <td>{b.id === cluster.controllerId ? "controller" : "broker"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
