/**
 * Signs a user in at an OpenID provider the way a browser does, through the provider's own
 * sign-in form (cookies kept between its redirects), for tests: the authorization code flow with
 * PKCE, state and nonce (openid-client), then the code exchanged for tokens.
 */
import * as client from "openid-client";

/** A browser's cookie jar, just enough for a provider's interaction cookies. */
export class FormBrowser {
  private cookies = new Map<string, string>();

  constructor(private readonly stopAt: string) {}

  async get(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) headers.set("cookie", [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    const response = await fetch(url, { ...init, headers, redirect: "manual" });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const [name, ...value] = pair!.split("=");
      this.cookies.set(name!.trim(), value.join("="));
    }
    return response;
  }

  /** Follows redirects within the provider until one reaches `stopAt` (the client's callback) or a page answers. */
  async follow(url: string, init: RequestInit = {}): Promise<Response | URL> {
    let response = await this.get(url, init);
    for (let hops = 0; hops < 10; hops++) {
      const location = response.headers.get("location");
      if (response.status < 300 || response.status >= 400 || location === null) return response;
      const next = new URL(location, url);
      if (next.href.startsWith(this.stopAt)) return next;
      url = next.href;
      response = await this.get(url);
    }
    throw new Error("too many redirects");
  }
}

export interface FormSignIn {
  /** The client's callback with the code, or the provider's page when it did not redirect (a refused password). */
  submitted: Response | URL;
  verifier: string;
  state: string;
  nonce: string;
}

/** Starts the code flow and submits the provider's sign-in form with `user` and `password`. */
export async function signInThroughForm(
  config: client.Configuration,
  redirectUri: string,
  params: { scope: string; resource?: string },
  user: string,
  password: string,
): Promise<FormSignIn> {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: params.scope,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
    nonce,
    ...(params.resource ? { resource: params.resource } : {}),
  });
  return { submitted: await submitLoginForm(url, redirectUri, user, password), verifier, state, nonce };
}

/**
 * Opens a provider's authorization address `url` as a browser would and submits its sign-in form:
 * the client's callback address with the answer (once the provider redirects to `redirectUri`), or
 * the provider's page when it did not (a refused password).
 */
export async function submitLoginForm(
  url: URL,
  redirectUri: string,
  user: string,
  password: string,
): Promise<Response | URL> {
  const browser = new FormBrowser(redirectUri);
  const form = await browser.follow(url.href);
  if (form instanceof URL) throw new Error(`no sign-in form: ${form.href}`);
  const html = await form.text();
  const action = /action="(\/interaction\/[^"]+\/login)"/.exec(html)?.[1];
  if (action === undefined) throw new Error(`no sign-in form (${form.status}): ${html.slice(0, 200)}`);
  return browser.follow(new URL(action, url).href, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username: user, password }).toString(),
  });
}

/** Signs `user` in and exchanges the code: the tokens. */
export async function tokensFor(
  config: client.Configuration,
  redirectUri: string,
  params: { scope: string; resource?: string },
  user: string,
  password: string,
) {
  const { submitted, verifier, state, nonce } = await signInThroughForm(config, redirectUri, params, user, password);
  if (!(submitted instanceof URL)) throw new Error(`sign-in refused (${submitted.status})`);
  return client.authorizationCodeGrant(config, submitted, {
    pkceCodeVerifier: verifier,
    expectedState: state,
    expectedNonce: nonce,
  });
}
