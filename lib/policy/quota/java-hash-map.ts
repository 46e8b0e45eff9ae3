/**
 * Iteration order of a java.util.HashMap<String, V>, so that the messages Kafka builds by
 * walking such a map (which quota op is reported first, how `ClientQuotaEntity(entries={..})`
 * prints) come out exactly as Kafka's do.
 *
 * A HashMap iterates bucket by bucket (index = spread(hash) & (capacity - 1)) and, inside a
 * bucket, in insertion order; resizing keeps that relative order. So the order is fixed by
 * the final capacity, which depends on the initial capacity and the number of keys.
 * Treeified buckets (8+ colliding keys) are out of scope: quota maps hold at most a handful.
 */

/** String.hashCode (over UTF-16 code units, int overflow); null hashes to 0. */
export function javaStringHash(s: string | null): number {
  if (s === null) return 0;
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(31, h) + s.charCodeAt(i)) | 0;
  return h;
}

/** HashMap.tableSizeFor */
function tableSizeFor(cap: number): number {
  if (cap <= 1) return 1;
  let n = 1;
  while (n < cap) n *= 2;
  return Math.min(n, 1 << 30);
}

/**
 * Keys of a HashMap built by `put`-ing `keys` in order (duplicates ignored), in the order the
 * map iterates them. `initialCapacity` is the constructor argument (`undefined` = no-arg: 16).
 */
export function javaHashMapOrder<K extends string | null>(keys: readonly K[], initialCapacity?: number): K[] {
  const distinct: K[] = [];
  for (const k of keys) if (!distinct.includes(k)) distinct.push(k);
  let capacity = 0;
  let threshold = initialCapacity === undefined ? 0 : tableSizeFor(initialCapacity);
  const resize = () => {
    if (capacity > 0) {
      const oldCapacity = capacity;
      capacity *= 2;
      threshold = oldCapacity >= 16 ? threshold * 2 : Math.floor(capacity * 0.75);
    } else if (threshold > 0) {
      capacity = threshold;
      threshold = Math.floor(capacity * 0.75);
    } else {
      capacity = 16;
      threshold = 12;
    }
  };
  distinct.forEach((_, i) => {
    if (capacity === 0) resize();
    if (i + 1 > threshold) resize();
  });
  const bucket = (k: K) => {
    const h = javaStringHash(k);
    return (h ^ (h >>> 16)) & (capacity - 1);
  };
  return distinct
    .map((k, i) => ({ k, i, b: bucket(k) }))
    .sort((x, y) => x.b - y.b || x.i - y.i)
    .map((x) => x.k);
}

/** AbstractMap.toString of a HashMap<String, String>: `{k1=v1, k2=null}`. */
export function javaMapString(
  entries: ReadonlyArray<readonly [string | null, string | null]>,
  initialCapacity?: number,
): string {
  const values = new Map(entries.map(([k, v]) => [k, v] as const));
  const order = javaHashMapOrder(
    entries.map(([k]) => k),
    initialCapacity,
  );
  return "{" + order.map((k) => `${k}=${values.get(k) ?? "null"}`).join(", ") + "}";
}
