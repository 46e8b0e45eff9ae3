import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/api/route";
import { dashboardQuerySchema } from "@/lib/schemas/dashboard";
import { getDashboard } from "@/lib/services/dashboard";

export const dynamic = "force-dynamic";

/** The caller's dashboard: every card read as the caller; a card Kafka refuses says so. */
export const GET = apiRoute({ query: dashboardQuerySchema }, async ({ viewer, query }) =>
  NextResponse.json(await getDashboard(viewer, { lint: query.lint === "1" }), {
    headers: { "cache-control": "no-store" },
  }),
);
