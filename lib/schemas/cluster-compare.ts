/**
 * The Compare clusters page's question (GET /compare?other=&principal=&prefix=): the other
 * cluster, and the scope — a principal, a resource-name prefix, or both.
 */
import { z } from "zod";
import { safeString } from "./safe-text";
import { principalParamSchema } from "./effective-permissions";

export const compareQuerySchema = z
  .object({
    other: safeString().trim().min(1, "Choose the cluster to compare with").max(100),
    principal: z.union([z.literal("").transform(() => null), principalParamSchema]).default(""),
    prefix: safeString().max(1000, "At most 1000 characters").default(""),
  })
  .transform((v) => ({ other: v.other, principal: v.principal ?? null, prefix: v.prefix === "" ? null : v.prefix }))
  .refine((v) => v.principal !== null || v.prefix !== null, {
    message: "Give a principal, a resource-name prefix, or both",
    path: ["principal"],
  });
export type CompareQuery = z.output<typeof compareQuerySchema>;
