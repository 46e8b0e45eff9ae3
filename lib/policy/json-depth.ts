/**
 * How deeply a JSON text nests arrays and objects, read from the text itself, before any
 * parsing: a document thousands of levels deep parses, but everything that then walks it
 * recursively (JSON.stringify in a message, validators) overflows the stack. Callers refuse
 * such a text instead of parsing it. Strings are skipped (a `[` inside one does not count);
 * the text need not be valid JSON, the count is then only a bound for what a parser would build.
 */

/** The deepest nesting a request body or an uploaded JSON file may have; an ACL file needs 3. */
export const MAX_JSON_DEPTH = 64;

/** Whether `text` opens more than `limit` arrays or objects inside one another (stops counting there). */
export function jsonNestsDeeperThan(text: string, limit: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: skip to its closing quote, stepping over escapes.
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}
