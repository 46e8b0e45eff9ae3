/**
 * Connections to the brokers of a multi-broker cluster, one broker at a time, so that a
 * broker that is down (its connection refused, cut or timed out) does not stop the
 * console: the Kafka client's own connectToBrokers fails as a whole when any broker of
 * its metadata cannot be reached, and that metadata still lists a broker that went down
 * until the controller fences it (broker.session.timeout.ms, 9 s by default).
 */
import type { Admin, Connection } from "@platformatic/kafka";

export interface UnreachableBroker {
  id: number;
  host: string;
  port: number;
  reason: string;
}

export interface BrokerConnections {
  /** Broker id -> connection, in the metadata's order. */
  connections: Map<number, Connection>;
  unreachable: UnreachableBroker[];
}

const reasonOf = (error: unknown): string => {
  const nested = (error as { errors?: unknown[] }).errors;
  const last = Array.isArray(nested) && nested.length > 0 ? nested[nested.length - 1] : error;
  return last instanceof Error ? last.message : String(last);
};

async function brokerList(admin: Admin, forceUpdate: boolean): Promise<{ id: number; host: string; port: number }[]> {
  const metadata = await admin.metadata({ topics: [], forceUpdate });
  return [...metadata.brokers.entries()].map(([id, b]) => ({ id, host: b.host, port: b.port }));
}

async function connectTo(admin: Admin, id: number): Promise<Connection> {
  const connections = await admin.connectToBrokers([id]);
  const connection = connections.get(id);
  if (!connection) throw new Error(`broker ${id} is not in the cluster metadata`);
  return connection;
}

/**
 * A connection to every broker of the metadata that answers, and the brokers that did
 * not. The brokers are asked at the same time. When none answers, the metadata is read
 * again (brokers may have moved or been fenced) and they are asked once more.
 */
export async function reachableBrokerConnections(admin: Admin): Promise<BrokerConnections> {
  let failures: unknown[] = [];
  for (const forceUpdate of [false, true]) {
    const brokers = await brokerList(admin, forceUpdate);
    const outcomes = await Promise.allSettled(brokers.map((b) => connectTo(admin, b.id)));
    const connections = new Map<number, Connection>();
    const unreachable: UnreachableBroker[] = [];
    outcomes.forEach((outcome, i) => {
      const broker = brokers[i]!;
      if (outcome.status === "fulfilled") connections.set(broker.id, outcome.value);
      else unreachable.push({ ...broker, reason: reasonOf(outcome.reason) });
    });
    if (connections.size > 0) return { connections, unreachable };
    failures = outcomes.flatMap((o): unknown[] => (o.status === "rejected" ? [o.reason] : []));
  }
  throw new AggregateError(failures, "No broker of the cluster could be reached.");
}

/**
 * One authenticated connection to a broker that answers, for the raw protocol APIs: the
 * brokers are tried in the metadata's order, one after the other; when none answers, the
 * metadata is read again and they are tried once more. Throws the last failure.
 */
export async function anyBrokerConnection(admin: Admin): Promise<Connection> {
  let lastError: unknown = new Error("The cluster metadata lists no brokers.");
  for (const forceUpdate of [false, true]) {
    for (const broker of await brokerList(admin, forceUpdate)) {
      try {
        return await connectTo(admin, broker.id);
      } catch (error) {
        lastError = error;
      }
    }
  }
  throw lastError;
}

/** A broker (or configured bootstrap server) that did not answer, as the console tells its users. */
export interface BrokerDown {
  /** The broker's id when the console has seen it in the cluster metadata, else null. */
  id: number | null;
  /** host:port */
  server: string;
  message: string;
}

// host:port -> broker id, from every metadata this process read: a broker that went down
// leaves the metadata once fenced, and is then known only by its address.
const globalIds = globalThis as typeof globalThis & { __kafkaSecurityConsoleBrokerIds?: Map<string, number> };
const brokerIds: Map<string, number> = (globalIds.__kafkaSecurityConsoleBrokerIds ??= new Map<string, number>());

/**
 * Which of the metadata's brokers and the configured bootstrap servers do not answer
 * ApiVersions (asked at the same time, each `probe` bounded by its own timeout), named
 * "broker N (host:port)" when the broker id is known.
 */
export async function brokersDown(
  brokers: readonly { id: number; host: string; port: number }[],
  bootstrapServers: readonly string[],
  probe: (server: string) => Promise<void>,
): Promise<BrokerDown[]> {
  for (const b of brokers) brokerIds.set(`${b.host}:${b.port}`, b.id);
  const servers = [...new Set([...brokers.map((b) => `${b.host}:${b.port}`), ...bootstrapServers])];
  const outcomes = await Promise.allSettled(servers.map((server) => probe(server)));
  return servers.flatMap((server, i) => {
    const outcome = outcomes[i]!;
    if (outcome.status === "fulfilled") return [];
    const id = brokerIds.get(server) ?? null;
    const who = id === null ? `The bootstrap server ${server}` : `Broker ${id} (${server})`;
    return [
      {
        id,
        server,
        message: `${who} is not reachable (${reasonOf(outcome.reason)}); the console works through the other brokers.`,
      },
    ];
  });
}
