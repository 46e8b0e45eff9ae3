/**
 * An instant as the console writes it for people: "2026-11-03 14:00:05 UTC" (no milliseconds), or
 * with `minutes` "2026-11-03 14:00 UTC". Pages, plan previews and the services' messages all say
 * times this way, in UTC, whatever the browser's zone.
 */
export function utcText(t: Date | string | number, precision: "seconds" | "minutes" = "seconds"): string {
  return `${new Date(t)
    .toISOString()
    .slice(0, precision === "minutes" ? 16 : 19)
    .replace("T", " ")} UTC`;
}
