import { apiRoute } from "@/lib/api/route";
import { exportResponse } from "@/lib/api/export";
import { effectivePermissionsQuerySchema } from "@/lib/schemas/effective-permissions";
import { exportFileName, exportToCsv } from "@/lib/services/effective-permissions";
import { effectivePermissionsExport } from "@/lib/services/effective-permissions-read";

export const dynamic = "force-dynamic";

/** "What can P do" or "who can do what" on a resource or under a prefix, from one ACL snapshot, as JSON or CSV. */
export const GET = apiRoute({ query: effectivePermissionsQuerySchema }, async ({ viewer, query }) => {
  const answer = await effectivePermissionsExport(viewer, query);
  if (!answer.ok) return answer;
  const takenAt = answer.data.aclSnapshot.takenAt;
  return exportResponse(answer.data, {
    format: query.format,
    csv: exportToCsv,
    fileName: exportFileName(answer.data.question, takenAt, query.format),
    jsonAsFile: true,
    headers: { "x-acl-snapshot-taken-at": takenAt },
  });
});
