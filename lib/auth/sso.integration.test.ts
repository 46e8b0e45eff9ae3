/**
 * Single sign-on (#21) against the real development provider, the dev broker's OAUTHBEARER
 * listener and PostgreSQL: a person signs in through the provider's own form, the console acts as
 * them in Kafka with their access token, refreshes it, ends the session when the provider no longer
 * accepts it, and refuses replayed, mixed-up and forged answers and tokens, audited and throttled.
 *
 * The provider and the listener come up with the dev broker (`bash scripts/kafka.sh start`).
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import * as client from "openid-client";
import { generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetOidcProvidersForTests, SsoError, type SsoTokens } from "@/lib/auth/oidc";
import { decodeTokens, encodeTokens } from "@/lib/auth/oidc-session";
import { viewerFromSessionId } from "@/lib/auth/sign-in";
import {
  completeSsoSignIn,
  readPending,
  ssoThrottleKey,
  startSsoSignIn,
  viewerFromBearer,
} from "@/lib/auth/sso-sign-in";
import { getPrisma } from "@/lib/db/client";
import { getSession, hashSessionId, updateSessionCredential } from "@/lib/db/session";
import { resetEnvForTests } from "@/lib/env";
import { closeAllConnections, describeAcls, listTopics, pooledConnectionCount, verifyCredentials } from "@/lib/kafka";
import { ANY_ACL_FILTER } from "@/lib/policy";
import { startDevOidcProvider, subjectOf } from "@/scripts/oidc/dev-provider";
import { devOidcEnv } from "@/scripts/oidc/dev-settings";
import { useMigratedTestDatabase } from "@/test/db";
import { submitLoginForm, tokensFor } from "@/test/oidc/sign-in";

const REDIRECT = "http://127.0.0.1:3000/api/auth/oidc/callback";
const CLUSTER = "default";
const sso = devOidcEnv(process.cwd(), { ...process.env, KAFKA_OIDC_ISSUER: undefined });
const saved: Record<string, string | undefined> = {};
let db: Awaited<ReturnType<typeof useMigratedTestDatabase>>;
let clientNumber = 0;

/** A client address of its own per test, so the throttle of one does not slow another. */
const nextClient = () => `203.0.113.${100 + clientNumber++}`;

beforeAll(async () => {
  if (!sso) throw new Error("the development OpenID provider is not running: bash scripts/kafka.sh start");
  for (const [name, value] of Object.entries({ ...sso, CONSOLE_SECRET_KEY: randomBytes(32).toString("base64") })) {
    saved[name] = process.env[name];
    process.env[name] = value;
  }
  resetEnvForTests();
  resetOidcProvidersForTests();
  db = await useMigratedTestDatabase("sso");
});

afterAll(async () => {
  await closeAllConnections();
  await db?.teardown();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetEnvForTests();
  resetOidcProvidersForTests();
});

/** Starts a sign-in and submits the provider's form: what the callback receives, and the browser's cookie. */
async function throughProvider(user: string, password = `${user}-secret`) {
  const started = await startSsoSignIn(CLUSTER, "/acls", REDIRECT);
  const answer = await submitLoginForm(started.url, REDIRECT, user, password);
  if (!(answer instanceof URL)) throw new Error(`the provider did not send the browser back (${answer.status})`);
  return { params: answer.searchParams, pending: readPending(started.cookieValue), started };
}

async function signInAs(user: string, client = nextClient()) {
  const { params, pending } = await throughProvider(user);
  return completeSsoSignIn(pending, params, client, CLUSTER);
}

async function failureOf(call: Promise<unknown>): Promise<SsoError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof SsoError) return error;
    throw error;
  }
  throw new Error("the sign-in succeeded");
}

/** Makes the session's tokens look two-thirds through their life, so the next use refreshes them. */
async function ageTokens(sessionId: string): Promise<SsoTokens> {
  const session = (await getSession(sessionId))!;
  const tokens = decodeTokens(session.encryptedCredential);
  const aged = { ...tokens, obtainedAt: tokens.obtainedAt - 10 * 60_000 };
  await getPrisma().session.update({
    where: { idHash: hashSessionId(sessionId) },
    data: { encryptedCredential: encodeTokens(aged) },
  });
  return tokens;
}

