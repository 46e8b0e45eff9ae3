/**
 * Text the console accepts from outside: no NUL, no other C0 control character except
 * tab, CR and LF, and no lone UTF-16 surrogate. PostgreSQL refuses NUL in text columns
 * and lone surrogates cannot be encoded as UTF-8, so such input would otherwise fail deep
 * inside a query (a 500) instead of being refused up front with a field error (a 400).
 *
 * - `unsafeTextProblem(s)`: the message for one string, or null.
 * - `findUnsafeText(value)`: every offending string (and object key) in a parsed JSON
 *   value, as field errors keyed by path ("bindings.0.principal").
 * - `findUnsafeFormData(entries)`: the same for FormData entries (files are skipped).
 * - `safeString()`: a zod string that refuses the same characters, for form schemas.
 * - `decodeStrictUtf8(bytes)` / `strictSearchParams(url)`: decoding that refuses invalid
 *   or overlong UTF-8 instead of silently turning it into U+FFFD.
 */
import { z } from "zod";

export const NUL_MESSAGE = "Must not contain the NUL character (U+0000).";
export const CONTROL_MESSAGE = "Must not contain control characters (U+0001 to U+001F other than tab and line breaks).";
export const SURROGATE_MESSAGE = "Must not contain a lone surrogate (text that is not valid Unicode).";
export const INVALID_UTF8_MESSAGE = "Must be valid UTF-8 text (no invalid or overlong byte sequences).";

/** The same message about a field or parameter name instead of its value. */
const aboutName = (message: string) => `Its name ${message.charAt(0).toLowerCase()}${message.slice(1)}`;

// C0 controls except tab (09), LF (0A) and CR (0D): matching them is the point here.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0001-\u0008\u000B\u000C\u000E-\u001F]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why `text` is refused, or null when it is fine. */
export function unsafeTextProblem(text: string): string | null {
  if (text.includes("\u0000")) return NUL_MESSAGE;
  if (CONTROL.test(text)) return CONTROL_MESSAGE;
  if (LONE_SURROGATE.test(text)) return SURROGATE_MESSAGE;
  return null;
}

export type FieldErrors = Record<string, string[]>;

function add(errors: FieldErrors, path: readonly (string | number)[], message: string) {
  const key = path.map(String).join(".") || "_";
  const list = (errors[key] ??= []);
  if (!list.includes(message)) list.push(message);
}

/**
 * Walks a parsed JSON value (strings, numbers, booleans, null, arrays, plain objects)
 * and returns field errors for every unsafe string; an object key that is itself unsafe
 * is reported at the object's path (never echoed). Empty when everything is fine.
 */
export function findUnsafeText(value: unknown, basePath: readonly (string | number)[] = []): FieldErrors {
  const errors: FieldErrors = {};
  // An explicit stack (a deeply nested document must not overflow the call stack) and
  // paths as parent links, spelled out only for an error (copying them per level would
  // make a deep document quadratic).
  type Path = { parent: Path | null; key: string | number } | null;
  const spell = (path: Path): (string | number)[] => {
    const keys: (string | number)[] = [];
    for (let p = path; p; p = p.parent) keys.push(p.key);
    return [...basePath, ...keys.reverse()];
  };
  const stack: Array<{ value: unknown; path: Path }> = [{ value, path: null }];
  while (stack.length) {
    const { value: current, path } = stack.pop()!;
    if (typeof current === "string") {
      const problem = unsafeTextProblem(current);
      if (problem) add(errors, spell(path), problem);
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], path: { parent: path, key: i } });
    } else if (current !== null && typeof current === "object") {
      const entries = Object.entries(current as Record<string, unknown>);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i]!;
        const keyProblem = unsafeTextProblem(key);
        if (keyProblem) add(errors, spell(path), aboutName(keyProblem));
        else stack.push({ value: child, path: { parent: path, key } });
      }
    }
  }
  return errors;
}

/** Field errors for FormData entries (or any [name, value] pairs); File values are skipped. */
export function findUnsafeFormData(entries: Iterable<[string, unknown]>): FieldErrors {
  const errors: FieldErrors = {};
  for (const [name, value] of entries) {
    const nameProblem = unsafeTextProblem(name);
    if (nameProblem) {
      add(errors, ["_"], aboutName(nameProblem));
      continue;
    }
    if (typeof value !== "string") continue;
    const problem = unsafeTextProblem(value);
    if (problem) add(errors, [name], problem);
  }
  return errors;
}

export const hasErrors = (errors: FieldErrors) => Object.keys(errors).length > 0;

/** A zod string that refuses NUL, other C0 controls and lone surrogates. */
export function safeString(params?: { error?: string }) {
  return z.string(params).superRefine((value, ctx) => {
    const problem = unsafeTextProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });
}

export class InvalidUtf8Error extends Error {
  override name = "InvalidUtf8Error";
}

/** UTF-8 bytes to text; invalid or overlong sequences throw InvalidUtf8Error (no U+FFFD). */
export function decodeStrictUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new InvalidUtf8Error(INVALID_UTF8_MESSAGE);
  }
}

/** Percent-decoding (and `+` as space for query strings) with strict UTF-8. */
export function strictPercentDecode(raw: string, plusIsSpace: boolean): string {
  const text = plusIsSpace ? raw.replace(/\+/g, " ") : raw;
  if (!text.includes("%")) return text;
  const encoder = new TextEncoder();
  const chunks: Uint8Array[] = [];
  // Runs of %XX escapes become bytes; everything between them is encoded as it is.
  for (const part of text.split(/((?:%[0-9a-fA-F]{2})+)/)) {
    if (/^(?:%[0-9a-fA-F]{2})+$/.test(part)) {
      chunks.push(Uint8Array.from(part.slice(1).split("%"), (hex) => parseInt(hex, 16)));
    } else if (part) {
      chunks.push(encoder.encode(part));
    }
  }
  const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return decodeStrictUtf8(bytes);
}

/**
 * Problems with a URL's path segments and query string: invalid UTF-8 after
 * percent-decoding, or unsafe characters. Keys are "path" for the path and the query
 * parameter's name (or "query" when the name itself is the problem).
 */
export function findUnsafeUrl(url: URL): FieldErrors {
  const errors: FieldErrors = {};
  for (const segment of url.pathname.split("/")) {
    try {
      const problem = unsafeTextProblem(strictPercentDecode(segment, false));
      if (problem) add(errors, ["path"], problem);
    } catch {
      add(errors, ["path"], INVALID_UTF8_MESSAGE);
    }
  }
  const query = url.search.replace(/^\?/, "");
  if (query) {
    for (const pair of query.split("&")) {
      if (!pair) continue;
      const eq = pair.indexOf("=");
      const rawName = eq >= 0 ? pair.slice(0, eq) : pair;
      const rawValue = eq >= 0 ? pair.slice(eq + 1) : "";
      let name: string;
      try {
        name = strictPercentDecode(rawName, true);
      } catch {
        add(errors, ["query"], aboutName(INVALID_UTF8_MESSAGE));
        continue;
      }
      const nameProblem = unsafeTextProblem(name);
      if (nameProblem) {
        add(errors, ["query"], aboutName(nameProblem));
        continue;
      }
      try {
        const problem = unsafeTextProblem(strictPercentDecode(rawValue, true));
        if (problem) add(errors, [name], problem);
      } catch {
        add(errors, [name], INVALID_UTF8_MESSAGE);
      }
    }
  }
  return errors;
}
