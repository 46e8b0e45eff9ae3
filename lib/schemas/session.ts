import { z } from "zod";

/** The password mechanisms the console's Kafka client speaks (lib/kafka-credential.ts's KAFKA_MECHANISMS). */
export const MECHANISMS = ["SCRAM-SHA-512", "SCRAM-SHA-256", "PLAIN"] as const;

/** One schema for the sign-in form, the sign-in server action and POST /api/v1/session. */
export const signInSchema = z.object({
  username: z.string().trim().min(1, "Enter your Kafka username").max(255, "At most 255 characters"),
  password: z.string().min(1, "Enter your password").max(1024, "At most 1024 characters"),
  mechanism: z.enum(MECHANISMS, { message: `Choose one of ${MECHANISMS.join(", ")}` }).default("SCRAM-SHA-512"),
  /** The id of the cluster to sign in to (lib/clusters.ts); absent or empty: the default cluster. */
  cluster: z.string().trim().max(40, "At most 40 characters").optional(),
});
export type SignInInput = z.infer<typeof signInSchema>;

export const sessionResponseSchema = z.object({ principal: z.string(), expiresAt: z.string() });
export const errorResponseSchema = z.object({
  error: z.string(),
  code: z.string().optional(),
  fieldErrors: z.record(z.string(), z.array(z.string())).optional(),
});
