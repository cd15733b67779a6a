import { describe, expect, it } from "vitest";
import { ARGON2_PARAMS, needsRehash, parseArgon2Params } from "~/modules/accounts/password-policy";
import { PUBLIC_PAGES, escapeXml, sitemapXml } from "~/lib/public-pages";
import { encodeWav, pattern, synthesize } from "~/dev/wav";
import { readCookie, serializeCookie } from "~/platform/cookies.server";
import { contentSecurityPolicy, refuseCrossOrigin } from "~/platform/headers.server";
import { describeError, STACK_PREVIEW_CHARS } from "~/components/error-screen";

describe("sitemap", () => {
  it("lists every public page once, with escaped absolute URLs", () => {
    const xml = sitemapXml("https://shortbeat.app");
    for (const page of PUBLIC_PAGES) {
      expect(xml).toContain(`<loc>${escapeXml(new URL(page.path, "https://shortbeat.app").toString())}</loc>`);
    }
    expect(xml.match(/<loc>/g)).toHaveLength(PUBLIC_PAGES.length);
    expect(escapeXml(`a&b<c>"'`)).toBe("a&amp;b&lt;c&gt;&quot;&apos;");
  });
});

describe("wav synthesis", () => {
  it("writes a valid 16-bit mono PCM header with the right sizes", () => {
    const wav = encodeWav(new Float32Array([0, 1, -1, 0.5]), 8000);
    const view = new DataView(wav.buffer);
    expect(new TextDecoder().decode(wav.slice(0, 4))).toBe("RIFF");
    expect(view.getUint32(4, true)).toBe(36 + 8);
    expect(view.getUint16(22, true)).toBe(1);
    expect(view.getUint32(24, true)).toBe(8000);
    expect(view.getUint16(34, true)).toBe(16);
    expect(view.getUint32(40, true)).toBe(8);
    expect(view.getInt16(46, true)).toBe(0x7fff);
    expect(view.getInt16(48, true)).toBe(-0x8000);
  });

  it("renders a melody of the expected length that is not silent", () => {
    const { wav, durationSeconds } = synthesize({
      bpm: 120,
      melody: pattern([60, 64, 67, 72], 1, 2),
      bass: pattern([36], 8, 1),
      sampleRate: 8000,
    });
    expect(durationSeconds).toBe(4);
    const samples = new Int16Array(wav.buffer.slice(44));
    expect(samples.length).toBe(4 * 8000);
    expect(samples.some((s) => Math.abs(s) > 1000)).toBe(true);
  });
});

describe("password policy", () => {
  it("reads argon2 parameters and asks for a rehash when they differ from today's", () => {
    const current = `$argon2id$v=19$m=${ARGON2_PARAMS.memoryCost},t=${ARGON2_PARAMS.timeCost},p=${ARGON2_PARAMS.parallelism}$c2FsdA$aGFzaA`;
    expect(parseArgon2Params(current)).toEqual({ type: "argon2id", m: 19456, t: 2, p: 1 });
    expect(needsRehash(current)).toBe(false);
    expect(needsRehash("$argon2id$v=19$m=4096,t=3,p=1$c2FsdA$aGFzaA")).toBe(true);
    expect(needsRehash("$argon2i$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA")).toBe(true);
    expect(needsRehash("not-a-hash")).toBe(true);
  });
});

describe("origin check", () => {
  const env = { APP_ORIGIN: "https://shortbeat.app" };
  const req = (method: string, origin?: string) => new Request("https://shortbeat.app/auth", { method, headers: origin ? { Origin: origin } : {} });

  it("lets safe methods through", () => {
    expect(refuseCrossOrigin(req("GET"), env)).toBeNull();
    expect(refuseCrossOrigin(req("HEAD", "https://evil.example"), env)).toBeNull();
  });

  it("accepts our origin and refuses missing, null and foreign ones", () => {
    expect(refuseCrossOrigin(req("POST", "https://shortbeat.app"), env)).toBeNull();
    expect(refuseCrossOrigin(req("POST"), env)?.status).toBe(403);
    expect(refuseCrossOrigin(req("POST", "null"), env)?.status).toBe(403);
    expect(refuseCrossOrigin(req("DELETE", "https://shortbeat.app.evil.example"), env)?.status).toBe(403);
  });

  it("accepts the request's own origin, so any local port works", () => {
    const local = new Request("http://localhost:4321/x", { method: "POST", headers: { Origin: "http://localhost:4321" } });
    expect(refuseCrossOrigin(local, env)).toBeNull();
  });
});

describe("content security policy", () => {
  it("carries the nonce and the required directives", () => {
    const csp = contentSecurityPolicy("abc123", false);
    expect(csp).toContain("'nonce-abc123'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("unsafe-eval");
    expect(contentSecurityPolicy(null, false)).toContain("script-src 'none'");
  });
});

describe("error details", () => {
  it("shows the message and only the first 500 characters of the stack", () => {
    const error = new Error("boom");
    error.stack = "x".repeat(2000);
    const { message, stack } = describeError(error);
    expect(message).toBe("boom");
    expect(stack).toHaveLength(STACK_PREVIEW_CHARS);
    expect(STACK_PREVIEW_CHARS).toBe(500);
  });
});

describe("cookies", () => {
  const req = (cookie: string) => new Request("https://shortbeat.app/", { headers: { Cookie: cookie } });

  it("reads one cookie by name, decoding it, and round-trips what serializeCookie writes", () => {
    const header = serializeCookie("sb_x", "a b=c;d", { maxAge: 60, secure: true }).split(";")[0];
    expect(readCookie(req(`other=1; ${header}; last=2`), "sb_x")).toBe("a b=c;d");
    expect(readCookie(req("other=1"), "sb_x")).toBeNull();
    expect(readCookie(new Request("https://shortbeat.app/"), "sb_x")).toBeNull();
  });

  it("treats a value that is not valid percent-encoding as absent instead of throwing", () => {
    expect(readCookie(req("sb_x=%E0%A4%A; other=1"), "sb_x")).toBeNull();
  });
});
