/**
 * Every relative link in README.md and docs/*.md resolves inside the repository: to a file
 * (or folder) that exists, and, when it names an anchor in a markdown file, to a heading of
 * that file. Links to the web (https:, mailto:) are not checked; nothing the project needs
 * may point outside the repository (no `../shared/...`).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");

interface MarkdownLink {
  line: number;
  target: string;
}

/** The inline (`[text](target)`, `![alt](target)`) and reference (`[x]: target`) links of a document, outside code. */
function linksOf(markdown: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  let fence: string | null = null;
  markdown.split("\n").forEach((raw, i) => {
    const fenceMark = /^\s*(`{3,}|~{3,})/.exec(raw)?.[1];
    if (fenceMark) {
      if (fence === null) fence = fenceMark[0]!;
      else if (fenceMark[0] === fence) fence = null;
      return;
    }
    if (fence !== null || /^( {4}|\t)/.test(raw)) return;
    const text = raw.replace(/(`+)[\s\S]*?\1/g, ""); // inline code spans
    for (const m of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
      links.push({ line: i + 1, target: m[1]! });
    const ref = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$/.exec(text);
    if (ref) links.push({ line: i + 1, target: ref[1]! });
  });
  return links;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to dashes. */
function slugOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, "")
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The anchors of a markdown document's headings (repeats get -1, -2, ... as on GitHub). */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let inFence = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*(`{3,}|~{3,})/.test(line)) inFence = !inFence;
    const heading = inFence ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = slugOf(heading[1]!);
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

/** The problems of one document's relative links, as `file:line: target — why`. */
function brokenLinks(file: string, markdown: string, repoRoot = root): string[] {
  const problems: string[] = [];
  for (const { line, target } of linksOf(markdown)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, ...
    const [pathPart = "", anchor] = target.split("#", 2) as [string, string | undefined];
    const resolved =
      pathPart === ""
        ? path.join(repoRoot, file)
        : path.resolve(repoRoot, path.dirname(file), decodeURIComponent(pathPart));
    const relative = path.relative(repoRoot, resolved).split(path.sep).join("/");
    const where = `${file}:${line}: ${target}`;
    if (relative.startsWith("..") || path.isAbsolute(relative)) {
      problems.push(`${where} — points outside the repository`);
      continue;
    }
    if (!existsSync(resolved)) {
      problems.push(`${where} — no such file`);
      continue;
    }
    const targetText = pathPart === "" ? markdown : resolved.endsWith(".md") ? readFileSync(resolved, "utf8") : null;
    if (anchor !== undefined && anchor !== "" && targetText !== null && !anchorsOf(targetText).has(anchor)) {
      problems.push(`${where} — no heading with the anchor #${anchor}`);
    }
  }
  return problems;
}

function markdownFilesUnder(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return markdownFilesUnder(file);
    return entry.name.endsWith(".md") ? [file] : [];
  });
}

describe("the documentation's relative links", () => {
  const files = ["README.md", ...markdownFilesUnder("docs")];

  it("covers the README and the docs folder", () => {
    expect(files).toContain("README.md");
    expect(files).toContain("docs/architecture.md");
  });

  it.each(files)("%s: every relative link resolves to a file (and heading) in the repository", (file) => {
    expect(brokenLinks(file, readFileSync(path.join(root, file), "utf8"))).toEqual([]);
  });
});

describe("the link checker", () => {
  const doc = [
    "# Title",
    "See [the guide](docs/acls.md), [a heading](#title), [the web](https://kafka.apache.org/documentation/).",
    "A missing [file](docs/nowhere.md) and a missing [anchor](docs/acls.md#no-such-heading).",
    "Outside: [design](../shared/DESIGN.md). In code: `[not a link](nowhere.md)`.",
    "```md",
    "[also not a link](nowhere-either.md)",
    "```",
    "[ref]: docs/missing-too.md",
    "Generated: [settings](docs/configuration.md).",
  ].join("\n");

  it("reports missing files and anchors and links that leave the repository, and nothing in code", () => {
    expect(brokenLinks("README.md", doc)).toEqual([
      "README.md:3: docs/nowhere.md — no such file",
      "README.md:3: docs/acls.md#no-such-heading — no heading with the anchor #no-such-heading",
      "README.md:4: ../shared/DESIGN.md — points outside the repository",
      "README.md:8: docs/missing-too.md — no such file",
    ]);
  });

  it("makes GitHub's anchors", () => {
    expect([
      ...anchorsOf(
        "# How Kafka decides (and what is easy to get wrong)\n## Kafka's rules\n## Several clusters " +
          "(`CLUSTERS_FILE`)\n## Kafka's rules",
      ),
    ]).toEqual([
      "how-kafka-decides-and-what-is-easy-to-get-wrong",
      "kafkas-rules",
      "several-clusters-clusters_file",
      "kafkas-rules-1",
    ]);
  });
});
