import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/api/route";
import { auditQuerySchema } from "@/lib/schemas/audit";
import { auditToCsv, listAuditFor } from "@/lib/services/audit-view";

export const dynamic = "force-dynamic";

/** The events the caller may read (lib/services/audit-view.ts decides from Kafka), as JSON or CSV. */
export const GET = apiRoute({ query: auditQuerySchema }, async ({ viewer, query }) => {
  const { format, ...filters } = query;
  const page = await listAuditFor(viewer, filters);
  if (!page.ok) return page;
  if (format === "csv") {
    return new Response(auditToCsv(page.data.events), {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="audit-${new Date().toISOString().slice(0, 10)}.csv"`,
        "cache-control": "no-store",
      },
    });
  }
  return NextResponse.json(page.data, { headers: { "cache-control": "no-store" } });
});
