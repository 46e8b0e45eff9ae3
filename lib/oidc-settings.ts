/**
 * Single sign-on settings of a cluster (#21, docs/sso.md): which OpenID Connect provider its
 * people sign in with, and how its brokers turn that provider's access tokens into principals.
 * Read from the clusters file's `oidc:` or the single-cluster KAFKA_OIDC_* variables; checked
 * here, the client secret read from its file (never written in the settings themselves).
 */
import { readFileSync } from "node:fs";
import { z } from "zod";

export interface OidcSettings {
  /** What the sign-in button says: "Sign in with <name>". */
  name: string;
  issuer: string;
  clientId: string;
  /** From `clientSecretFile`; null for a public client (PKCE alone). */
  clientSecret: string | null;
  scopes: readonly string[];
  /** The claim the brokers name the principal by (`sasl.oauthbearer.sub.claim.name`). */
  principalClaim: string;
  /** The audience access tokens must carry (`sasl.oauthbearer.expected.audience`); null: not checked. */
  audience: string | null;
  /** An RFC 8707 resource indicator to ask access tokens for (e.g. `urn:kafka`); null: none. */
  resource: string | null;
  /** The brokers' OAUTHBEARER listener; null: the cluster's bootstrapServers. */
  bootstrapServers: readonly string[] | null;
  /** Offer only single sign-on: no password form for this cluster. */
  only: boolean;
}

export const DEFAULT_OIDC_SCOPES = ["openid", "profile", "offline_access"] as const;

const hostPort = /^[^\s:]+:\d{1,5}$/;
const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** `https:` issuers only, but `http:` on this machine (a development provider). */
function issuerProblem(issuer: string): string | null {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return "issuer must be a URL (https://…)";
  }
  if (url.protocol === "https:") return null;
  if (url.protocol === "http:" && LOOPBACK.has(url.hostname)) return null;
  return "issuer must be an https:// URL (http:// only on 127.0.0.1 or localhost)";
}

export const oidcSchema = z
  .object({
    name: z.string().trim().min(1, "name must not be empty").optional(),
    issuer: z.string({ error: "issuer must be a URL" }).trim().min(1, "issuer must not be empty"),
    clientId: z.string({ error: "clientId must be a string" }).trim().min(1, "clientId must not be empty"),
    clientSecretFile: z.string().trim().min(1, "clientSecretFile must not be empty").optional(),
    scopes: z
      .union([z.string(), z.array(z.string())], { error: "scopes must be a list (or one string, space-separated)" })
      .transform((v) => (typeof v === "string" ? v.split(/\s+/) : v).map((s) => s.trim()).filter(Boolean))
      .optional(),
    principalClaim: z.string().trim().min(1, "principalClaim must not be empty").default("sub"),
    audience: z.string().trim().min(1, "audience must not be empty").optional(),
    resource: z.string().trim().min(1, "resource must not be empty").optional(),
    bootstrapServers: z
      .union([z.string(), z.array(z.string())], { error: "bootstrapServers must be a list of host:port" })
      .transform((v) => (typeof v === "string" ? v.split(",") : v).map((s) => s.trim()).filter(Boolean))
      .pipe(z.array(z.string().regex(hostPort, "must be host:port")).min(1, "bootstrapServers must name a host:port"))
      .optional(),
    only: z.boolean({ error: "only must be true or false" }).default(false),
  })
  .strict()
  .superRefine((o, ctx) => {
    const problem = issuerProblem(o.issuer);
    if (problem) ctx.addIssue({ code: "custom", path: ["issuer"], message: problem });
    if (o.clientSecretFile !== undefined) {
      const secret = readSecret(o.clientSecretFile);
      if (typeof secret !== "string")
        ctx.addIssue({ code: "custom", path: ["clientSecretFile"], message: secret.problem });
    }
    const scopes = o.scopes ?? [...DEFAULT_OIDC_SCOPES];
    if (!scopes.includes("openid"))
      ctx.addIssue({ code: "custom", path: ["scopes"], message: 'scopes must include "openid"' });
  });

