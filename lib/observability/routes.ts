/**
 * Request addresses as metric labels: the route pattern Next serves them with
 * (/api/v1/plans/[id], /principals/[name]), read from the build's route manifest, so ids
 * and names never become label values. Next's static files count as one route each kind;
 * anything else is "other", which keeps the label set bounded whatever clients send.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

interface Pattern {
  route: string;
  regex: RegExp;
  /** Literal segments: the more, the earlier it is tried (/acls/new before /acls/[id]). */
  literals: number;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function compile(route: string): Pattern {
  const segments = route.split("/").filter((s) => s && !/^\(.*\)$/.test(s) && !s.startsWith("@"));
  let source = "";
  let literals = 0;
  for (const segment of segments) {
    if (/^\[\[\.\.\..+\]\]$/.test(segment)) source += "(?:/.*)?";
    else if (/^\[\.\.\..+\]$/.test(segment)) source += "/.+";
    else if (/^\[.+\]$/.test(segment)) source += "/[^/]+";
    else {
      source += `/${escape(segment)}`;
      literals += 1;
    }
  }
  return { route: `/${segments.join("/")}`, regex: new RegExp(`^${source || "/"}/?$`), literals };
}

export type RouteNormaliser = (pathname: string) => string;

/** A normaliser for the given route patterns (as Next writes them: /a/[b]/[...c]). */
export function routeNormaliser(routes: Iterable<string>): RouteNormaliser {
  const patterns = [...new Set(routes)]
    .map(compile)
    .sort((a, b) => b.literals - a.literals || a.route.localeCompare(b.route));
  return (pathname) => {
    if (pathname.startsWith("/_next/static/")) return "/_next/static";
    if (pathname.startsWith("/_next/image")) return "/_next/image";
    for (const pattern of patterns) if (pattern.regex.test(pathname)) return pattern.route;
    return "other";
  };
}

/** The app's routes from a production build's app-path-routes-manifest.json in `distDir`. */
export function routesOfBuild(distDir: string): string[] {
  const manifest = path.join(distDir, "app-path-routes-manifest.json");
  if (!existsSync(manifest)) return [];
  const entries = JSON.parse(readFileSync(manifest, "utf8")) as Record<string, string>;
  return Object.values(entries).filter((route) => !route.startsWith("/_"));
}
