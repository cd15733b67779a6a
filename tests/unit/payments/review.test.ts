import { describe, expect, it } from "vitest";
import { csvCell, toCsv } from "~/lib/csv";
import { ordinalDay } from "~/modules/payments/calendar";

describe("the shared CSV writer (app/lib/csv.ts)", () => {
  it("keeps a plain negative number as data, and still defuses formulas", () => {
    expect(csvCell("-5.00")).toBe("-5.00");
    expect(csvCell("-12")).toBe("-12");
    expect(csvCell("-1+1")).toBe(`"'-1+1"`);
    expect(csvCell("=SUM(A1)")).toBe(`"'=SUM(A1)"`);
    expect(csvCell("+1")).toBe(`"'+1"`);
    expect(csvCell('a,"b"')).toBe('"a,""b"""');
    expect(csvCell("Plain name")).toBe("Plain name");
    expect(csvCell("e-mail@example.com")).toBe("e-mail@example.com");
    expect(toCsv([["a", 1, null]])).toBe("a,1,\r\n");
  });

  // Issue 27, item 4: a spreadsheet whose list separator is ';' (common in Europe) splits an
  // unquoted cell at ';' and reads the next part as a formula; full-width signs count as formulas
  // in some locales. Every place a formula could start is defused, and the cell is quoted.
  it("defuses a formula after any separator a spreadsheet could split on, quoting the cell", () => {
    expect(csvCell("Bob;=cmd|' /C calc'!A0")).toBe(`"Bob;'=cmd|' /C calc'!A0"`);
    expect(csvCell("Bob,=1+1")).toBe(`"Bob,'=1+1"`);
    expect(csvCell("Bob\t+1")).toBe(`"Bob\t'+1"`);
    expect(csvCell("Bob\n@SUM(A1)")).toBe(`"Bob\n'@SUM(A1)"`);
    expect(csvCell("Bob\r\n-1+2")).toBe(`"Bob\r\n'-1+2"`);
    expect(csvCell("Bob; =cmd")).toBe(`"Bob; '=cmd"`);
    expect(csvCell("Bob|=cmd")).toBe(`"Bob|'=cmd"`);
  });

  it("treats the full-width signs ＝ ＋ － ＠ as formula starts, alone or after a separator", () => {
    expect(csvCell("＝cmd|' /C calc'!A0")).toBe(`"'＝cmd|' /C calc'!A0"`);
    expect(csvCell("＋1")).toBe(`"'＋1"`);
    expect(csvCell("－1")).toBe(`"'－1"`);
    expect(csvCell("＠SUM(A1)")).toBe(`"'＠SUM(A1)"`);
    expect(csvCell("Bob;＝cmd|' /C calc'!A0")).toBe(`"Bob;'＝cmd|' /C calc'!A0"`);
    expect(csvCell("Bob；＝1")).toBe(`"Bob；'＝1"`);
  });

  it("looks past leading spaces and control characters (the mark goes just before the sign)", () => {
    expect(csvCell(" =1+1")).toBe(`" '=1+1"`);
    expect(csvCell("\t=1+1")).toBe(`"\t'=1+1"`);
    expect(csvCell("\u0000=1+1")).toBe(`"\u0000'=1+1"`);
    expect(csvCell("\u3000＝1")).toBe(`"\u3000'＝1"`);
    expect(csvCell("\r=1")).toBe(`"\r'=1"`);
    // Quoted whenever a separator is inside, even without a formula: one cell in every locale.
    expect(csvCell("Smith; Jones")).toBe(`"Smith; Jones"`);
    expect(csvCell("a\tb")).toBe(`"a\tb"`);
  });
});

describe("the payout day in words", () => {
  it("says 18th, 1st, 2nd, 3rd, 11th, 12th, 13th, 21st, 22nd, 23rd", () => {
    expect([18, 1, 2, 3, 11, 12, 13, 21, 22, 23, 28].map(ordinalDay)).toEqual([
      "18th",
      "1st",
      "2nd",
      "3rd",
      "11th",
      "12th",
      "13th",
      "21st",
      "22nd",
      "23rd",
      "28th",
    ]);
  });
});
