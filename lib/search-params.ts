/**
 * A page's search parameters as Next.js gives them (`?a=1&a=2` is an array), and the
 * first value of each, as the console's pages read them.
 */
export type SearchParams = Record<string, string | string[] | undefined>;

/** What Next.js hands a page of a dynamic route: its path segments `P` and its search parameters. */
export interface PageProps<P> {
  params: Promise<P>;
  searchParams: Promise<SearchParams>;
}

/** The first value of a parameter given more than once. */
export function firstValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

/** Every parameter's first value. */
export function firstValues(params: SearchParams): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(params).map(([k, v]) => [k, firstValue(v)]));
}
