import { apiRoute } from "@/lib/api/route";
import { changeRoute } from "@/lib/api/change-route";
import { listScramUsers } from "@/lib/services/scram-users";

export const dynamic = "force-dynamic";

export const GET = apiRoute({}, ({ viewer }) => listScramUsers(viewer));

/** Creates a user, adds a mechanism or rotates a password (generated and answered once when none is given). */
export const POST = changeRoute("scram.upsert");

/** Deletes one mechanism's credential, or every credential of the user. */
export const DELETE = changeRoute("scram.delete");
