/**
 * `npm run oidc:dev`: the development OpenID Connect provider (dev-provider.ts) on
 * 127.0.0.1:${OIDC_DEV_PORT:-9400}, with the demo users (their demo passwords) and one client,
 * `kafka-security-console`, whose secret is in .oidc/client-secret (made on first start) and
 * whose redirect is the console's callback on ${CONSOLE_URL:-http://127.0.0.1:3000}, or on 127.0.0.1 or
 * localhost at any port. Access tokens live ${OIDC_DEV_ACCESS_TOKEN_SECONDS:-300} seconds.
 * It runs until interrupted.
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { DEMO_USERS, demoPassword } from "../seed/demo-data";
import { startDevOidcProvider } from "./dev-provider";

const port = Number(process.env.OIDC_DEV_PORT ?? 9400);
const consoleUrl = (process.env.CONSOLE_URL ?? "http://127.0.0.1:3000").replace(/\/$/, "");
/** The console on this machine, on any port (the provider's loopback rule). */
const LOOPBACK = ["http://127.0.0.1:3000", "http://localhost:3000"];
const dir = path.resolve(".oidc");
const secretFile = path.join(dir, "client-secret");
mkdirSync(dir, { recursive: true, mode: 0o700 });
if (!existsSync(secretFile)) writeFileSync(secretFile, randomBytes(24).toString("base64url"), { mode: 0o600 });

const idp = await startDevOidcProvider({
  port,
  users: Object.fromEntries(DEMO_USERS.map((u) => [u, demoPassword(u)])),
  clients: [
    {
      clientId: "kafka-security-console",
      clientSecret: readFileSync(secretFile, "utf8").trim(),
      redirectUris: [`${consoleUrl}/api/auth/oidc/callback`, ...LOOPBACK.map((o) => `${o}/api/auth/oidc/callback`)],
      postLogoutRedirectUris: [`${consoleUrl}/sign-in`, ...LOOPBACK.map((o) => `${o}/sign-in`)],
      anyLoopbackPort: true,
    },
  ],
  accessTokenSeconds: Number(process.env.OIDC_DEV_ACCESS_TOKEN_SECONDS ?? 300),
});
console.log(`oidc: development provider at ${idp.issuer} (JWKS ${idp.jwksUri}); client secret in ${secretFile}`);
const stop = () => void idp.close().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
