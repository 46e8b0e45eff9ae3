/**
 * The development OpenID Connect provider (#21), driven the way the console will drive it:
 * openid-client's discovery, the authorization code flow with PKCE, state and nonce, through
 * the provider's real sign-in form (a wrong password is refused there); the access token is a
 * JWT for Kafka (audience and scope `kafka`, `preferred_username`, an opaque `sub`) that
 * verifies against the published JWKS; a refresh token gives a new one; a replayed code is
 * refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as client from "openid-client";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { signInThroughForm } from "@/test/oidc/sign-in";
import {
  KAFKA_RESOURCE,
  KAFKA_RESOURCE_INDICATOR,
  startDevOidcProvider,
  subjectOf,
  type DevOidcProvider,
} from "./dev-provider";

const REDIRECT = "http://127.0.0.1:3999/api/auth/oidc/callback";
const CLIENT = { clientId: "kafka-security-console", clientSecret: "dev-client-secret", redirectUris: [REDIRECT] };
let idp: DevOidcProvider;
let config: client.Configuration;

beforeAll(async () => {
  idp = await startDevOidcProvider({
    port: 0,
    users: { alice: "alice-secret", bob: "bob-secret" },
    clients: [CLIENT],
    accessTokenSeconds: 120,
  });
  config = await client.discovery(new URL(idp.issuer), CLIENT.clientId, CLIENT.clientSecret, undefined, {
    execute: [client.allowInsecureRequests],
  });
});

afterAll(async () => {
  await idp?.close();
});

const PARAMS = { scope: `openid profile offline_access ${KAFKA_RESOURCE}`, resource: KAFKA_RESOURCE_INDICATOR };
const signIn = (user: string, password: string) => signInThroughForm(config, REDIRECT, PARAMS, user, password);

describe("the development identity provider", () => {
  it("signs alice in with PKCE, state and nonce: a JWT for Kafka naming her, and a refresh token", async () => {
    const { submitted, verifier, state, nonce } = await signIn("alice", "alice-secret");
    expect(submitted).toBeInstanceOf(URL);
    const callback = submitted as URL;
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
    });
    expect(tokens.refresh_token).toEqual(expect.any(String));
    expect(tokens.claims()).toMatchObject({ sub: subjectOf("alice"), iss: idp.issuer });

    const jwks = createRemoteJWKSet(new URL(idp.jwksUri));
    const { payload } = await jwtVerify(tokens.access_token, jwks, { issuer: idp.issuer, audience: KAFKA_RESOURCE });
    expect(payload).toMatchObject({ sub: subjectOf("alice"), preferred_username: "alice" });
    expect(String(payload.scope).split(" ")).toContain(KAFKA_RESOURCE);
    expect(payload.exp! - payload.iat!).toBe(120);
    // Keycloak-like: the subject is opaque, not the name.
    expect(payload.sub).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);

    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!, {
      resource: KAFKA_RESOURCE_INDICATOR,
    });
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    const again = await jwtVerify(refreshed.access_token, jwks, { issuer: idp.issuer, audience: KAFKA_RESOURCE });
    expect(again.payload.preferred_username).toBe("alice");

    // The code was used once: a replay of the callback is refused.
    await expect(
      client.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: verifier,
        expectedState: state,
        expectedNonce: nonce,
      }),
    ).rejects.toMatchObject({ error: "invalid_grant" });
  });

  it("refuses a wrong password on its form and issues nothing", async () => {
    const { submitted } = await signIn("bob", "not-bobs");
    expect(submitted).not.toBeInstanceOf(URL);
    const page = submitted as Response;
    expect(page.status).toBe(401);
    expect(await page.text()).toContain("Wrong username or password.");
  });

  it("refuses a user it does not know the same way", async () => {
    const { submitted } = await signIn("mallory", "alice-secret");
    expect((submitted as Response).status).toBe(401);
  });
});
