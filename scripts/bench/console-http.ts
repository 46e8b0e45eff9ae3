/**
 * The console bench's HTTP side: a signed-in user of the console's JSON API (a session
 * cookie of its own, the console's origin on changes), timed to the last byte of each
 * answer.
 */

export interface Timed<T = unknown> {
  ms: number;
  status: number;
  body: T;
  bytes: number;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly path: string,
    body: string,
  ) {
    super(`${path}: HTTP ${status} ${body.slice(0, 400)}`);
  }
}

export class ConsoleUser {
  private cookie = "";

  constructor(readonly base: string) {}

  /** Signs in through POST /api/v1/session; the session cookie is kept for every later call. */
  async signIn(username: string, password: string): Promise<void> {
    let res: Response;
    let text: string;
    // A sign-in whose SASL handshake timed out on a busy machine counts as failed, and the
    // console throttles: wait as it says and try again (a few times).
    for (let attempt = 1; ; attempt++) {
      res = await fetch(`${this.base}/api/v1/session`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: this.base },
        body: JSON.stringify({ username, password, mechanism: "SCRAM-SHA-512" }),
      });
      text = await res.text();
      if (res.ok || attempt >= 6 || (res.status !== 429 && res.status < 500)) break;
      const wait = Number(/in (\d+) s/.exec(text)?.[1] ?? 2);
      await new Promise((resolve) => setTimeout(resolve, (wait + 1) * 1000));
    }
    if (!res.ok) throw new ApiError(res.status, "/api/v1/session", text);
    const session = res.headers.getSetCookie().find((c) => c.startsWith("ksc_session="));
    if (!session) throw new Error("sign-in answered no ksc_session cookie");
    this.cookie = session.split(";")[0]!;
  }

  /** One request, timed from sending to the last byte of the answer; JSON answers parsed (after the clock stops). */
  async request<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    options: { allowError?: boolean } = {},
  ): Promise<Timed<T>> {
    const headers: Record<string, string> = { Cookie: this.cookie, Accept: "application/json, text/html" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (method !== "GET") headers.Origin = this.base;
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const t0 = performance.now();
    const res = await fetch(`${this.base}${path}`, { method, headers, body: payload });
    const buf = Buffer.from(await res.arrayBuffer());
    const ms = performance.now() - t0;
    const text = buf.toString("utf8");
    if (!res.ok && !options.allowError) throw new ApiError(res.status, path, text);
    const json = (res.headers.get("content-type") ?? "").includes("json");
    return { ms, status: res.status, body: (json ? JSON.parse(text) : text) as T, bytes: buf.length };
  }

  get<T = unknown>(path: string): Promise<Timed<T>> {
    return this.request<T>("GET", path);
  }
}

export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length === 0 ? NaN : s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** The p-th percentile (nearest rank) of a list of times. */
export const percentile = (xs: readonly number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
};

export const round = (ms: number): number => Math.round(ms * 10) / 10;
