import { apiRoute } from "@/lib/api/route";
import { exportResponse } from "@/lib/api/export";
import { accessChangesQuerySchema } from "@/lib/schemas/access-changes";
import { accessChangesCsv, accessChangesFileName, accessChangesFor } from "@/lib/services/access-changes";

export const dynamic = "force-dynamic";

/** What changed in a principal's access between two instants (lib/services/access-changes.ts), JSON or CSV. */
export const GET = apiRoute({ query: accessChangesQuerySchema }, async ({ viewer, query }) => {
  const answer = await accessChangesFor(viewer, query);
  if (!answer.ok) return answer;
  return exportResponse(answer.data, {
    format: query.format,
    csv: accessChangesCsv,
    fileName: accessChangesFileName(answer.data, query.format),
    jsonAsFile: true,
  });
});
