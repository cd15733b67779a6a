import { describe, expect, it } from "vitest";
import { csvCell, toCsv } from "~/lib/csv";
import { ordinalDay } from "~/modules/payments/calendar";

describe("the shared CSV writer (app/lib/csv.ts)", () => {
  it("keeps a plain negative number as data, and still defuses formulas", () => {
    expect(csvCell("-5.00")).toBe("-5.00");
    expect(csvCell("-12")).toBe("-12");
    expect(csvCell("-1+1")).toBe("'-1+1");
    expect(csvCell("=SUM(A1)")).toBe("'=SUM(A1)");
    expect(csvCell("+1")).toBe("'+1");
    expect(csvCell('a,"b"')).toBe('"a,""b"""');
    expect(toCsv([["a", 1, null]])).toBe("a,1,\r\n");
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
