import { NextResponse } from "next/server";

/**
 * An export's answer (the audit trail, "what can P do", "what changed for P"): JSON, or with
 * `format` csv the CSV of the same data, as a file named `fileName`. Never cached. `jsonAsFile`:
 * the JSON is a download too.
 */
export function exportResponse<T>(
  data: T,
  options: {
    format: string | undefined;
    csv: (data: T) => string;
    fileName: string;
    jsonAsFile?: boolean;
    headers?: Record<string, string>;
  },
): Response {
  const headers = { "cache-control": "no-store", ...options.headers };
  const file = { "content-disposition": `attachment; filename="${options.fileName}"` };
  if (options.format === "csv")
    return new Response(options.csv(data), {
      headers: { ...headers, ...file, "content-type": "text/csv; charset=utf-8" },
    });
  return NextResponse.json(data, { headers: options.jsonAsFile ? { ...headers, ...file } : headers });
}
