import { Alert } from "./alert";

/**
 * What the viewer can see of an audited list (the audit trail, drift, history), folded, and
 * the checks Kafka could not answer, by which only what is certain is shown. `testId` names
 * both: `${testId}-visibility` and `${testId}-problems`.
 */
export function VisibilityNote({
  visibility,
  problems,
  testId,
}: {
  visibility: readonly string[];
  problems: readonly string[];
  testId: string;
}) {
  return (
    <>
      <details className="card" data-testid={`${testId}-visibility`}>
        <summary>What you can see here</summary>
        <ul>
          {visibility.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </details>
      {problems.length > 0 && (
        <Alert tone="error" testId={`${testId}-problems`}>
          Kafka could not be asked what you may see, so only what is certain is shown: {problems.join(" ")}
        </Alert>
      )}
    </>
  );
}
