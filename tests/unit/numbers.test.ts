import { describe, expect, it } from "vitest";
import { readCents, readNumber, readWholeNumber } from "~/lib/numbers";

// Numbers typed into forms (issue 27, item 5; docs/decisions/0203): only unambiguous ones.
describe("readNumber", () => {
  it("reads plain digits and groups of three split by one kind of separator", () => {
    expect(readNumber("1234.56")).toEqual({ ok: true, whole: "1234", fraction: "56" });
    expect(readNumber("1,234.56")).toEqual({ ok: true, whole: "1234", fraction: "56" });
    expect(readNumber("1 234 567")).toEqual({ ok: true, whole: "1234567", fraction: "" });
    expect(readNumber("1_000")).toEqual({ ok: true, whole: "1000", fraction: "" });
    expect(readNumber(" 007 ")).toEqual({ ok: true, whole: "7", fraction: "" });
  });
  it("calls a comma before the last one or two digits a decimal comma, and other commas bad grouping", () => {
    for (const v of ["2,50", "1,00", "1,5", "1.234,56", "1 234,56"]) expect(readNumber(v), v).toEqual({ ok: false, problem: "decimalComma" });
    for (const v of ["1,0000", "12,34,567", "1,234 567", ",5"]) expect(readNumber(v).ok, v).toBe(false);
    expect(readNumber("1,0000")).toEqual({ ok: false, problem: "grouping" });
    for (const v of ["", "-1", "1e3", "abc", "1.2.3", "0x10"]) expect(readNumber(v), v).toEqual({ ok: false, problem: "format" });
  });
});

describe("readCents and readWholeNumber", () => {
  it("money in dollars to cents, at most two decimals", () => {
    expect(readCents("$1,200.5")).toEqual({ ok: true, cents: 120050 });
    expect(readCents("2.50")).toEqual({ ok: true, cents: 250 });
    expect(readCents("2,50")).toEqual({ ok: false, problem: "decimalComma" });
    expect(readCents("1.234")).toEqual({ ok: false, problem: "decimals" });
  });
  it("whole numbers only", () => {
    expect(readWholeNumber("1,250,000")).toEqual({ ok: true, value: 1250000 });
    expect(readWholeNumber("1,00")).toEqual({ ok: false, problem: "decimalComma" });
    expect(readWholeNumber("1.5")).toEqual({ ok: false, problem: "format" });
  });
});
