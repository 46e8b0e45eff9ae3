"use client";

import { useSyncExternalStore } from "react";

const noChange = () => () => undefined;

/** The console's origin as the browser sees it (a placeholder while rendering on the server). */
export function useOrigin(): string {
  return useSyncExternalStore(
    noChange,
    () => window.location.origin,
    () => "https://console.example",
  );
}