describe("sign-in with the provider", () => {
  it("signs alice in as User:alice, audited with the method and the provider's subject, tokens encrypted", async () => {
    const client = nextClient();
    const signedIn = await signInAs("alice", client);
    expect(signedIn).toMatchObject({ principal: "User:alice", clusterId: CLUSTER, next: "/acls" });

    const row = await getPrisma().session.findUnique({ where: { idHash: hashSessionId(signedIn.sessionId) } });
    expect(row).toMatchObject({ principal: "User:alice", username: "alice", mechanism: "OAUTHBEARER" });
    const tokens = decodeTokens(row!.encryptedCredential);
    expect(row!.encryptedCredential).not.toContain(tokens.accessToken.slice(0, 20));
    expect(tokens.refreshToken).toEqual(expect.any(String));

    const audit = await getPrisma().auditEvent.findFirst({
      where: { action: "session.sign-in", principal: "User:alice", outcome: "success" },
      orderBy: { id: "desc" },
    });
    expect(audit?.request).toMatchObject({
      method: "single sign-on (OIDC)",
      subject: subjectOf("alice"),
      provider: sso!.KAFKA_OIDC_ISSUER,
      client,
    });
    expect(JSON.stringify(audit, (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v))).not.toContain(
      tokens.accessToken,
    );
  });

  it("acts as the person in Kafka: alice is refused what her ACLs refuse, admin (a super user) is not", async () => {
    const alice = (await viewerFromSessionId((await signInAs("alice")).sessionId))!;
    expect(alice.credential.mechanism).toBe("OAUTHBEARER");
    await expect(listTopics(alice.credential)).resolves.toEqual(expect.any(Array));
    await expect(describeAcls(alice.credential, ANY_ACL_FILTER)).rejects.toMatchObject({
      code: "CLUSTER_AUTHORIZATION_FAILED",
    });
    const admin = (await viewerFromSessionId((await signInAs("admin")).sessionId))!;
    await expect(describeAcls(admin.credential, ANY_ACL_FILTER)).resolves.toEqual(expect.any(Array));
  });

  it("keeps one Kafka connection per session, not per request", async () => {
    const signedIn = await signInAs("bob");
    const before = pooledConnectionCount("bob");
    for (let i = 0; i < 3; i++) {
      const viewer = (await viewerFromSessionId(signedIn.sessionId))!;
      await listTopics(viewer.credential);
    }
    expect(pooledConnectionCount("bob")).toBe(before + 1);
  });

  it("refuses a wrong password on the provider's own form: no answer comes back", async () => {
    const started = await startSsoSignIn(CLUSTER, "/", REDIRECT);
    const answer = await submitLoginForm(started.url, REDIRECT, "alice", "not-her-password");
    expect(answer).toBeInstanceOf(Response);
    expect(await (answer as Response).text()).toContain("Wrong username or password.");
  });
});

describe("the provider down", () => {
  it("refuses to start a sign-in with a clear reason, and discovers again once the provider is back", async () => {
    process.env.KAFKA_OIDC_ISSUER = "http://127.0.0.1:9"; // nothing listens on the discard port
    resetOidcProvidersForTests();
    try {
      const failure = await failureOf(startSsoSignIn(CLUSTER, "/", REDIRECT));
      expect(failure.code).toBe("unavailable");
      expect(failure.message).toContain("cannot be reached");
    } finally {
      process.env.KAFKA_OIDC_ISSUER = sso!.KAFKA_OIDC_ISSUER;
    }
    // The failed discovery was not kept: the next sign-in works.
    await expect(startSsoSignIn(CLUSTER, "/", REDIRECT)).resolves.toMatchObject({ url: expect.any(URL) });
  });
});

