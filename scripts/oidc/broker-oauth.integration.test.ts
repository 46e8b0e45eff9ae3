/**
 * The dev broker's OAUTHBEARER listener (#21, scripts/kafka.sh): Kafka's own
 * OAuthBearerValidatorCallbackHandler accepts the development provider's access tokens and
 * names the principal from `preferred_username`, so a person signed in through the provider's
 * form is the same principal as with a password: alice may not describe the cluster's ACLs,
 * admin (a super user) may. A token the provider did not sign is refused at authentication,
 * whatever its claims.
 *
 * The provider and the listener come up with the dev broker (`bash scripts/kafka.sh start`).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { Admin } from "@platformatic/kafka";
import { generateKeyPair, SignJWT } from "jose";
import * as client from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANY_ACL_FILTER } from "@/lib/policy";
import { filterToWire } from "@/lib/kafka/wire";
import { tokensFor } from "@/test/oidc/sign-in";
import { KAFKA_RESOURCE, KAFKA_RESOURCE_INDICATOR } from "./dev-provider";

const ISSUER = `http://127.0.0.1:${process.env.OIDC_DEV_PORT ?? "9400"}`;
const OAUTH_PORT = Number(process.env.KAFKA_OAUTH_PORT ?? Number(process.env.KAFKA_PORT ?? "9092") + 4);
const REDIRECT = "http://127.0.0.1:3000/api/auth/oidc/callback";
const PARAMS = { scope: `openid profile offline_access ${KAFKA_RESOURCE}`, resource: KAFKA_RESOURCE_INDICATOR };
const admins: Admin[] = [];
let config: client.Configuration;

beforeAll(async () => {
  const secret = readFileSync(path.resolve(".oidc/client-secret"), "utf8").trim();
  config = await client.discovery(new URL(ISSUER), "kafka-security-console", secret, undefined, {
    execute: [client.allowInsecureRequests],
  });
});

afterAll(async () => {
  await Promise.all(admins.map((a) => a.close().catch(() => undefined)));
});

function adminWith(token: string): Admin {
  const admin = new Admin({
    clientId: "it-broker-oauth",
    bootstrapBrokers: [`127.0.0.1:${OAUTH_PORT}`],
    sasl: { mechanism: "OAUTHBEARER", token },
    retries: 0,
  });
  admins.push(admin);
  return admin;
}

const describeAll = (admin: Admin) => admin.describeAcls({ filter: filterToWire(ANY_ACL_FILTER) });

/** Every message of the client's error and the errors nested in it (the outer one only says the call failed). */
async function failureOf(call: Promise<unknown>): Promise<string> {
  const messages = (e: unknown): string[] => {
    const x = e as { message?: string; errors?: unknown[] };
    return [x.message ?? String(e), ...(x.errors ?? []).flatMap(messages)];
  };
  try {
    await call;
  } catch (error) {
    return messages(error).join(" | ");
  }
  throw new Error("the call succeeded");
}

describe("the dev broker's OAUTHBEARER listener", () => {
  it("takes admin's token from the provider's sign-in form: a super user, who may describe every ACL", async () => {
    const tokens = await tokensFor(config, REDIRECT, PARAMS, "admin", "admin-secret");
    await expect(describeAll(adminWith(tokens.access_token))).resolves.toEqual(expect.any(Array));
  });

  it("takes alice's token as User:alice: Kafka's ACLs refuse her what they refuse her with a password", async () => {
    const tokens = await tokensFor(config, REDIRECT, PARAMS, "alice", "alice-secret");
    expect(await failureOf(describeAll(adminWith(tokens.access_token)))).toContain("Cluster authorization failed");
  });

  it("refuses at authentication a token signed by another key, even naming admin with the right claims", async () => {
    // Kafka 4.1.1 accepts this unless the listener names BrokerJwtValidator (scripts/kafka.sh).
    const { privateKey } = await generateKeyPair("RS256");
    const now = Math.floor(Date.now() / 1000);
    const forged = await new SignJWT({ preferred_username: "admin", scope: KAFKA_RESOURCE })
      .setProtectedHeader({ alg: "RS256", kid: "forged" })
      .setIssuer(ISSUER)
      .setAudience(KAFKA_RESOURCE)
      .setSubject("forged")
      .setIssuedAt(now)
      .setExpirationTime(now + 300)
      .sign(privateKey);
    const failure = await failureOf(describeAll(adminWith(forged)));
    expect(failure).toMatch(/SASL/);
    expect(failure).not.toContain("authorization");
  });

  it("refuses the provider's own token with its signature changed", async () => {
    const tokens = await tokensFor(config, REDIRECT, PARAMS, "admin", "admin-secret");
    const [head, body] = tokens.access_token.split(".");
    const forged = `${head}.${body}.${Buffer.from("not the provider's signature").toString("base64url")}`;
    expect(await failureOf(describeAll(adminWith(forged)))).toMatch(/SASL/);
  });
});
