import { buildOpenApiDocument } from "@/lib/api/openapi";
import { ApiReference } from "@/components/api-reference/api-reference";
import { referenceModel } from "@/components/api-reference/model";

export const metadata = { title: "API reference" };

/** The OpenAPI document of /api/v1/openapi.json, for people (the console layout has signed the viewer in). */
export default function ApiReferencePage() {
  const document = buildOpenApiDocument();
  return <ApiReference areas={referenceModel(document)} version={String(document.openapi)} />;
}
