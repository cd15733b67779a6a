import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

// Every relative link in README.md and docs/**/*.md leads to a file or folder that exists. A page
// renamed or moved (a decision record, a domain page, docs/performance.md) fails here with the
// page and the link, instead of leaving a reader at GitHub's 404. Links to the web, mail and
// anchors within the same page are not checked; text inside code spans and fenced blocks is not a link.

const root = resolve(import.meta.dirname, "../../..");

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? markdownFiles(join(dir, e.name)) : e.name.endsWith(".md") ? [join(dir, e.name)] : [],
  );
}

/** The link targets of a Markdown text: inline `[text](target)`, images and reference definitions. */
function linkTargets(text: string): string[] {
  const prose = text
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "") // fenced blocks
    .replace(/`[^`\n]*`/g, ""); // code spans
  const inline = [...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1] ?? "");
  const references = [...prose.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1] ?? "");
  return [...inline, ...references];
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//");

/** The broken relative links of one file, as "file → target". */
function brokenLinks(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return linkTargets(text)
    .filter((t) => t && !isExternal(t) && !t.startsWith("#"))
    .filter((t) => {
      const path = decodeURIComponent(t.replace(/[#?].*$/, ""));
      const target = path.startsWith("/") ? join(root, path) : resolve(dirname(file), path);
      return !existsSync(target);
    })
    .map((t) => `${relative(root, file)} → ${t}`);
}

describe("relative links in the documentation", () => {
  const files = [join(root, "README.md"), ...markdownFiles(join(root, "docs"))];

  it("finds the pages it checks", () => {
    expect(files.length).toBeGreaterThan(200);
  });

  it("every relative link in README.md and docs/**/*.md resolves to a file or folder", () => {
    expect(files.flatMap(brokenLinks)).toEqual([]);
  });
});

describe("reading links", () => {
  it("takes inline links, images and reference definitions, not code", () => {
    const text = [
      'See [a](docs/a.md#part) and ![img](./b.png "title") and [web](https://x.test).',
      "[ref]: ../c.md",
      "`[not](code.md)`",
      "```",
      "[not](fenced.md)",
      "```",
    ].join("\n");
    expect(linkTargets(text)).toEqual(["docs/a.md#part", "./b.png", "https://x.test", "../c.md"]);
  });
});
