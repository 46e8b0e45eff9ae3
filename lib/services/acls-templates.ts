/**
 * The template picker of the Create form: a client role expanded into the bindings
 * kafka-acls.sh --producer / --consumer (with --transactional-id) would create, and the
 * same for a Kafka Streams application (the policy core's templates).
 */
import {
  consumerTemplate,
  producerTemplate,
  streamsTemplate,
  transactionalTemplate,
  type AclBinding,
  type ResourceSelector,
} from "@/lib/policy";
import { splitNames, type AclTemplateForm } from "@/lib/schemas/acls";

export function expandTemplate(form: AclTemplateForm): AclBinding[] {
  const patternType = form.prefixed ? ("PREFIXED" as const) : ("LITERAL" as const);
  const selectors = (names: string): ResourceSelector[] => splitNames(names).map((name) => ({ name, patternType }));
  const one = (name: string): ResourceSelector => ({ name, patternType });
  const host = form.host;
  switch (form.template) {
    case "producer":
      return producerTemplate(form.principal, selectors(form.topics), { host, idempotent: form.idempotent });
    case "consumer":
      return consumerTemplate(form.principal, selectors(form.topics), one(form.group), { host });
    case "transactional":
      return transactionalTemplate(form.principal, selectors(form.topics), one(form.transactionalId), {
        host,
        ...(form.group !== "" ? { group: one(form.group) } : {}),
      });
    case "streams":
      return streamsTemplate(
        form.principal,
        form.applicationId,
        selectors(form.inputTopics),
        selectors(form.outputTopics),
        {
          host,
          exactlyOnce: form.exactlyOnce,
        },
      );
    default:
      return [];
  }
}
