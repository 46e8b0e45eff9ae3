/**
 * Browser tab titles that name the object a page shows ("User:alice · Principal"), so
 * that several tabs of the console can be told apart. Built from the page's address only
 * (what the address already says, no lookup); the root layout appends the console's name.
 */
import type { SearchParams } from "./search-params";

/** Longest object name put in a title; a longer one is cut with an ellipsis. */
export const MAX_TITLE_NAME = 80;

/** `names` (empty ones left out) joined by spaces, then ` · kind`; the kind alone when nothing is named. */
export function objectTitle(kind: string, ...names: ReadonlyArray<string | string[] | null | undefined>): string {
  const named = names
    .map((n) => (Array.isArray(n) ? n[0] : n))
    .filter((n): n is string => typeof n === "string" && n.trim() !== "")
    .map((n) => n.trim())
    .join(" ");
  if (named === "") return kind;
  const short = named.length > MAX_TITLE_NAME ? `${named.slice(0, MAX_TITLE_NAME - 1)}…` : named;
  return `${short} · ${kind}`;
}

/** A page's `generateMetadata` whose title is built from the page's search parameters (`objectTitle`). */
export function titleFromSearch(title: (q: SearchParams) => string) {
  return async ({ searchParams }: { searchParams: Promise<SearchParams> }) => ({ title: title(await searchParams) });
}

/** A page's `generateMetadata` for one object named by its id in the path: "<first 8 of the id> · kind". */
export function titleFromId(kind: string) {
  return async ({ params }: { params: Promise<{ id: string }> }) => ({
    title: objectTitle(kind, (await params).id.slice(0, 8)),
  });
}
