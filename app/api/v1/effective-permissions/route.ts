import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/api/route";
import { effectivePermissionsQuerySchema } from "@/lib/schemas/effective-permissions";
import { exportFileName, exportToCsv } from "@/lib/services/effective-permissions";
import { effectivePermissionsExport } from "@/lib/services/effective-permissions-read";

export const dynamic = "force-dynamic";

/** "What can P do" or "who can do what" on a resource or under a prefix, from one ACL snapshot, as JSON or CSV. */
export const GET = apiRoute({ query: effectivePermissionsQuerySchema }, async ({ viewer, query }) => {
  const answer = await effectivePermissionsExport(viewer, query);
  if (!answer.ok) return answer;
  const headers = {
    "cache-control": "no-store",
    "content-disposition":
      `attachment; filename="` +
      `${exportFileName(answer.data.question, answer.data.aclSnapshot.takenAt, query.format)}"`,
    "x-acl-snapshot-taken-at": answer.data.aclSnapshot.takenAt,
  };
  if (query.format === "csv")
    return new Response(exportToCsv(answer.data), {
      headers: { ...headers, "content-type": "text/csv; charset=utf-8" },
    });
  return NextResponse.json(answer.data, { headers });
});
