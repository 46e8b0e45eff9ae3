import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/api/route";
import { accessChangesQuerySchema } from "@/lib/schemas/access-changes";
import { accessChangesCsv, accessChangesFileName, accessChangesFor } from "@/lib/services/access-changes";

export const dynamic = "force-dynamic";

/** What changed in a principal's access between two instants (lib/services/access-changes.ts), JSON or CSV. */
export const GET = apiRoute({ query: accessChangesQuerySchema }, async ({ viewer, query }) => {
  const answer = await accessChangesFor(viewer, query);
  if (!answer.ok) return answer;
  const headers = {
    "cache-control": "no-store",
    "content-disposition": `attachment; filename="${accessChangesFileName(answer.data, query.format)}"`,
  };
  if (query.format === "csv")
    return new Response(accessChangesCsv(answer.data), {
      headers: { ...headers, "content-type": "text/csv; charset=utf-8" },
    });
  return NextResponse.json(answer.data, { headers });
});
