import { apiRoute } from "@/lib/api/route";
import { auditQuerySchema } from "@/lib/schemas/audit";
import { auditToCsv, listAudit } from "@/lib/db/audit";

export const dynamic = "force-dynamic";

export const GET = apiRoute({ query: auditQuerySchema }, async ({ query }) => {
  const { format, ...filters } = query;
  const page = await listAudit(filters);
  if (format === "csv") {
    return new Response(auditToCsv(page.events), {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="audit-${new Date().toISOString().slice(0, 10)}.csv"`,
      },
    });
  }
  return { ok: true, data: page };
});
