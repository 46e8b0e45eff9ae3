/**
 * A real OpenID Connect provider for development and tests (#21): `oidc-provider` with real
 * login interactions (a sign-in form that checks the demo users' passwords; its built-in
 * development interactions are off), the authorization code flow with PKCE required, JWT
 * access tokens for the resource `kafka` (audience `kafka`, scope `kafka`, signed RS256 with a
 * key made at start and published at /jwks), refresh tokens, and end-session.
 *
 * Like Keycloak, `sub` is an opaque id (a UUID derived from the user name) and the name is in
 * `preferred_username`: brokers validating these tokens name that claim
 * (`sasl.oauthbearer.sub.claim.name=preferred_username`), so the principal Kafka sees is
 * `User:alice` whichever way alice signs in.
 *
 * Nothing here is used by the console in production: it stands in for Keycloak, Okta or
 * Entra ID on this machine (docs/sso.md).
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair } from "jose";
import Provider, { type Configuration, type KoaContextWithOIDC } from "oidc-provider";

/** The audience and scope of access tokens for Kafka. */
export const KAFKA_RESOURCE = "kafka";
/** The resource indicator (RFC 8707: an absolute URI) a client asks access tokens for Kafka with. */
export const KAFKA_RESOURCE_INDICATOR = "urn:kafka";

export interface DevOidcClient {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  postLogoutRedirectUris?: string[];
  /**
   * Accept these loopback addresses on any port (OAuth's native-application rule): the console
   * runs on 3000 for `npm start`, on another port in the end-to-end tests.
   */
  anyLoopbackPort?: boolean;
}

export interface DevOidcOptions {
  /** 0: any free port. */
  port: number;
  host?: string;
  /** User name to password: who may sign in. */
  users: Readonly<Record<string, string>>;
  clients: readonly DevOidcClient[];
  /** Access token lifetime in seconds (default 300: short, so refresh and Kafka's re-authentication are exercised). */
  accessTokenSeconds?: number;
}

export interface DevOidcProvider {
  issuer: string;
  jwksUri: string;
  /** The `sub` the provider gives a user (a UUID derived from the name, as Keycloak's are opaque). */
  subjectOf(user: string): string;
  close(): Promise<void>;
}

