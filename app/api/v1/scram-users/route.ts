import { apiRoute } from "@/lib/api/route";
import { scramCredentialDeleteSchema, scramCredentialUpsertSchema } from "@/lib/schemas/scram-users";
import { deleteScramUser, listScramUsers, upsertScramUser } from "@/lib/services/scram-users";

export const dynamic = "force-dynamic";

export const GET = apiRoute({}, ({ viewer }) => listScramUsers(viewer));

/** Creates a user, adds a mechanism or rotates a password (generated and answered once when none is given). */
export const POST = apiRoute({ body: scramCredentialUpsertSchema }, ({ viewer, body }) => upsertScramUser(viewer, body));

/** Deletes one mechanism's credential, or every credential of the user. */
export const DELETE = apiRoute({ body: scramCredentialDeleteSchema }, ({ viewer, body }) => deleteScramUser(viewer, body));