export type OidcInput = z.input<typeof oidcSchema>;

/** The secret in `file` (trimmed), or why it cannot be used; the problem never quotes the file's content. */
function readSecret(file: string): string | { problem: string } {
  let text: string;
  try {
    text = readFileSync(file, "utf8").trim();
  } catch (error) {
    return { problem: `${file} cannot be read: ${error instanceof Error ? error.message : String(error)}` };
  }
  return text.length > 0 ? text : { problem: `${file} is empty` };
}

/** Checked settings (oidcSchema's output) as the console uses them. */
export function toOidcSettings(o: z.output<typeof oidcSchema>): OidcSettings {
  const secret = o.clientSecretFile === undefined ? null : readSecret(o.clientSecretFile);
  return {
    name: o.name ?? new URL(o.issuer).host,
    issuer: o.issuer.replace(/\/$/, ""),
    clientId: o.clientId,
    clientSecret: typeof secret === "string" ? secret : null,
    scopes: o.scopes && o.scopes.length > 0 ? o.scopes : [...DEFAULT_OIDC_SCOPES],
    principalClaim: o.principalClaim,
    audience: o.audience ?? null,
    resource: o.resource ?? null,
    bootstrapServers: o.bootstrapServers ?? null,
    only: o.only,
  };
}

/** The single-cluster variables that describe its provider. */
export const OIDC_VARIABLES = {
  KAFKA_OIDC_ISSUER: "issuer",
  KAFKA_OIDC_NAME: "name",
  KAFKA_OIDC_CLIENT_ID: "clientId",
  KAFKA_OIDC_CLIENT_SECRET_FILE: "clientSecretFile",
  KAFKA_OIDC_SCOPES: "scopes",
  KAFKA_OIDC_PRINCIPAL_CLAIM: "principalClaim",
  KAFKA_OIDC_AUDIENCE: "audience",
  KAFKA_OIDC_RESOURCE: "resource",
  KAFKA_OIDC_BOOTSTRAP_SERVERS: "bootstrapServers",
  KAFKA_OIDC_ONLY: "only",
} as const;

/**
 * The provider the KAFKA_OIDC_* variables describe: null when KAFKA_OIDC_ISSUER is unset,
 * else the settings or every problem (each naming its variable).
 */
export function oidcFromVariables(
  env: Readonly<Partial<Record<keyof typeof OIDC_VARIABLES, string>>>,
): OidcSettings | null | { problems: string[] } {
  const set = Object.entries(OIDC_VARIABLES).filter(
    ([name]) => (env[name as keyof typeof OIDC_VARIABLES] ?? "") !== "",
  );
  if (set.length === 0) return null;
  if (!env.KAFKA_OIDC_ISSUER)
    return { problems: [`${set.map(([n]) => n).join(", ")}: set without KAFKA_OIDC_ISSUER, which names the provider`] };
  const input: Record<string, unknown> = {};
  for (const [name, key] of set) input[key] = env[name as keyof typeof OIDC_VARIABLES]!.trim();
  const problems: string[] = [];
  if (input.only !== undefined) {
    const text = env.KAFKA_OIDC_ONLY!.trim().toLowerCase();
    input.only = ["true", "1", "yes"].includes(text);
    if (!input.only && !["false", "0", "no"].includes(text)) problems.push("KAFKA_OIDC_ONLY: must be true or false");
  }
  const parsed = oidcSchema.safeParse(input);
  const names = Object.fromEntries(Object.entries(OIDC_VARIABLES).map(([n, k]) => [k, n]));
  if (!parsed.success)
    problems.push(...parsed.error.issues.map((i) => `${names[String(i.path[0])] ?? "KAFKA_OIDC_*"}: ${i.message}`));
  return parsed.success && problems.length === 0 ? toOidcSettings(parsed.data) : { problems };
}
