import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { priceImport } from "~/modules/payments/import-price";
import { detectFormat, parseRevenue, readHead } from "~/modules/payments/revenue-csv";
import { scaleChannelId, scaleUserId } from "../../../scripts/scale-ids.mjs";

// scripts/gen-revenue-report.mjs (issue 45 §3): the generated YouTube report is one the import reads
// as "youtube", and the totals it predicts (written beside the file) are those the import's own
// parsing and pricing make of it, to the cent — what the import bench compares the statements with.

const dir = mkdtempSync(join(tmpdir(), "gen-revenue-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const root = resolve(import.meta.dirname, "../../..");

function generate(args: string[]) {
  const out = join(dir, `report-${args.join("-")}.csv`);
  const run = spawnSync(process.execPath, ["scripts/gen-revenue-report.mjs", ...args, "--out", out], { cwd: root, encoding: "utf8" });
  if (run.status !== 0) throw new Error(run.stderr);
  return {
    text: readFileSync(out, "utf8"),
    expected: JSON.parse(readFileSync(`${out}.expected.json`, "utf8")),
    entries: readFileSync(`${out}.expected-entries.csv`, "utf8"),
  };
}

describe("gen-revenue-report: a YouTube report whose totals are known to the cent", () => {
  it("is read as YouTube's report, every row accepted, and priced exactly as predicted (month rounded once, 70 % per person)", () => {
    const { text, expected, entries } = generate(["--rows", "20000", "--channels", "300", "--month", "2025-11", "--seed", "7"]);
    expect(detectFormat(readHead(text).columns)).toBe("youtube");
    const parsed = parseRevenue(text, { month: "2025-11", format: "youtube" });
    expect(parsed.problems).toEqual([]);
    expect(parsed.dataRows).toBe(20_000);
    expect(expected).toMatchObject({ rows: 20_000, channels: 300, month: "2025-11" });

    // Matched as the import matches: each scale channel is its creator's.
    const owner = new Map(Array.from({ length: 300 }, (_, i) => [scaleChannelId(i), scaleUserId(i)]));
    const leaves = parsed.groups.map((g) => ({
      userId: owner.get(g.channelId ?? "") ?? "?",
      sourceId: g.channelId ?? "",
      videoId: g.videoId ?? "",
      amount: g.amount,
    }));
    const priced = priceImport(
      {
        month: "2025-11",
        importId: "import",
        leaves,
        shares: { shareBp: 7000, revised: new Map(), ends: new Map() },
        clips: { clips: [], changes: new Map(), clipperNames: new Map() },
        referral: { settingBp: 0, referred: [] },
      },
      (() => {
        let n = 0;
        return () => `id-${n++}`;
      })(),
    );
    expect(priced.netCents).toBe(expected.netCents);
    expect(priced.rounded.totalCents).toBe(expected.netCents);
    expect(priced.amountCents).toBe(expected.amountCents);
    expect(priced.entries).toHaveLength(expected.entries);
    expect(priced.videoLines).toHaveLength(expected.videoLines);
    // Line by line: each channel's net and amount.
    const predicted = entries
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => l.split(","))
      .map(([channel, user, net, , amount]) => ({ sourceId: channel, userId: user, netCents: Number(net), amountCents: Number(amount) }));
    const made = priced.entries.map((e) => ({ sourceId: e.sourceId, userId: e.userId, netCents: e.netCents, amountCents: e.amountCents }));
    expect(made.sort((a, b) => (a.userId < b.userId ? -1 : 1))).toEqual(predicted);
  });

  it("is the same file for the same seed", () => {
    const a = generate(["--rows", "3000", "--channels", "50", "--month", "2025-10", "--seed", "3"]);
    const b = generate(["--rows", "3000", "--channels", "50", "--month", "2025-10", "--seed", "3", "--share-bp", "7000"]);
    expect(b.text).toBe(a.text);
    expect(b.expected).toEqual(a.expected);
  });
});
