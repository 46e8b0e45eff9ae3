/**
 * The dev broker's OAUTHBEARER listener (#21, scripts/kafka.sh): Kafka's own
 * OAuthBearerValidatorCallbackHandler accepts the development provider's access tokens and
 * names the principal from `preferred_username`, so a person signed in through the provider's
 * form is the same principal as with a password: alice may not describe the cluster's ACLs,
 * admin (a super user) may. A token that is not the provider's is refused at authentication.
 *
 * The provider and the listener come up with the dev broker (`bash scripts/kafka.sh start`).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { Admin } from "@platformatic/kafka";
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

describe("the dev broker's OAUTHBEARER listener", () => {
  it("takes admin's token from the provider's sign-in form: a super user, who may describe every ACL", async () => {
    const tokens = await tokensFor(config, REDIRECT, PARAMS, "admin", "admin-secret");
    const resources = await describeAll(adminWith(tokens.access_token));
    expect(resources.length).toBeGreaterThan(0);
  });

  it("takes alice's token as User:alice: Kafka's ACLs refuse her what they refuse her with a password", async () => {
    const tokens = await tokensFor(config, REDIRECT, PARAMS, "alice", "alice-secret");
    await expect(describeAll(adminWith(tokens.access_token))).rejects.toThrow(/authoriz/i);
  });

  it("refuses a token it cannot verify at authentication", async () => {
    const tokens = await tokensFor(config, REDIRECT, PARAMS, "alice", "alice-secret");
    const [head, body] = tokens.access_token.split(".");
    const forged = `${head}.${body}.${Buffer.from("not the provider's signature").toString("base64url")}`;
    await expect(describeAll(adminWith(forged))).rejects.toThrow(/authenticat|SASL/i);
  });
});
