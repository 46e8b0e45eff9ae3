/**
 * The request being served, for every line logged while serving it: scripts/server.ts
 * runs Next's handler inside `runWithRequestId`, and the logger reads `currentRequestId`.
 * The store lives on globalThis so the Next bundle's copy of this module sees it too.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";

const slot = globalThis as typeof globalThis & { __kafkaSecurityConsoleRequestIds?: AsyncLocalStorage<string> };
const store: AsyncLocalStorage<string> = (slot.__kafkaSecurityConsoleRequestIds ??= new AsyncLocalStorage<string>());

export const REQUEST_ID_HEADER = "x-request-id";

/**
 * What an incoming X-Request-Id may look like: short, printable, no spaces or separators that could forge log fields.
 */
const SANE_REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:@/+=-]{0,127}$/;

/**
 * The id of a request: the reverse proxy's X-Request-Id when the console trusts its proxy
 * (TRUST_PROXY) and the value is sane, else a new one. A client's own id is never taken at
 * face value without a proxy that sets it.
 */
export function requestIdFor(incoming: string | string[] | undefined, trustProxy: boolean): string {
  const value = Array.isArray(incoming) ? incoming[0] : incoming;
  if (trustProxy && value !== undefined && SANE_REQUEST_ID.test(value)) return value;
  return randomUUID();
}

export function runWithRequestId<T>(requestId: string, fn: () => T): T {
  return store.run(requestId, fn);
}

export function currentRequestId(): string | undefined {
  return store.getStore();
}
