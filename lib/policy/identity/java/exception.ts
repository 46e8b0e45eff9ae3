/**
 * A Java exception as Kafka would throw it: its simple class name (what the broker log
 * and the `principal-map` CLI show, e.g. `IllegalArgumentException`, `NoMatchingRule`,
 * `PatternSyntaxException`) and its getMessage() text, character for character.
 *
 * `UnsupportedJavaRegex` is the one name that is ours, not Kafka's: a rule uses a Java
 * regex construct the policy core does not reproduce (listed in ./regex/compiler.ts), or
 * needs more backtracking than the mirror allows, so the policy core cannot say what Kafka
 * would answer and says so instead of guessing.
 */
export class JavaException extends Error {
  override readonly name = "JavaException";

  constructor(
    /** Java's simple class name, e.g. "IllegalArgumentException". */
    readonly exception: string,
    message: string,
  ) {
    super(message);
  }
}

export const UNSUPPORTED_JAVA_REGEX = "UnsupportedJavaRegex";

export function unsupported(message: string): JavaException {
  return new JavaException(UNSUPPORTED_JAVA_REGEX, message);
}

export const isJavaException = (e: unknown): e is JavaException => e instanceof JavaException;