describe("answers that must not sign anyone in", () => {
  it("refuses a replayed answer: its code was used, so the provider refuses it", async () => {
    const { params, pending } = await throughProvider("alice");
    await completeSsoSignIn(pending, params, nextClient(), CLUSTER);
    const sessions = await getPrisma().session.count();
    const replay = await failureOf(completeSsoSignIn(pending, params, nextClient(), CLUSTER));
    expect(replay.code).toBe("invalid");
    expect(await getPrisma().session.count()).toBe(sessions);
  });

  it("refuses an answer without this browser's sign-in (replayed after the cookie was spent, or forged)", async () => {
    const { params } = await throughProvider("alice");
    const failure = await failureOf(completeSsoSignIn(null, params, nextClient(), CLUSTER));
    expect(failure.code).toBe("no-pending");
    expect(failure.message).toContain("Nobody was signed in");
  });

  it("refuses tab B's answer with tab A's sign-in (the states differ), and still finishes tab B's own", async () => {
    const tabA = await throughProvider("alice");
    const tabB = await throughProvider("bob");
    const mixed = await failureOf(completeSsoSignIn(tabA.pending, tabB.params, nextClient(), CLUSTER));
    expect(mixed.code).toBe("no-pending");
    // Each tab's cookie is its own (named after its state): B's sign-in still works.
    expect(tabA.started.cookieName).not.toBe(tabB.started.cookieName);
    await expect(completeSsoSignIn(tabB.pending, tabB.params, nextClient(), CLUSTER)).resolves.toMatchObject({
      principal: "User:bob",
    });
  });

  it("refuses an answer from another provider (mix-up): its code, issuer and ID token are not ours", async () => {
    const secret = readFileSync(sso!.KAFKA_OIDC_CLIENT_SECRET_FILE, "utf8").trim();
    const other = await startDevOidcProvider({
      port: 0,
      users: { admin: "admin-secret" },
      clients: [{ clientId: "kafka-security-console", clientSecret: secret, redirectUris: [REDIRECT] }],
    });
    try {
      const { pending } = await throughProvider("alice");
      const config = await client.discovery(new URL(other.issuer), "kafka-security-console", secret, undefined, {
        execute: [client.allowInsecureRequests],
      });
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: REDIRECT,
        scope: "openid profile offline_access kafka",
        code_challenge: await client.calculatePKCECodeChallenge(pending!.verifier),
        code_challenge_method: "S256",
        state: pending!.state,
        nonce: pending!.nonce,
      });
      const answer = await submitLoginForm(url, REDIRECT, "admin", "admin-secret");
      if (!(answer instanceof URL)) throw new Error("the other provider did not answer");
      const sessions = await getPrisma().session.count();
      const failure = await failureOf(completeSsoSignIn(pending, answer.searchParams, nextClient(), CLUSTER));
      expect(failure.code).toBe("invalid");
      expect(failure.message).toMatch(/iss|issuer/i);
      expect(await getPrisma().session.count()).toBe(sessions);
    } finally {
      await other.close();
    }
  });

  it("refuses the provider's own refusal (the person cancelled)", async () => {
    const { pending } = await throughProvider("alice");
    const params = new URLSearchParams({ error: "access_denied", state: pending!.state, iss: sso!.KAFKA_OIDC_ISSUER });
    expect((await failureOf(completeSsoSignIn(pending, params, nextClient(), CLUSTER))).code).toBe("refused");
  });

  it("throttles a client sending answers that fail, audited as refused sign-ins of that client", async () => {
    const client = nextClient();
    const { params } = await throughProvider("alice");
    const codes: string[] = [];
    for (let i = 0; i < 6; i++) codes.push((await failureOf(completeSsoSignIn(null, params, client, CLUSTER))).code);
    expect(codes).toContain("throttled");
    expect(codes.slice(0, 3)).toEqual(["no-pending", "no-pending", "no-pending"]);
    const row = await getPrisma().signInThrottle.findUnique({ where: { key: ssoThrottleKey(client) } });
    expect(row?.attempts).toBeGreaterThanOrEqual(3);
    const audit = await getPrisma().auditEvent.findMany({
      where: { action: "session.sign-in", outcome: "denied", target: "User:(single sign-on)" },
    });
    expect(audit.length).toBeGreaterThan(0);
  });
});

