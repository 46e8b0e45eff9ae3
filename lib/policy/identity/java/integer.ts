import { JavaException } from "./exception";

const INT_MAX = 2_147_483_647;

/**
 * Integer.parseInt(s) for the strings Kafka hands it here: runs of ASCII digits taken by
 * `\d*` / `\d+` (so no sign and no other digits). Empty or larger than Integer.MAX_VALUE
 * throws NumberFormatException with Java's message.
 */
export function parseJavaInt(s: string): number {
  if (!/^[0-9]+$/.test(s)) throw new JavaException("NumberFormatException", `For input string: "${s}"`);
  const n = Number(s);
  if (n > INT_MAX) throw new JavaException("NumberFormatException", `For input string: "${s}"`);
  return n;
}