/** A stable UUID-shaped subject for a user name. */
export function subjectOf(user: string): string {
  const h = createHash("sha256").update(`ksc-dev-oidc|${user}`).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

function samePassword(a: string, b: string): boolean {
  const x = createHash("sha256").update(a).digest();
  const y = createHash("sha256").update(b).digest();
  return timingSafeEqual(x, y);
}

function loginPage(uid: string, clientId: string, error: string | null, user = ""): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign in: development identity provider</title></head>
<body>
<main>
<h1>Development identity provider</h1>
<p>Sign in to continue to <strong>${escapeHtml(clientId)}</strong>.</p>
${error ? `<p role="alert" id="login-error">${escapeHtml(error)}</p>` : ""}
<form method="post" action="/interaction/${escapeHtml(uid)}/login" autocomplete="off">
<label for="username">Username</label> <input id="username" name="username" value="${escapeHtml(user)}" required>
<label for="password">Password</label> <input id="password" name="password" type="password" required>
<button type="submit">Sign in</button>
</form>
<form method="post" action="/interaction/${escapeHtml(uid)}/abort"><button type="submit">Cancel</button></form>
</main>
</body></html>`;
}

async function formBody(req: IncomingMessage): Promise<URLSearchParams> {
  let body = "";
  for await (const chunk of req) {
    body += (chunk as Buffer).toString("utf8");
    if (body.length > 10_000) throw new Error("form too large");
  }
  return new URLSearchParams(body);
}

/** Starts the provider; it listens until `close()`. */
export async function startDevOidcProvider(options: DevOidcOptions): Promise<DevOidcProvider> {
  const host = options.host ?? "127.0.0.1";
  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const issuer = `http://${host}:${port}`;
  const names = new Map(Object.keys(options.users).map((u) => [subjectOf(u), u]));

  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: randomBytes(8).toString("hex"), alg: "RS256", use: "sig" };
  const accessTokenSeconds = options.accessTokenSeconds ?? 300;

  const configuration: Configuration = {
    clients: options.clients.map((c) => ({
      client_id: c.clientId,
      client_secret: c.clientSecret,
      redirect_uris: c.redirectUris,
      post_logout_redirect_uris: c.postLogoutRedirectUris ?? [],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_basic",
      ...(c.anyLoopbackPort ? { application_type: "native" as const } : {}),
    })),
    jwks: { keys: [jwk] },
    cookies: { keys: [randomBytes(32).toString("hex")] },
    pkce: { required: () => true },
    scopes: ["openid", "offline_access", "profile", KAFKA_RESOURCE],
    claims: { openid: ["sub"], profile: ["preferred_username", "name"] },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: { enabled: true },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => KAFKA_RESOURCE_INDICATOR,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: KAFKA_RESOURCE,
          audience: KAFKA_RESOURCE,
          accessTokenTTL: accessTokenSeconds,
          accessTokenFormat: "jwt",
          jwt: { sign: { alg: "RS256" } },
        }),
      },
    },
    ttl: {
      AccessToken: accessTokenSeconds,
      AuthorizationCode: 60,
      IdToken: 3600,
      Interaction: 600,
      Session: 8 * 3600,
      Grant: 8 * 3600,
      RefreshToken: 8 * 3600,
    },
    // A refresh token whenever the client may refresh: the console asks for offline_access.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    extraTokenClaims: async (_ctx, token) =>
      token.kind === "AccessToken" && token.accountId ? { preferred_username: names.get(token.accountId) } : undefined,
    findAccount: async (_ctx: KoaContextWithOIDC, sub: string) => {
      const user = names.get(sub);
      if (user === undefined) return undefined;
      return { accountId: sub, claims: async () => ({ sub, preferred_username: user, name: user }) };
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    renderError: async (ctx, out) => {
      ctx.type = "html";
      ctx.body = `<!doctype html><title>Error</title><h1>${escapeHtml(String(out.error))}</h1><p>${escapeHtml(
        String(out.error_description ?? ""),
      )}</p>`;
    },
  };
  const provider = new Provider(issuer, configuration);
  // http on 127.0.0.1 only: a development provider.
  provider.proxy = false;
  const callback = provider.callback();

  async function interaction(req: IncomingMessage, res: ServerResponse, uid: string, action: string | undefined) {
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid) throw new Error("interaction mismatch");
    const clientId = typeof details.params.client_id === "string" ? details.params.client_id : "";
    if (action === "abort" && req.method === "POST") {
      await provider.interactionFinished(
        req,
        res,
        { error: "access_denied", error_description: "The user cancelled the sign-in" },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    if (details.prompt.name === "login") {
      if (action === "login" && req.method === "POST") {
        const form = await formBody(req);
        const user = form.get("username") ?? "";
        const password = form.get("password") ?? "";
        const expected = Object.hasOwn(options.users, user) ? options.users[user]! : null;
        if (expected === null || !samePassword(password, expected)) {
          res.writeHead(401, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
          res.end(loginPage(uid, clientId, "Wrong username or password.", user));
          return;
        }
        await provider.interactionFinished(
          req,
          res,
          { login: { accountId: subjectOf(user) } },
          {
            mergeWithLastSubmission: false,
          },
        );
        return;
      }
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
      res.end(loginPage(uid, clientId, null));
      return;
    }
    // Consent: the console is a first-party client of this provider; what it asked for is granted.
    const accountId = details.session?.accountId;
    if (!accountId) throw new Error("consent without a session");
    const grant = details.grantId
      ? ((await provider.Grant.find(details.grantId)) ?? new provider.Grant({ accountId, clientId }))
      : new provider.Grant({ accountId, clientId });
    const missing = details.prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
      grant.addResourceScope(indicator, scopes.join(" "));
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }

  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const match = /^\/interaction\/([\w-]+)(?:\/(login|abort))?(?:\?.*)?$/.exec(req.url ?? "");
    if (!match) {
      void callback(req, res);
      return;
    }
    interaction(req, res, match[1]!, match[2]).catch((error: unknown) => {
      if (res.headersSent) return;
      res.writeHead(400, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
      res.end(
        `<!doctype html><title>Sign-in failed</title><h1>Sign-in failed</h1><p>${escapeHtml(
          error instanceof Error ? error.message : String(error),
        )}</p>`,
      );
    });
  });

  return {
    issuer,
    jwksUri: `${issuer}/jwks`,
    subjectOf,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
