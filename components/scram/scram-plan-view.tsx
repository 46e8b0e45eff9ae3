import { CliCommands } from "@/components/plans/cli-commands";
import type { ScramPlanView } from "@/lib/schemas/plans";

const credentials = (list: ScramPlanView["after"] | null) =>
  list === null
    ? "not known (Kafka does not let the plan's maker describe them)"
    : list.length === 0
      ? "none"
      : list.map((c) => `${c.mechanism} (${c.iterations} iterations)`).join(", ");

/**
 * A sealed SCRAM plan (kind scram.change) as previewed: the user's credentials now and after,
 * and the kafka-configs.sh command. Its password is generated when it is applied: the plan
 * holds none.
 */
export function ScramPlanPreview({ plan }: { plan: ScramPlanView }) {
  return (
    <section className="card" aria-label="SCRAM change" data-testid="scram-plan" data-plan-id={plan.id}>
      <p data-testid="scram-plan-summary">
        <strong>{plan.summary}</strong>
      </p>
      {plan.notApplicable && <p className="field-error">{plan.notApplicable}</p>}
      <dl className="plain">
        <dt>Credentials of {plan.principal} now</dt>
        <dd className="mono">{credentials(plan.before)}</dd>
        <dt>Once applied</dt>
        <dd className="mono" data-testid="scram-plan-after">
          {credentials(plan.after)}
        </dd>
      </dl>
      {plan.change !== "deleted" && (
        <p className="muted">
          The password is generated when the plan is applied. Approving a request keeps it, encrypted, for the requester
          to see once; the approver never sees it.
        </p>
      )}
      <CliCommands commands={plan.cli.map((command) => ({ command }))} label="kafka-configs.sh equivalent" />
    </section>
  );
}
