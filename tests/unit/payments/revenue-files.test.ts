// The revenue files of issue 29: amounts as people and spreadsheets write them, months and dates,
// the three file shapes (our own, the YouTube content-owner report, any CSV through a mapping),
// and the single rounding of a month (decisions 0220, 0221).
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addDec, apportion, centsHalfUp, type Dec, formatDec, parseAmount } from "~/modules/payments/decimal";
import { readPeriod, slashOrderOf } from "~/modules/payments/period";
import { CSV_MESSAGES, detectFormat, type ParsedRevenue, parseRevenue, readHead, suggestMapping } from "~/modules/payments/revenue-csv";
import { monthPersonCents, roundMonth, roundPersonLeaves, shareByWeights } from "~/modules/payments/revenue-totals";
import { present } from "../../helpers/present";

const fixture = (name: string) => readFileSync(resolve(import.meta.dirname, "../../fixtures/revenue", name), "utf8");
const value = (text: string, style: "point" | "comma" = "point") => {
  const r = parseAmount(text, style);
  return r.ok ? formatDec(r.value) : r.problem;
};
/** The independent check: six-decimal amounts summed as integer micro-dollars. */
const micros = (s: string | undefined) => {
  const [i, f = ""] = present(s, "an amount").split(".");
  return BigInt(present(i, `the whole part of ${s}`)) * 1_000_000n + BigInt(f.padEnd(6, "0"));
};
const totalOf = (p: ParsedRevenue) => formatDec(p.total);

describe("amounts", () => {
  it("reads any number of decimals, thousands separators and a currency symbol, exactly", () => {
    expect(value("7.5")).toBe("7.50");
    expect(value("8")).toBe("8.00");
    expect(value("0.125")).toBe("0.125");
    expect(value("1,234.56")).toBe("1234.56");
    expect(value("$9.99")).toBe("9.99");
    expect(value("US$ 1,000")).toBe("1000.00");
    expect(value("9.99 USD")).toBe("9.99");
    expect(value("USD 12")).toBe("12.00");
    expect(value(" 0.000001 ")).toBe("0.000001");
    expect(value("1 234 567.891")).toBe("1234567.891");
    expect(value("7,5")).toBe("7.50"); // a decimal comma where a comma cannot be grouping
    expect(value("0.30000000000000004")).toBe("0.30000000000000004"); // a float a spreadsheet wrote: kept exact
  });

  it("reads a comma-decimal file's amounts", () => {
    expect(value("1.234,56", "comma")).toBe("1234.56");
    expect(value("7,5", "comma")).toBe("7.50");
    expect(value("1.234", "comma")).toBe("1234.00");
    expect(value("0,125", "comma")).toBe("0.125");
  });

  it("tells negative, malformed and foreign amounts apart", () => {
    for (const neg of ["-1.00", "(1.00)", "$-1", "-$1.00", "1-"]) expect(value(neg)).toBe("negative");
    for (const bad of ["abc", "1e3", "1,2,3", "1.2.3,4,5", "12..3", "$", "N/A"]) expect(value(bad)).toBe("malformed");
    expect(value("")).toBe("missing");
    expect(parseAmount("€5.00")).toEqual({ ok: false, problem: "currency", currency: "EUR" });
    expect(parseAmount("5 GBP")).toEqual({ ok: false, problem: "currency", currency: "GBP" });
  });

  it("rounds half up to the cent", () => {
    const d = (n: bigint, s: number): Dec => ({ n, s });
    expect(centsHalfUp(d(125n, 3))).toBe(13n);
    expect(centsHalfUp(d(124999n, 6))).toBe(12n);
    expect(centsHalfUp(d(125000n, 6))).toBe(13n);
    expect(centsHalfUp(d(75n, 1))).toBe(750n);
  });
});

