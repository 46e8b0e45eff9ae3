/**
 * A TCP proxy in front of a broker, for tests that need Kafka's answer to a request lost:
 * the request reaches Kafka (which carries it out), the answer never comes back and the
 * connection closes, as when a broker stops or the network breaks mid-request.
 *
 * It forwards every frame both ways and rewrites the broker's port in Metadata answers
 * (v9+, the flexible versions the client uses) to its own, so the client's connections to
 * "the broker" come through it too. On demand it:
 *   - dropNextAnswer(apiKey): forwards the next request of that API, swallows its answer
 *     and closes the connection (with thenRefuse, refuse() follows at once);
 *   - dropNextRequest(apiKey): does not forward the next request of that API (Kafka never
 *     gets it) and closes the connection;
 *   - refuse(): closes every connection, open or new, until allow() (Kafka unreachable).
 */
import net from "node:net";

export interface AnswerDroppingProxy {
  /** 127.0.0.1:<port> */
  bootstrap: string;
  port: number;
  dropNextAnswer(apiKey: number, options?: { thenRefuse?: boolean }): void;
  dropNextRequest(apiKey: number): void;
  /** How many answers / requests were dropped so far. */
  dropped(): number;
  refuse(): void;
  allow(): void;
  close(): Promise<void>;
}

/** Complete frames (int32 size + body) from a byte stream. */
class Frames {
  private buffered = Buffer.alloc(0);
  push(chunk: Buffer): Buffer[] {
    this.buffered = Buffer.concat([this.buffered, chunk]);
    const frames: Buffer[] = [];
    while (this.buffered.length >= 4) {
      const size = this.buffered.readInt32BE(0);
      if (this.buffered.length < 4 + size) break;
      frames.push(this.buffered.subarray(0, 4 + size));
      this.buffered = this.buffered.subarray(4 + size);
    }
    return frames;
  }
}

function readUVarint(buf: Buffer, at: number): [number, number] {
  let value = 0;
  let shift = 0;
  for (;;) {
    const b = buf[at++]!;
    value += (b & 0x7f) * 2 ** shift;
    if ((b & 0x80) === 0) return [value, at];
    shift += 7;
  }
}

/** A Metadata v9+ answer with every broker port `from` replaced by `to` (same length: rewritten in place). */
function rewriteMetadataPorts(frame: Buffer, from: number, to: number): Buffer {
  const out = Buffer.from(frame);
  // Size, correlation id, header tagged fields (none expected).
  const [headerTags, afterHeader] = readUVarint(out, 4 + 4);
  if (headerTags !== 0) return frame;
  const [brokers, afterCount] = readUVarint(out, afterHeader + 4); // throttle_time_ms, then the brokers
  let p = afterCount;
  for (let i = 0; i < brokers - 1; i++) {
    p += 4; // node_id
    let hostLength: number;
    [hostLength, p] = readUVarint(out, p);
    p += hostLength - 1;
    if (out.readInt32BE(p) === from) out.writeInt32BE(to, p);
    p += 4;
    let rackLength: number;
    [rackLength, p] = readUVarint(out, p);
    p += Math.max(0, rackLength - 1);
    let tags: number;
    [tags, p] = readUVarint(out, p);
    if (tags !== 0) return frame;
  }
  return out;
}

const METADATA = 3;

export async function startAnswerDroppingProxy(upstream: { host: string; port: number }): Promise<AnswerDroppingProxy> {
  let dropAnswerOf: number | null = null;
  let refuseAfterDrop = false;
  let dropRequestOf: number | null = null;
  let refusing = false;
  let dropped = 0;
  const sockets = new Set<net.Socket>();
  let ownPort = 0;

  const server = net.createServer((client) => {
    if (refusing) {
      client.destroy();
      return;
    }
    const broker = net.connect(upstream.port, upstream.host);
    sockets.add(client);
    sockets.add(broker);
    const cut = () => {
      client.destroy();
      broker.destroy();
      sockets.delete(client);
      sockets.delete(broker);
    };
    client.on("error", cut).on("close", cut);
    broker.on("error", cut).on("close", cut);
    const apiOf = new Map<number, number>();
    let swallow: number | null = null;
    const requests = new Frames();
    const answers = new Frames();
    client.on("data", (chunk: Buffer) => {
      for (const frame of requests.push(chunk)) {
        const apiKey = frame.readInt16BE(4);
        const correlationId = frame.readInt32BE(8);
        apiOf.set(correlationId, apiKey);
        if (apiKey === dropRequestOf) {
          dropRequestOf = null;
          dropped++;
          cut();
          return;
        }
        if (apiKey === dropAnswerOf) {
          dropAnswerOf = null;
          swallow = correlationId;
        }
        broker.write(frame);
      }
    });
    broker.on("data", (chunk: Buffer) => {
      for (const frame of answers.push(chunk)) {
        const correlationId = frame.readInt32BE(4);
        const apiKey = apiOf.get(correlationId);
        apiOf.delete(correlationId);
        if (correlationId === swallow) {
          dropped++;
          cut();
          if (refuseAfterDrop) refuse();
          return;
        }
        client.write(apiKey === METADATA ? rewriteMetadataPorts(frame, upstream.port, ownPort) : frame);
      }
    });
  });
  function refuse(): void {
    refusing = true;
    for (const s of sockets) s.destroy();
    sockets.clear();
  }
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  ownPort = (server.address() as net.AddressInfo).port;
  return {
    bootstrap: `127.0.0.1:${ownPort}`,
    port: ownPort,
    dropNextAnswer: (apiKey, options = {}) => {
      dropAnswerOf = apiKey;
      refuseAfterDrop = options.thenRefuse === true;
    },
    dropNextRequest: (apiKey) => void (dropRequestOf = apiKey),
    dropped: () => dropped,
    refuse,
    allow: () => void (refusing = false),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
