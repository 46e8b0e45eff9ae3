import type { InputHTMLAttributes, Ref } from "react";

/** At most this many suggestions go into the page: a datalist of 10,000 names helps nobody. */
export const MAX_SUGGESTIONS = 200;

/**
 * The suggestions to offer for what is typed: names that start with it first, then names
 * that contain it, case-insensitively (Kafka names are case-sensitive, so the value itself
 * is never changed), without duplicates, at most `limit`.
 */
export function rankSuggestions(suggestions: readonly string[], typed: string, limit = MAX_SUGGESTIONS): string[] {
  const needle = typed.trim().toLowerCase();
  const seen = new Set<string>();
  const starts: string[] = [];
  const contains: string[] = [];
  for (const s of suggestions) {
    if (seen.has(s)) continue;
    seen.add(s);
    const hay = s.toLowerCase();
    if (needle === "" || hay.startsWith(needle)) starts.push(s);
    else if (hay.includes(needle)) contains.push(s);
  }
  return [...starts, ...contains].slice(0, limit);
}

/**
 * A text input with suggestions (a native `<datalist>`: the browser filters as you type,
 * keyboard and screen readers included, and it works without JavaScript). The page passes
 * the suggestions (principals, topics, groups it read from the cluster); any other value
 * may still be typed. Use inside a `Field`, which sets `id`.
 */
export function Combobox({
  id,
  suggestions,
  defaultValue,
  ref,
  ...input
}: { id?: string; suggestions: readonly string[]; ref?: Ref<HTMLInputElement> } & Omit<
  InputHTMLAttributes<HTMLInputElement>,
  "list"
>) {
  const listId = `${id ?? input.name ?? "combobox"}-suggestions`;
  const options = rankSuggestions(suggestions, "");
  return (
    <>
      <input ref={ref} id={id} list={listId} autoComplete="off" defaultValue={defaultValue} {...input} />
      <datalist id={listId}>
        {options.map((s) => (
          <option key={s} value={s} />
        ))}
      </datalist>
    </>
  );
}
