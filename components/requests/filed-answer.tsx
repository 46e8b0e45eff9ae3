import Link from "@/components/link";
import { Alert, ResultPanel } from "@/components/ui/alert";
import type { ActionResult } from "@/lib/schemas/result";
import type { RequestStepResult } from "@/lib/schemas/requests";

/**
 * What a form that files a request shows after its answer: the message and a link to the new
 * request (`${testId}-done`, `${testId}-link`), or the refusal with the errors the form does not
 * show beside its fields (`${testId}-error`).
 */
export function FiledAnswer({
  state,
  testId,
  shownFields,
}: {
  state: ActionResult<RequestStepResult> | null;
  testId: string;
  shownFields: readonly string[];
}) {
  if (state?.ok)
    return (
      <Alert tone="success" testId={`${testId}-done`}>
        {state.data.message}{" "}
        <Link href={`/requests/${state.data.request.id}`} data-testid={`${testId}-link`}>
          Open the request
        </Link>
      </Alert>
    );
  return <ResultPanel result={state} testId={testId} shownFields={shownFields} />;
}