describe("months and dates", () => {
  it("reads months and dates as reports and spreadsheets write them", () => {
    for (const [text, month] of [
      ["2031-03", "2031-03"],
      ["2031/3", "2031-03"],
      ["203103", "2031-03"],
      ["20310314", "2031-03"],
      ["2031-03-14", "2031-03"],
      ["2031-03-14T00:00:00Z", "2031-03"],
      ["2031-03-14 00:00:00", "2031-03"],
      ["Mar-31", "2031-03"],
      ["Mar 2031", "2031-03"],
      ["March 2031", "2031-03"],
      ["Sept 2031", "2031-09"],
      ["14-Mar-2031", "2031-03"],
    ] as const) {
      expect(readPeriod(text), text).toEqual({ month });
    }
    for (const bad of ["2031-13", "20310230", "Marchx 2031", "soon", "31"]) expect(readPeriod(bad), bad).toBeNull();
    expect(readPeriod("3/4/2031")).toEqual({ a: 3, b: 4, year: 2031 });
  });

  it("reads day/month dates in the order the file shows, else the one that fits the month", () => {
    expect(
      slashOrderOf(
        [
          { a: 14, b: 3, year: 2031 },
          { a: 1, b: 3, year: 2031 },
        ],
        "2031-03",
      ),
    ).toBe("dmy");
    expect(slashOrderOf([{ a: 3, b: 14, year: 2031 }], "2031-03")).toBe("mdy");
    expect(slashOrderOf([{ a: 1, b: 3, year: 2031 }], "2031-03")).toBe("dmy");
    expect(slashOrderOf([{ a: 3, b: 1, year: 2031 }], "2031-03")).toBe("mdy");
    expect(
      slashOrderOf(
        [
          { a: 14, b: 3, year: 2031 },
          { a: 3, b: 14, year: 2031 },
        ],
        "2031-03",
      ),
    ).toBeNull();
  });
});

describe("the three file shapes", () => {
  it("recognises our format, the YouTube report and anything else by the header", () => {
    expect(detectFormat(readHead(fixture("resaved-own-format-2031-03.csv")).columns)).toBe("shortbeat");
    expect(detectFormat(readHead(fixture("youtube-content-owner-2031-03.csv")).columns)).toBe("youtube");
    expect(detectFormat(readHead(fixture("studio-export-2031-03.csv")).columns)).toBeNull();
  });

  it("reads the YouTube content-owner report's daily rows into one exact sum per channel and video", () => {
    const text = fixture("youtube-content-owner-2031-03.csv");
    const parsed = parseRevenue(text, { month: "2031-03", format: "youtube" });
    expect(parsed.problems).toEqual([]);
    const lines = text.trim().split("\n").slice(1);
    expect(parsed.dataRows).toBe(lines.length);
    const expected = lines.reduce((s, l) => s + micros(l.split(",")[6]), 0n);
    expect(parsed.total).toEqual({ n: expected, s: 6 });
    expect(totalOf(parsed)).toBe("301.918125");
    // One group per channel and video, whatever the days, claims and countries.
    expect(parsed.groups.map((g) => `${g.channelId}/${g.videoId}`).sort()).toEqual([
      "UCfixtureYtAlpha000001/alphaShortA1",
      "UCfixtureYtAlpha000001/alphaShortA2",
      "UCfixtureYtAlpha000001/alphaShortA3",
      "UCfixtureYtBravo000001/bravoShortB1",
      "UCfixtureYtBravo000001/bravoShortB2",
    ]);
    for (const g of parsed.groups) {
      const own = lines.filter((l) => l.split(",")[2] === g.videoId);
      expect(g.lines).toHaveLength(own.length);
      expect(g.amount).toEqual({ n: own.reduce((s, l) => s + micros(l.split(",")[6]), 0n), s: 6 });
    }
  });

  it("refuses a YouTube row outside the chosen month, and a repeated row, by line", () => {
    const text = `${fixture("youtube-content-owner-2031-03.csv").trim()}\n20310401,UCfixtureYtAlpha000001,alphaShortA1,claimed,thirdParty,US,1.000000,0,0,1\n20310301,UCfixtureYtAlpha000001,alphaShortA1,claimed,thirdParty,US,9.000000,0,0,1\n`;
    const count = text.trim().split("\n").length;
    const parsed = parseRevenue(text, { month: "2031-03", format: "youtube" });
    expect(parsed.problems).toEqual([
      { line: count - 1, reason: CSV_MESSAGES.otherMonth("date", "20310401", "2031-03") },
      { line: count, reason: CSV_MESSAGES.duplicate(2) },
    ]);
  });

  it("reads our own format after a spreadsheet re-saved it (BOM, CRLF, Mar-31, 7.5, 8, $9.99, 1,234.56)", () => {
    const parsed = parseRevenue(fixture("resaved-own-format-2031-03.csv"), { month: "2031-03", format: "shortbeat" });
    expect(parsed.problems).toEqual([]);
    expect(parsed.dataRows).toBe(6);
    expect(totalOf(parsed)).toBe("1260.30");
    const bravo = parsed.groups.filter((g) => g.channelId === "UCfixtureYtBravo000001").map((g) => formatDec(g.amount));
    expect(bravo.sort()).toEqual(["0.125", "0.125", "1234.56"]);
  });

  it("reads any CSV through a column mapping, with a fixed person, leaving the totals row out", () => {
    const text = fixture("studio-export-2031-03.csv");
    const head = readHead(text);
    const mapping = suggestMapping(head.columns);
    expect(mapping).toEqual({ period: 0, channel: -1, creator: -1, video: 1, amount: 2, currency: -1 });
    const parsed = parseRevenue(text, { month: "2031-03", format: "mapped", mapping, fixedPerson: { channelId: "UCfixtureYtAlpha000001", creatorId: null } });
    expect(parsed.problems).toEqual([]);
    expect(parsed.skipped).toEqual([{ line: 2, reason: CSV_MESSAGES.totalsRow }]);
    expect(parsed.dataRows).toBe(4);
    expect(totalOf(parsed)).toBe("16.934567");
  });

  it("reads a ';'-separated file with decimal commas and day/month dates", () => {
    const text = "Datum;Kanal;Betrag;Währung\n01.03.2031;UCx;1.234,5;EUR\n14.03.2031;UCx;0,25;USD\n02.03.2031;UCx;7,5;USD\n";
    const parsed = parseRevenue(text, {
      month: "2031-03",
      format: "mapped",
      mapping: { period: 0, channel: 1, creator: -1, video: -1, amount: 2, currency: 3 },
    });
    expect(parsed.problems).toEqual([{ line: 2, reason: CSV_MESSAGES.currency("EUR") }]);
    expect(totalOf(parsed)).toBe("7.75");
  });

  it("reports each refused row by line and why", () => {
    const header = "month,channel_id,creator_id,video_id,net_revenue,currency";
    const csv = [
      header,
      "2025-09,UC1,,,-5.00,USD",
      "2025-09,UC2,,,abc,USD",
      "2025-09,UC3,,,5.00,EUR",
      "2025-08,UC4,,,5.00,USD",
      "2025-09,,,,5.00,USD",
      "2025-09,UC5,,v1,5.00,USD",
      "2025-09,UC5,,v1,6.00,USD",
      "",
      "2025-09,UC6,,,7,USD",
      "soon,UC7,,,7,USD",
      "2025-09,UC8,,,,USD",
    ].join("\n");
    const { groups, problems } = parseRevenue(csv, { month: "2025-09", format: "shortbeat" });
    expect(problems).toEqual([
      { line: 2, reason: CSV_MESSAGES.negative },
      { line: 3, reason: CSV_MESSAGES.badAmount },
      { line: 4, reason: CSV_MESSAGES.currency("EUR") },
      { line: 5, reason: CSV_MESSAGES.otherMonth("month", "2025-08", "2025-09") },
      { line: 6, reason: CSV_MESSAGES.noPerson },
      { line: 8, reason: CSV_MESSAGES.duplicate(7) },
      { line: 11, reason: CSV_MESSAGES.badPeriod("month") },
      { line: 12, reason: CSV_MESSAGES.missingAmount },
    ]);
    expect(groups.map((g) => g.lines[0])).toEqual([7, 10]);
  });

  it("reads quoted fields, a BOM and CRLF line ends", () => {
    const header = "month,channel_id,creator_id,video_id,net_revenue,currency";
    const csv = `\uFEFF${header}\r\n2025-09,"UCabc",,,"1234.56",usd\r\n2025-09,,casey123,,0.99,USD\r\n`;
    const { groups, problems } = parseRevenue(csv, { month: "2025-09", format: "shortbeat" });
    expect(problems).toEqual([]);
    expect(groups.map((g) => [g.channelId, g.creatorId, formatDec(g.amount)])).toEqual([
      ["UCabc", null, "1234.56"],
      [null, "CASEY123", "0.99"],
    ]);
  });
});

