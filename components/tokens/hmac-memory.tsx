"use client";

import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from "react";

interface HmacMemory {
  hmacOf: (tokenId: string) => string | undefined;
  remember: (tokenId: string, hmac: string) => void;
}

const Memory = createContext<HmacMemory | null>(null);

/**
 * The HMACs of the tokens created on this page, in the page's memory only (never in
 * storage, the address, a cookie or the console's database, and gone on reload), so that
 * renewing or expiring a token just created does not ask for the HMAC still on screen.
 * The HMAC goes to the server only in the renew or expire call itself.
 */
export function HmacMemoryProvider({ children }: { children: ReactNode }) {
  const [known, setKnown] = useState<ReadonlyMap<string, string>>(new Map());
  const remember = useCallback(
    (tokenId: string, hmac: string) => setKnown((m) => (m.get(tokenId) === hmac ? m : new Map(m).set(tokenId, hmac))),
    [],
  );
  const value = useMemo(() => ({ hmacOf: (tokenId: string) => known.get(tokenId), remember }), [known, remember]);
  return <Memory.Provider value={value}>{children}</Memory.Provider>;
}

/** The page's HMAC memory; without a provider, nothing is remembered. */
export function useHmacMemory(): HmacMemory {
  return useContext(Memory) ?? { hmacOf: () => undefined, remember: () => {} };
}
