import { apiRoute } from "@/lib/api/route";
import { exportResponse } from "@/lib/api/export";
import { auditQuerySchema } from "@/lib/schemas/audit";
import { auditToCsv, listAuditFor } from "@/lib/services/audit-view";

export const dynamic = "force-dynamic";

/** The events the caller may read (lib/services/audit-view.ts decides from Kafka), as JSON or CSV. */
export const GET = apiRoute({ query: auditQuerySchema }, async ({ viewer, query }) => {
  const { format, ...filters } = query;
  const page = await listAuditFor(viewer, filters);
  if (!page.ok) return page;
  return exportResponse(page.data, {
    format,
    csv: (data) => auditToCsv(data.events),
    fileName: `audit-${new Date().toISOString().slice(0, 10)}.csv`,
  });
});
