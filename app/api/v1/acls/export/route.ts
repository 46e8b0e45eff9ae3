import { apiRoute } from "@/lib/api/route";
import { aclExportQuerySchema } from "@/lib/schemas/acl-io";
import { exportAcls } from "@/lib/services/acl-import";

export const dynamic = "force-dynamic";

/** Every ACL the caller may describe, as a file: JSON (default), CSV, or YAML grouped by principal. */
export const GET = apiRoute({ query: aclExportQuerySchema }, async ({ viewer, query }) => {
  const file = await exportAcls(viewer, query.format);
  if (!file.ok) return file;
  return new Response(file.data.body, {
    headers: {
      "content-type": file.data.contentType,
      "content-disposition": `attachment; filename="${file.data.fileName}"`,
      "cache-control": "no-store",
      "x-acl-count": String(file.data.count),
    },
  });
});
