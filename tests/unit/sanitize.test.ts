import { describe, expect, it } from "vitest";
import { normalizeAgencyName, profileSchema } from "~/modules/accounts/schema";
import { agencyProfileSchema } from "~/modules/agencies/schema";
import { hasControlCharacters, oneLine, sanitizeLine, sanitizeStrict, sanitizeText } from "~/lib/sanitize";

// Issue 11, item 12: the basic sanitizer runs to a fixed point and drops control characters.
describe("sanitizeText", () => {
  it.each([
    ["javajavascript:script:alert(1)", "alert(1)"],
    ["<<script>>", "script"],
    ["ononclick=click=x", "click=x"],
    ["javascript:on\u0000click=x", "x"],
    ["vbvbscript:script:", ""],
    ["a\u0000b\u0007c", "abc"],
    ["line one\nline two\ttab", "line one\nline two\ttab"],
  ])("%j → %j", (input, expected) => {
    expect(sanitizeText(input)).toBe(expected);
  });

  it("never leaves a scheme or handler that a second pass would remove", () => {
    const nasty = ["java", "javascript:", "script:", "on", "onload=", "load=", "<", ">"];
    for (let i = 0; i < 500; i++) {
      let s = "";
      for (let j = 0; j < 12; j++) s += nasty[Math.floor(Math.random() * nasty.length)];
      const once = sanitizeText(s);
      expect(sanitizeText(once)).toBe(once);
      expect(once).not.toMatch(/javascript\s*:|<|>|\bon[a-z]+\s*=/i);
    }
  });

  it("detects NUL and control characters", () => {
    expect(hasControlCharacters("Casey\u0000")).toBe(true);
    expect(hasControlCharacters("Casey\u001b[31m")).toBe(true);
    expect(hasControlCharacters("Casey Creates\n")).toBe(false);
  });

  it("the strict sanitizer keeps only word characters and a few marks", () => {
    expect(sanitizeStrict("javajavascript:script:abc-123")).toEqual({ ok: true, value: "abc-123" });
  });
});

// Issue 40, item 1 (docs/decisions/0287): a name is one line of plain text wherever it is stored.
describe("names are one line", () => {
  const attack = "Sec Casey\n\nhttps://evil.example/shortbeat-login\n\nSee you";

  it.each([
    [attack, "Sec Casey https://evil.example/shortbeat-login See you"],
    ["Sec Casey\r\nBcc: attacker@example.com", "Sec Casey Bcc: attacker@example.com"],
    ["Tab\tand\u000bvertical\u000cfeed", "Tab andverticalfeed"],
    ["C1\u0085next line\u2028line sep\u2029para", "C1 next line line sep para"],
    ["  spaces  \n  around  ", "spaces around"],
    ["<b>Casey</b> \u0000\u0007ok", "bCasey/b ok"],
    ["Plain name", "Plain name"],
  ])("sanitizeLine(%j) → %j", (input, expected) => {
    expect(sanitizeLine(input)).toBe(expected);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what must be absent
    expect(sanitizeLine(input)).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
  });

  it("oneLine keeps the text but no control character", () => {
    expect(oneLine("a\r\n\r\nb")).toBe("a b");
    expect(oneLine("  a b  ")).toBe("a b");
  });

  it("the forms that store a name keep one line: sign-up, profile, agency", () => {
    const profile = profileSchema.parse({ fullName: attack });
    expect(profile.fullName).toBe("Sec Casey https://evil.example/shortbeat-login See you");
    const agency = agencyProfileSchema.safeParse({ name: "Agency\r\nBcc: x@example.com", contactEmail: "a@example.com" });
    expect(agency.success && agency.data.name).toBe("Agency Bcc: x@example.com");
    expect(normalizeAgencyName("Label\n\nhttps://evil.example")).toBe("Label https://evil.example");
  });
});