describe("tokens over the session's life", () => {
  it("refreshes the token when due, once for five requests at the same time, and Kafka takes the new one", async () => {
    const signedIn = await signInAs("carol");
    const old = await ageTokens(signedIn.sessionId);
    const viewers = await Promise.all(Array.from({ length: 5 }, () => viewerFromSessionId(signedIn.sessionId)));
    expect(viewers.every((v) => v?.principal === "User:carol")).toBe(true);
    const fresh = decodeTokens((await getSession(signedIn.sessionId))!.encryptedCredential);
    expect(fresh.accessToken).not.toBe(old.accessToken);
    expect(fresh.expiresAt).toBeGreaterThan(old.expiresAt - 1);
    const tokens = await Promise.all(viewers.map((v) => v!.credential.oauth!.token()));
    expect(new Set(tokens)).toEqual(new Set([fresh.accessToken]));
    await expect(listTopics(viewers[0]!.credential)).resolves.toEqual(expect.any(Array));
  });

  it("refreshes once across instances: a second waits on the session row and finds the new tokens", async () => {
    const signedIn = await signInAs("bob");
    const seenBySecond: string[] = [];
    // Two transactions on their own connections, as two console instances would hold.
    const first = updateSessionCredential(signedIn.sessionId, async () => {
      await new Promise((r) => setTimeout(r, 300)); // the provider answering slowly
      return "tokens-of-the-first-refresh";
    });
    await new Promise((r) => setTimeout(r, 50));
    const second = updateSessionCredential(signedIn.sessionId, async (current) => {
      seenBySecond.push(current);
      return null;
    });
    expect(await Promise.all([first, second])).toEqual(["tokens-of-the-first-refresh", "tokens-of-the-first-refresh"]);
    expect(seenBySecond).toEqual(["tokens-of-the-first-refresh"]);
  });

  it("ends the session, audited, when the provider refuses the refresh (the refresh token was revoked)", async () => {
    const signedIn = await signInAs("dana");
    const tokens = await ageTokens(signedIn.sessionId);
    const secret = readFileSync(sso!.KAFKA_OIDC_CLIENT_SECRET_FILE, "utf8").trim();
    const revoked = await fetch(`${sso!.KAFKA_OIDC_ISSUER}/token/revocation`, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from(`kafka-security-console:${secret}`).toString("base64")}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ token: tokens.refreshToken!, token_type_hint: "refresh_token" }),
    });
    expect(revoked.status).toBe(200);
    expect(await viewerFromSessionId(signedIn.sessionId)).toBeNull();
    expect(await getSession(signedIn.sessionId)).toBeNull();
    const audit = await getPrisma().auditEvent.findFirst({
      where: { action: "session.revoked", principal: "User:dana" },
      orderBy: { id: "desc" },
    });
    expect(audit?.message).toContain("identity provider no longer accepts this sign-in");
  });
});

