/**
 * Identities (the page's form and POST /api/v1/identities/map): principal mapping rules
 * as written in server.properties, and the clients to map — certificate DNs, PEM
 * certificates (their subject is taken) or Kerberos principals.
 */
import { z } from "zod";
import { OPERATIONS, PATTERN_TYPES, RESOURCE_TYPES } from "@/lib/policy";

/** At most this many clients per request. */
export const MAX_IDENTITY_INPUTS = 100;
const MAX_RULES = 20_000;
const MAX_PEM = 64 * 1024;

const rules = (description: string) =>
  z
    .string()
    .max(MAX_RULES, `At most ${MAX_RULES} characters`)
    .nullable()
    .optional()
    .meta({ description: `${description} Omitted: the console's setting; null: unset (DEFAULT).` });

export const identityInputSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("ssl"),
    distinguishedName: z
      .string()
      .max(4000, "At most 4000 characters")
      .nullable()
      .meta({ description: "The DN exactly as Kafka sees it (RFC 2253); null: a client without a certificate" }),
  }),
  z.object({
    type: z.literal("kerberos"),
    principal: z.string().min(1, "Enter a Kerberos principal").max(1000, "At most 1000 characters"),
  }),
  z.object({
    type: z.literal("certificate"),
    pem: z
      .string()
      .min(1, "Paste a PEM certificate")
      .max(MAX_PEM, `At most ${MAX_PEM} characters`)
      .meta({ description: "A PEM certificate; its subject is the DN (the first certificate of a chain)" }),
  }),
]);
export type IdentityInput = z.infer<typeof identityInputSchema>;

export const identityMapBodySchema = z.object({
  sslRules: rules("ssl.principal.mapping.rules exactly as written."),
  kerberosRules: rules("sasl.kerberos.principal.to.local.rules exactly as written."),
  defaultRealm: z
    .string()
    .max(255)
    .nullable()
    .optional()
    .meta({ description: "The brokers' Kerberos default realm. Omitted: the console's setting; null: none (\"\")." }),
  inputs: z
    .array(identityInputSchema)
    .min(1, "Enter at least one DN, certificate or Kerberos principal")
    .max(MAX_IDENTITY_INPUTS, `At most ${MAX_IDENTITY_INPUTS} at once`),
});
export type IdentityMapBody = z.infer<typeof identityMapBodySchema>;

const javaError = z.object({
  error: z.string().meta({ description: "Java's exception class, as Kafka throws it" }),
  message: z.string(),
});

export const mappingOutcomeSchema = z.discriminatedUnion("ok", [
  z.object({
    ok: z.literal(true),
    name: z.string(),
    principal: z.string(),
    rule: z.object({ index: z.number().int(), text: z.string() }).nullable().meta({
      description: "The rule that produced the name (0-based), as Kafka prints it; null when no rule was consulted",
    }),
  }),
  javaError.extend({
    ok: z.literal(false),
    stage: z.enum(["config", "mapping", "certificate"]).meta({
      description:
        "config: the rules are refused (the broker would not start); mapping: this client is refused; " +
        "certificate: the PEM could not be read",
    }),
    brokerError: javaError.optional().meta({ description: "What the broker logs around the mapper's exception" }),
  }),
]);

export const principalAccessSchema = z.object({
  principal: z.string(),
  superUser: z.boolean(),
  /** Each pattern this principal's (and User:*'s) ACLs name, with what it may and may not do there. */
  patterns: z.array(
    z.object({
      resourceType: z.enum(RESOURCE_TYPES),
      patternType: z.enum(PATTERN_TYPES),
      resourceName: z.string(),
      allowed: z.array(z.enum(OPERATIONS)),
      denied: z.array(z.enum(OPERATIONS)),
    }),
  ),
  /** Patterns left out of `patterns` (it holds the first 50). */
  more: z.number().int(),
});
export type PrincipalAccess = z.infer<typeof principalAccessSchema>;

export const identityResultSchema = z.object({
  input: z.object({ type: z.enum(["ssl", "kerberos", "certificate"]), value: z.string().nullable() }),
  certificate: z.object({ subject: z.string(), issuer: z.string(), notes: z.array(z.string()) }).nullable(),
  outcome: mappingOutcomeSchema,
  access: principalAccessSchema.nullable(),
});
export type IdentityResult = z.infer<typeof identityResultSchema>;

export const identityMapResultSchema = z.object({
  config: z.object({
    sslRules: z.string().nullable(),
    kerberosRules: z.string().nullable(),
    defaultRealm: z.string().nullable(),
    /** The rules as Kafka parsed them (how it prints them), empty when refused. */
    parsedSslRules: z.array(z.string()),
    parsedKerberosRules: z.array(z.string()),
    error: javaError.extend({ property: z.string() }).nullable(),
  }),
  results: z.array(identityResultSchema),
  /** Why `access` is null everywhere, when it is (Kafka does not let the caller describe ACLs). */
  accessUnavailable: z.string().nullable(),
});
export type IdentityMapResult = z.infer<typeof identityMapResultSchema>;
