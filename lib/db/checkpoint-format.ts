/**
 * A checkpoint's bytes (#20, docs/history.md): the journal's whole state at an instant, in
 * sections a reader can decode apart.
 *
 * "What changed in P's access" needs only the ACLs naming P or `User:*` and the settings, but
 * one gzip of the whole state must be inflated and parsed whole: 0.8 s at 300,000 ACLs, most
 * of that request's 2 s budget. So the state is cut in sections, each gzipped on its own:
 *
 *   "KSC2" | uint32 BE length of the index | the index, JSON: { buckets, sections: [[id, offset, length]] }
 *   | the sections, one after another
 *
 * Section -1 holds every key that is not an ACL's (settings, client quotas, SCRAM credentials);
 * section b in 0..buckets-1 holds the ACLs whose principal hashes to b (FNV-1a of its text).
 * Each section is the canonical rows text of its keys (stateJson), gzipped. A reader that names
 * the principals it needs inflates section -1 and their buckets only; one that does not reads
 * them all. Checkpoints written before this format are one gzip of the whole text (they begin
 * with gzip's magic bytes) and are still read, whole.
 */
import { gunzipSync, gzipSync } from "node:zlib";
import { parseKey, type Json } from "../policy/history/keys";
import { parseStateJson, RebuildError, stateJson, type State } from "../policy/history/state";

const MAGIC = Buffer.from("KSC2", "latin1");
/** How many buckets the ACLs are spread over (about 4,700 keys each at 300,000 ACLs). */
export const CHECKPOINT_BUCKETS = 64;
const OTHERS = -1;

/** The bucket of a principal's ACLs (FNV-1a over its UTF-16 code units). */
export function bucketOf(principal: string, buckets = CHECKPOINT_BUCKETS): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < principal.length; i++) {
    h ^= principal.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % buckets;
}

function sectionOf(key: string, buckets: number): number {
  if (!key.startsWith('["acl"')) return OTHERS;
  const parsed = parseKey(key);
  return parsed.kind === "acl" ? bucketOf(parsed.binding.principal, buckets) : OTHERS;
}

/** The bytes of a state, in sections. */
export function encodeCheckpoint(state: State, buckets = CHECKPOINT_BUCKETS): Buffer {
  const parts = new Map<number, Map<string, Json>>();
  for (const [key, value] of state) {
    const id = sectionOf(key, buckets);
    let part = parts.get(id);
    if (!part) parts.set(id, (part = new Map<string, Json>()));
    part.set(key, value);
  }
  const bodies: Buffer[] = [];
  const sections: [number, number, number][] = [];
  let offset = 0;
  for (const id of [...parts.keys()].sort((a, b) => a - b)) {
    const body = gzipSync(Buffer.from(stateJson(parts.get(id)!), "utf8"));
    sections.push([id, offset, body.length]);
    bodies.push(body);
    offset += body.length;
  }
  const index = Buffer.from(JSON.stringify({ buckets, sections }), "utf8");
  const length = Buffer.alloc(4);
  length.writeUInt32BE(index.length);
  return Buffer.concat([MAGIC, length, index, ...bodies]);
}

interface Index {
  buckets: number;
  sections: [number, number, number][];
}

function readIndex(bytes: Buffer): { index: Index; start: number } {
  if (bytes.length < 8) throw new RebuildError("A checkpoint is truncated.");
  const length = bytes.readUInt32BE(4);
  const start = 8 + length;
  if (start > bytes.length) throw new RebuildError("A checkpoint is truncated.");
  let index: unknown;
  try {
    index = JSON.parse(bytes.toString("utf8", 8, start));
  } catch {
    throw new RebuildError("A checkpoint's index is malformed.");
  }
  const i = index as Partial<Index>;
  const valid =
    typeof i === "object" &&
    i !== null &&
    Number.isInteger(i.buckets) &&
    i.buckets! > 0 &&
    Array.isArray(i.sections) &&
    i.sections.every(
      (s) =>
        Array.isArray(s) &&
        s.length === 3 &&
        s.every((n) => Number.isInteger(n)) &&
        s[1] >= 0 &&
        s[2] >= 0 &&
        start + s[1] + s[2] <= bytes.length,
    );
  if (!valid) throw new RebuildError("A checkpoint's index is malformed or points past its end.");
  return { index: i as Index, start };
}

function inflate(bytes: Uint8Array): string {
  try {
    return gunzipSync(bytes).toString("utf8");
  } catch {
    throw new RebuildError("A checkpoint's data is corrupt.");
  }
}

/**
 * The state a checkpoint's bytes hold: only the keys `keep` keeps, when given; and with
 * `principals`, only the non-ACL keys and the ACLs of those principals' buckets (plus any other
 * principal that shares a bucket: `keep` is what narrows to exactly theirs).
 */
export function decodeCheckpoint(
  raw: Uint8Array,
  keep?: (key: string) => boolean,
  principals?: readonly string[],
): Map<string, Json> {
  const bytes = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) return parseStateJson(inflate(bytes), keep);
  if (bytes.length < 4 || !bytes.subarray(0, 4).equals(MAGIC))
    throw new RebuildError("A checkpoint is in a format this console does not know.");
  const { index, start } = readIndex(bytes);
  const wanted =
    principals === undefined ? null : new Set([OTHERS, ...principals.map((p) => bucketOf(p, index.buckets))]);
  const state = new Map<string, Json>();
  for (const [id, offset, length] of index.sections) {
    if (wanted !== null && !wanted.has(id)) continue;
    const part = parseStateJson(inflate(bytes.subarray(start + offset, start + offset + length)), keep);
    for (const [key, value] of part) state.set(key, value);
  }
  return state;
}
