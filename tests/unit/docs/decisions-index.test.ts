import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildIndex, INDEX_PATH, readRecord, readRecords, shortStatus } from "../../../scripts/decisions-index.mjs";

// docs/decisions/README.md is generated from the records themselves (scripts/decisions-index.mjs,
// `npm run docs:decisions`). A record added or a status changed without regenerating it, or a
// record without a Status line, fails here.

const records = readRecords();

describe("the decision records' index", () => {
  it("every record has a Status line and a date", () => {
    expect(records.filter((r) => r.status === null).map((r) => r.file)).toEqual([]);
    expect(records.filter((r) => !/^\d{4}-\d{2}-\d{2}$/.test(r.date)).map((r) => r.file)).toEqual([]);
  });

  it("no two records share a number", () => {
    const numbers = records.map((r) => r.number);
    expect(numbers.filter((n, i) => numbers.indexOf(n) !== i)).toEqual([]);
  });

  it("a record superseded or amended names records that exist", () => {
    const numbers = new Set(records.map((r) => r.number));
    const dangling = records.flatMap((r) =>
      /superseded|amended/.test(r.status ?? "")
        ? [...(r.status ?? "").matchAll(/\b\d{4}\b/g)]
            .map((m) => m[0])
            .filter((n) => !numbers.has(n))
            .map((n) => `${r.file} → ${n}`)
        : [],
    );
    expect(dangling).toEqual([]);
  });

  it("docs/decisions/README.md is what `npm run docs:decisions` builds now", () => {
    const committed = readFileSync(INDEX_PATH, "utf8");
    // The message a reader needs when this fails:
    expect(committed, "docs/decisions/README.md is out of date: run `npm run docs:decisions`").toBe(buildIndex(records));
    for (const r of records) expect(committed).toContain(`| [${r.number}](${r.file}) |`);
  });
});

describe("reading one record", () => {
  it("takes the title without its number, the Status's short form and the Date line's day", () => {
    const text = "# 0999 — A thing | with a pipe\n\nStatus: superseded by 0318 (2026-12-06): gone.\nDate: 2026-11-27 (issue 32)\n\n## Context\n";
    expect(readRecord("0999-a-thing.md", text)).toEqual({
      number: "0999",
      file: "0999-a-thing.md",
      title: "A thing | with a pipe",
      status: "superseded by 0318",
      date: "2026-11-27",
    });
    expect(buildIndex([readRecord("0999-a-thing.md", text)])).toContain(
      "| [0999](0999-a-thing.md) | A thing \\| with a pipe | superseded by 0318 | 2026-11-27 |",
    );
  });

  it("a record without a Status line reads as missing; a date in the Status line serves when there is no Date line", () => {
    expect(readRecord("0998-x.md", "# 0998 Title\n\nIssue 15.\n").status).toBeNull();
    expect(readRecord("0997-x.md", "# 0997: Title\n\nStatus: accepted (2026-12-06)\n")).toMatchObject({
      title: "Title",
      status: "accepted",
      date: "2026-12-06",
    });
  });

  it("keeps what a status says before its explanation", () => {
    expect(shortStatus("accepted")).toBe("accepted");
    expect(shortStatus("accepted (2026-12-06). Supersedes the TikTok parts of 0265")).toBe("accepted");
    expect(shortStatus("accepted; amended by 0319 (2026-12-06): the session's batch")).toBe("accepted; amended by 0319");
    expect(shortStatus("partly superseded by 0299 and 0300 (2026-12-06): TikTok views")).toBe("partly superseded by 0299 and 0300");
  });
});
