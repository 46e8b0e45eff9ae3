import { z } from "zod";
import { OPERATIONS, PATTERN_TYPES, PERMISSION_TYPES, RESOURCE_TYPES } from "@/lib/policy";

/** An ACL binding as the API returns it (responses; request bodies use acls.ts's bounded schema). */
export const aclBindingResponseSchema = z.object({
  resourceType: z.enum(RESOURCE_TYPES),
  resourceName: z.string(),
  patternType: z.enum(PATTERN_TYPES),
  principal: z.string(),
  host: z.string(),
  operation: z.enum(OPERATIONS),
  permissionType: z.enum(PERMISSION_TYPES),
});
