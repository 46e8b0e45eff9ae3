"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";

/**
 * TanStack Query for the console's pages (one client per browser tab). Pages fetch from
 * /api/v1 with `fetchApi`; changes still go through server actions.
 */
export function QueryProvider({ children }: { children: ReactNode }) {
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: {
            staleTime: 10_000,
            refetchOnWindowFocus: true,
            // An ended session or a refusal does not get better by asking again at once.
            retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
          },
        },
      }),
  );
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

/** An /api/v1 answer that was not 2xx: the status and the API's `{ error, code }`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = "ApiError";
  }
  /** 401: the session ended (expired, signed out elsewhere, or Kafka refused the credential). */
  get sessionEnded(): boolean {
    return this.status === 401;
  }
}

/** GET an /api/v1 path as the signed-in user (the session cookie) and parse the JSON. */
export async function fetchApi<T>(path: string, signal?: AbortSignal): Promise<T> {
  const response = await fetch(path, {
    signal,
    headers: { accept: "application/json" },
    credentials: "same-origin",
    cache: "no-store",
  });
  if (!response.ok) {
    let message = `The console answered ${response.status}.`;
    let code: string | undefined;
    try {
      const body = (await response.json()) as { error?: string; code?: string };
      if (body.error) message = body.error;
      code = body.code;
    } catch {
      // not JSON: keep the status line
    }
    throw new ApiError(response.status, message, code);
  }
  return (await response.json()) as T;
}
