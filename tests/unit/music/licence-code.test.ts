import { describe, expect, it } from "vitest";
import { RESERVED_SLUGS, slugProblem } from "~/modules/agencies/messages";
import { CROCKFORD, LICENCE_CODE_BITS, LICENCE_CODE_PATTERN, newLicenceCode, normalizeLicenceCode } from "~/modules/music/licence-code";
import { present } from "../../helpers/present";

// Licence codes (issue 13): 'SB-XXXX-XXXX-XXXX', 60 random bits in Crockford base32, looked up in
// any case with or without dashes; 'licences' is a reserved agency slug. docs/decisions/0115.

describe("newLicenceCode", () => {
  it("is SB- and three groups of four Crockford characters (60 random bits)", () => {
    expect(LICENCE_CODE_BITS).toBeGreaterThanOrEqual(60);
    for (let i = 0; i < 200; i++) expect(newLicenceCode()).toMatch(LICENCE_CODE_PATTERN);
  });

  it("uses each byte's low 5 bits, so every character is uniform over the 32 symbols", () => {
    expect(newLicenceCode((b) => b.fill(0))).toBe("SB-0000-0000-0000");
    expect(newLicenceCode((b) => b.fill(255))).toBe("SB-ZZZZ-ZZZZ-ZZZZ");
    expect(newLicenceCode((b) => b.map((_, i) => i + 32))).toBe("SB-0123-4567-89AB");
  });

  it("draws from the whole alphabet in every position, and does not repeat (entropy)", () => {
    const n = 20_000;
    const codes = Array.from({ length: n }, () => newLicenceCode());
    expect(new Set(codes).size).toBe(n);
    const bodies = codes.map((c) => c.replaceAll("-", "").slice(2));
    for (let pos = 0; pos < 12; pos++) {
      const counts = new Map<string, number>();
      for (const b of bodies) {
        const symbol = present(b[pos], `symbol ${pos} of ${b}`);
        counts.set(symbol, (counts.get(symbol) ?? 0) + 1);
      }
      expect(counts.size, `position ${pos}`).toBe(32);
      // Expected n/32 = 625 per symbol; a uniform source stays well inside ±25%.
      for (const c of counts.values()) expect(Math.abs(c - n / 32), `position ${pos}`).toBeLessThan(n / 32 / 4);
    }
    // Shannon entropy per character close to the 5 bits of a uniform symbol.
    const all = new Map<string, number>();
    for (const b of bodies) for (const ch of b) all.set(ch, (all.get(ch) ?? 0) + 1);
    const total = n * 12;
    const entropy = -[...all.values()].reduce((s, c) => s + (c / total) * Math.log2(c / total), 0);
    expect(entropy * 12).toBeGreaterThan(59.9);
  });
});

describe("normalizeLicenceCode", () => {
  it.each([
    ["SB-7K2M-9XQ4-TP0A", "SB-7K2M-9XQ4-TP0A"],
    ["sb-7k2m-9xq4-tp0a", "SB-7K2M-9XQ4-TP0A"],
    ["SB7K2M9XQ4TP0A", "SB-7K2M-9XQ4-TP0A"],
    ["7k2m9xq4tp0a", "SB-7K2M-9XQ4-TP0A"],
    [" 7K2M 9XQ4 TP0A ", "SB-7K2M-9XQ4-TP0A"],
    ["SB-7K2M-9XQ4-TPOA", "SB-7K2M-9XQ4-TP0A"], // O is read as 0
    ["sb-ilil-0000-0000", "SB-1111-0000-0000"], // I and L are read as 1
    ["SBSB12SB12SB", "SB-SBSB-12SB-12SB"], // twelve characters are a body, even one starting with SB
  ])("%s → %s", (input, want) => {
    expect(normalizeLicenceCode(input)).toBe(want);
  });

  it.each(["", "SB-", "SB-7K2M-9XQ4", "SB-7K2M-9XQ4-TP0A-1", "SB-UUUU-UUUU-UUUU", "SB-7K2M-9XQ4-TP0!", "x".repeat(1000), null, 42])("refuses %s", (input) => {
    expect(normalizeLicenceCode(input)).toBeNull();
  });

  it("keeps every generated code as it is", () => {
    for (let i = 0; i < 100; i++) {
      const code = newLicenceCode();
      expect(normalizeLicenceCode(code)).toBe(code);
      expect(normalizeLicenceCode(code.toLowerCase().replaceAll("-", ""))).toBe(code);
    }
  });

  it("has no look-alike letters in its alphabet", () => {
    expect(CROCKFORD).toHaveLength(32);
    expect(CROCKFORD).not.toMatch(/[ILOU]/);
  });
});

describe("reserved slugs", () => {
  it("no agency can take 'licences' (the public verification page)", () => {
    expect(RESERVED_SLUGS.has("licences")).toBe(true);
    expect(slugProblem("licences")).toBe("This slug is reserved. Please choose another.");
  });
});
