import { z } from "zod";

export const clusterSchema = z.object({
  clusterId: z.string().nullable(),
  controllerId: z.number().int().nullable(),
  brokers: z.array(
    z.object({
      id: z.number().int(),
      host: z.string(),
      port: z.number().int(),
      rack: z.string().nullable().optional(),
    }),
  ),
  /** Brokers (by id when known) and configured bootstrap servers that did not answer just now. */
  unreachable: z.array(z.object({ id: z.number().int().nullable(), server: z.string(), message: z.string() })),
  principal: z.string(),
});
export type ClusterView = z.infer<typeof clusterSchema>;
