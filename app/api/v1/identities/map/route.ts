import { apiRoute } from "@/lib/api/route";
import { identityMapBodySchema } from "@/lib/schemas/identities";
import { mapIdentitiesFor } from "@/lib/services/identities";

export const dynamic = "force-dynamic";

/** Maps certificate DNs, PEM certificates and Kerberos principals to Kafka principals (changes nothing). */
export const POST = apiRoute({ body: identityMapBodySchema }, ({ request, viewer, body }) =>
  mapIdentitiesFor(viewer, body, request.signal),
);
