import { describe, expect, it } from "vitest";
import { hasControlCharacters, sanitizeStrict, sanitizeText } from "~/lib/sanitize";

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