describe("rounding a month once", () => {
  it("rounds the month half up and shares it by largest remainder: every level adds up exactly", () => {
    // Three videos of 0.125 on one channel: each rounded on its own (0.13) would make 0.39; the month is 0.375 → 0.38.
    const d = (s: string): Dec => ({ n: BigInt(s.replace(".", "")), s: s.split(".")[1]?.length ?? 0 });
    const leaves = [
      { userId: "u1", sourceId: "c1", videoId: "v1", amount: d("0.125") },
      { userId: "u1", sourceId: "c1", videoId: "v2", amount: d("0.125") },
      { userId: "u1", sourceId: "c1", videoId: "v3", amount: d("0.125") },
      { userId: "u2", sourceId: "c2", videoId: "", amount: d("7.5") },
    ];
    const r = roundMonth(leaves);
    expect(r.totalCents).toBe(788); // 7.875 → 7.88
    expect(r.cents).toEqual([13, 13, 12, 750]);
    expect(formatDec(r.remainder)).toBe("-0.005");
  });

  it("never creates or loses a cent, and keeps each line within a cent of its exact amount (property)", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            u: fc.integer({ min: 0, max: 3 }),
            c: fc.integer({ min: 0, max: 2 }),
            v: fc.integer({ min: 0, max: 3 }),
            m: fc.bigInt({ min: 0n, max: 10n ** 10n }),
          }),
          {
            minLength: 1,
            maxLength: 40,
          },
        ),
        (rows) => {
          const leaves = rows.map((r) => ({ userId: `u${r.u}`, sourceId: `c${r.c}`, videoId: `v${r.v}`, amount: { n: r.m, s: 6 } }));
          const out = roundMonth(leaves);
          const exact = rows.reduce((s, r) => s + r.m, 0n);
          expect(BigInt(out.totalCents)).toBe((exact + 5_000n) / 10_000n);
          expect(out.cents.reduce((s, c) => s + c, 0)).toBe(out.totalCents);
          rows.forEach((r, i) => {
            const c = BigInt(present(out.cents[i], `the cents of row ${i}`)) * 10_000n;
            expect(c >= r.m - 10_000n && c <= r.m + 10_000n).toBe(true);
          });
          // Each person's cents are within a cent of their exact sum.
          for (const u of new Set(rows.map((r) => r.u))) {
            const own = rows.flatMap((r, i) => (r.u === u ? [i] : []));
            const cents = BigInt(own.reduce((s, i) => s + present(out.cents[i], `the cents of row ${i}`), 0)) * 10_000n;
            const ex = own.reduce((s, i) => s + present(rows[i], `row ${i}`).m, 0n);
            expect(cents >= ex - 10_000n && cents <= ex + 10_000n).toBe(true);
          }
        },
      ),
    );
  });

  it("rounds a month in slices of people exactly as in one piece: one exact sum a person crosses the slices (0345, property)", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            u: fc.integer({ min: 0, max: 5 }),
            c: fc.integer({ min: 0, max: 2 }),
            v: fc.integer({ min: 0, max: 2 }),
            // Small amounts too, so people's sub-cent remainders tie (the order of their ids decides).
            m: fc.oneof(fc.bigInt({ min: 0n, max: 30n }), fc.bigInt({ min: 0n, max: 10n ** 11n })),
            s: fc.constantFrom(2, 3, 6, 9),
          }),
          { minLength: 1, maxLength: 40 },
        ),
        fc.integer({ min: 1, max: 3 }),
        (rows, perSlice) => {
          // Equal keys (same person, channel, video) occur: their order must be kept as given.
          const leaves = rows.map((r) => ({ userId: `u${r.u}`, sourceId: r.c ? `c${r.c}` : "", videoId: r.v ? `v${r.v}` : "", amount: { n: r.m, s: r.s } }));
          const whole = roundMonth(leaves);
          // The pass across people: one exact sum each, given in an order other than their ids'.
          const people = [...new Set(leaves.map((l) => l.userId))].reverse();
          const exactOf = (u: string) => leaves.filter((l) => l.userId === u).reduce((t, l) => addDec(t, l.amount), { n: 0n, s: 0 } as Dec);
          const month = monthPersonCents(people.map((userId) => ({ userId, exact: exactOf(userId) })));
          expect(month.totalCents).toBe(whole.totalCents);
          expect(formatDec(month.exact)).toBe(formatDec(whole.exact));
          expect(formatDec(month.remainder)).toBe(formatDec(whole.remainder));
          // Then slices of `perSlice` people, each rounded alone from its people's cents.
          const cents: number[] = new Array(leaves.length).fill(-1);
          for (let k = 0; k < people.length; k += perSlice) {
            for (const u of people.slice(k, k + perSlice)) {
              const own = leaves.flatMap((l, i) => (l.userId === u ? [i] : []));
              const out = roundPersonLeaves(
                own.map((i) => present(leaves[i], `leaf ${i}`)),
                present(month.cents.get(u), `the cents of ${u}`),
              );
              own.forEach((i, k2) => {
                cents[i] = present(out[k2], `the cents of leaf ${i}`);
              });
            }
          }
          expect(cents).toEqual(whole.cents);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("shares a line's amount among its videos to the cent", () => {
    expect(shareByWeights(700, [1, 1, 1])).toEqual([234, 233, 233]);
    expect(shareByWeights(0, [5, 5])).toEqual([0, 0]);
    expect(shareByWeights(-10, [1, 2])).toEqual([-3, -7]);
    // A total the parts cannot hold is a bug, never a silent cent.
    expect(() => apportion(10n, [1n, 1n, 1n], 1n)).toThrow(RangeError);
  });
});
