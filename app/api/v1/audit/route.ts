import { apiRoute } from "@/lib/api/route";
import { auditQuerySchema } from "@/lib/schemas/audit";
import { auditToCsv, InvalidCursorError, listAudit } from "@/lib/db/audit";

export const dynamic = "force-dynamic";

export const GET = apiRoute({ query: auditQuerySchema }, async ({ query }) => {
  const { format, ...filters } = query;
  let page;
  try {
    page = await listAudit(filters);
  } catch (error) {
    if (error instanceof InvalidCursorError) return { ok: false, code: "VALIDATION", message: error.message, fieldErrors: { cursor: [error.message] } };
    throw error;
  }
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