describe("API callers with the provider's access token (Bearer)", () => {
  it("takes alice's access token as User:alice, and Kafka treats her as alice", async () => {
    const signedIn = await signInAs("alice");
    const token = decodeTokens((await getSession(signedIn.sessionId))!.encryptedCredential).accessToken;
    const bearer = await viewerFromBearer(CLUSTER, token, nextClient());
    expect(bearer.ok && bearer.viewer.principal).toBe("User:alice");
    if (!bearer.ok) return;
    await expect(describeAcls(bearer.viewer.credential, ANY_ACL_FILTER)).rejects.toMatchObject({
      code: "CLUSTER_AUTHORIZATION_FAILED",
    });
  });

  it("refuses a token signed by another key, naming admin with the right claims", async () => {
    const { privateKey } = await generateKeyPair("RS256");
    const forged = await new SignJWT({ preferred_username: "admin", scope: "kafka" })
      .setProtectedHeader({ alg: "RS256", kid: "forged" })
      .setIssuer(sso!.KAFKA_OIDC_ISSUER)
      .setAudience("kafka")
      .setSubject(subjectOf("admin"))
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(privateKey);
    const bearer = await viewerFromBearer(CLUSTER, forged, nextClient());
    expect(bearer.ok).toBe(false);
    if (!bearer.ok) expect(bearer.failure.message).toContain("not signed by the provider's keys");
    // Kafka refuses it too, at once and as an authentication failure (not a later "invalid SASL state").
    const credential = {
      username: "admin",
      password: "",
      mechanism: "OAUTHBEARER" as const,
      clusterId: CLUSTER,
      oauth: { key: "forged", token: async () => forged },
    };
    await expect(verifyCredentials(credential)).rejects.toMatchObject({
      code: "SASL_AUTHENTICATION_FAILED",
      message: expect.stringContaining("Kafka refused the sign-in of admin"),
    });
  });

  it("refuses a token for another audience, one of another provider, an expired and a tampered one", async () => {
    const signedIn = await signInAs("alice");
    const token = decodeTokens((await getSession(signedIn.sessionId))!.encryptedCredential).accessToken;
    process.env.KAFKA_OIDC_AUDIENCE = "another-service";
    resetOidcProvidersForTests();
    try {
      const other = await viewerFromBearer(CLUSTER, token, nextClient());
      expect(!other.ok && other.failure.message).toContain("aud claim");
    } finally {
      process.env.KAFKA_OIDC_AUDIENCE = sso!.KAFKA_OIDC_AUDIENCE;
      resetOidcProvidersForTests();
    }

    // Its claims changed (here: a later expiry) after the provider signed it.
    const [header, payload, signature] = token.split(".");
    const altered = JSON.parse(Buffer.from(payload!, "base64url").toString()) as Record<string, unknown>;
    altered.exp = Math.floor(Date.now() / 1000) + 3600;
    const tampered = `${header}.${Buffer.from(JSON.stringify(altered)).toString("base64url")}.${signature}`;
    const refused = await viewerFromBearer(CLUSTER, tampered, nextClient());
    expect(!refused.ok && refused.failure.message).toContain("not signed by the provider's keys");

    // A genuine token of another provider (another issuer, another key), short-lived.
    const secret = readFileSync(sso!.KAFKA_OIDC_CLIENT_SECRET_FILE, "utf8").trim();
    const short = await startDevOidcProvider({
      port: 0,
      users: { alice: "alice-secret" },
      clients: [{ clientId: "kafka-security-console", clientSecret: secret, redirectUris: [REDIRECT] }],
      accessTokenSeconds: 1,
    });
    try {
      const config = await client.discovery(new URL(short.issuer), "kafka-security-console", secret, undefined, {
        execute: [client.allowInsecureRequests],
      });
      const params = { scope: sso!.KAFKA_OIDC_SCOPES, resource: sso!.KAFKA_OIDC_RESOURCE };
      const { access_token: foreign } = await tokensFor(config, REDIRECT, params, "alice", "alice-secret");
      const elsewhere = await viewerFromBearer(CLUSTER, foreign, nextClient());
      expect(!elsewhere.ok && elsewhere.failure.message).toContain("not signed by the provider's keys");

      // The same token where that provider is the cluster's: good at first, refused once expired.
      process.env.KAFKA_OIDC_ISSUER = short.issuer;
      resetOidcProvidersForTests();
      const fresh = await viewerFromBearer(CLUSTER, foreign, nextClient());
      expect(fresh.ok && fresh.viewer.principal).toBe("User:alice");
      await new Promise((r) => setTimeout(r, 7_000)); // 1 s of life and the 5 s clock tolerance
      // Verified tokens are remembered, but never past their expiry: this one is verified again, and refused.
      const expired = await viewerFromBearer(CLUSTER, foreign, nextClient());
      expect(!expired.ok && expired.failure.message).toContain("it has expired");
    } finally {
      process.env.KAFKA_OIDC_ISSUER = sso!.KAFKA_OIDC_ISSUER;
      resetOidcProvidersForTests();
      await short.close();
    }
  });
});
