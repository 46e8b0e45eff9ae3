/**
 * The web side of single sign-on (#21): the console's public address (the provider sends the
 * browser back to it), the callback's address, and the sign-in page's answers to a failed
 * sign-in. Used by the routes under app/api/auth/oidc and by sign-out.
 */
import { env } from "@/lib/env";
import type { SsoFailureCode } from "./oidc";

export const SSO_CALLBACK_PATH = "/api/auth/oidc/callback";
export const SSO_START_PATH = "/api/auth/oidc/start";
/** Where the remembered sign-ins' cookies are sent: the start (which keeps their number down) and the callback. */
export const PENDING_COOKIE_PATH = "/api/auth/oidc";
/** Sign-ins under way one browser may have at once; starting another forgets the oldest. */
export const MAX_PENDING_SIGN_INS = 4;

interface HeaderSource {
  get(name: string): string | null;
}

/**
 * The console's address as the browser knows it: the first ALLOWED_ORIGINS entry (the public
 * address behind a reverse proxy), else the forwarded host and scheme with TRUST_PROXY, else the
 * Host the browser addressed (https with COOKIE_SECURE). The provider only sends the browser back
 * to addresses registered with it, so a forged Host ends the sign-in, nothing more.
 */
export function consoleOrigin(headers: HeaderSource, requestProtocol = "http:"): string {
  const settings = env();
  if (settings.ALLOWED_ORIGINS.length > 0) return settings.ALLOWED_ORIGINS[0]!.replace(/\/$/, "");
  const forwardedHost = settings.TRUST_PROXY ? headers.get("x-forwarded-host")?.split(",")[0]?.trim() : undefined;
  const forwardedProto = settings.TRUST_PROXY ? headers.get("x-forwarded-proto")?.split(",")[0]?.trim() : undefined;
  const host = forwardedHost || headers.get("host") || "127.0.0.1";
  const protocol = forwardedProto ? `${forwardedProto}:` : settings.COOKIE_SECURE ? "https:" : requestProtocol;
  return `${protocol}//${host}`;
}

/** What the sign-in page says for each failure (fixed texts: the address carries only the code). */
export const SSO_FAILURE_MESSAGES: Record<SsoFailureCode, string> = {
  "not-configured": "Single sign-on is not configured for this cluster. Sign in with your Kafka credentials.",
  unavailable:
    "The identity provider (or Kafka) cannot be reached just now, so nobody was signed in. Try again in a minute; " +
    "if it lasts, tell whoever runs the provider.",
  "no-pending":
    "This sign-in answer does not belong to a sign-in this browser started: it was already used (a reload or the " +
    "back button), it expired, or it was started in another browser or tab that has finished. Nobody was signed in. " +
    "Start again.",
  refused:
    "The identity provider did not sign you in (cancelled, or you may not use this console). Nobody was signed in.",
  invalid:
    "The identity provider's answer failed the console's checks (state, nonce, issuer, audience, signature or " +
    "expiry). Nobody was signed in. Start again; if it happens again, tell whoever runs the console.",
  "no-principal":
    "Your access token names no Kafka principal (the claim the brokers use is missing). Nobody was signed in. " +
    "Tell whoever runs the identity provider.",
  "kafka-refused":
    "Kafka refused your access token, so the console cannot act as you. Nobody was signed in. The brokers may not " +
    "trust this provider yet: tell whoever runs Kafka.",
  throttled: "Too many failed sign-ins from this address. Wait a minute and try again.",
};

export function isSsoFailureCode(code: unknown): code is SsoFailureCode {
  return typeof code === "string" && Object.hasOwn(SSO_FAILURE_MESSAGES, code);
}
