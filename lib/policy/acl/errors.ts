/**
 * The one error the ACL policy core throws on purpose: the input is not something Kafka
 * could ever have been asked (a request without a principal type, an operation named
 * `ANY` in an authorize request, a malformed ACL export). Callers turn it into a user
 * message (the CLI: exit 2 and `{ "error": message }`); anything else is a bug.
 */
export class PolicyInputError extends Error {
  override readonly name = "PolicyInputError";

  constructor(message: string) {
    super(message);
  }
}
