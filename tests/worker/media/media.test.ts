import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signMediaUrl } from "~/modules/media/media.server";
import { checkUpload, IMAGE_TYPES, parseRange, putFile, signUrl, sniffType, verifySignedUrl } from "~/platform/storage.server";
import { fetchApp } from "../helpers";

const bytes = (n: number) => Uint8Array.from({ length: n }, (_, i) => i % 251);

async function putVideo(key: string, size = 1000) {
  const body = bytes(size);
  await env.MEDIA.put(key, body, { httpMetadata: { contentType: "video/mp4" }, customMetadata: { filename: "clip.mp4" } });
  return body;
}

describe("signed media URLs", () => {
  it("serves a MEDIA object through a signed URL with type, disposition and nosniff", async () => {
    const body = await putVideo("tests/ok.mp4");
    const url = await signMediaUrl("tests/ok.mp4");
    expect(url).toMatch(/^\/media\/signed\/tests\/ok\.mp4\?exp=\d+&sig=[0-9a-f]{64}$/);
    const res = await fetchApp(url);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("video/mp4");
    expect(res.headers.get("Content-Disposition")).toBe('inline; filename="clip.mp4"');
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(res.headers.get("Accept-Ranges")).toBe("bytes");
    expect(res.headers.get("Cache-Control")).toMatch(/^private, max-age=(3[0-5]\d\d|3600)$/);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(body);
  });

  it("is valid for 3600 seconds by default", async () => {
    const url = new URL(await signMediaUrl("tests/ok.mp4"), "https://x");
    const exp = Number(url.searchParams.get("exp"));
    const now = Math.floor(Date.now() / 1000);
    expect(exp - now).toBeGreaterThanOrEqual(3599);
    expect(exp - now).toBeLessThanOrEqual(3600);
  });

  it("refuses a tampered signature, path or expiry with 403", async () => {
    await putVideo("tests/a.mp4");
    await putVideo("tests/b.mp4");
    const url = new URL(await signMediaUrl("tests/a.mp4"), "https://shortbeat.test");
    const sig = url.searchParams.get("sig")!;
    const exp = url.searchParams.get("exp")!;

    const flipped = sig.slice(0, -1) + (sig.endsWith("0") ? "1" : "0");
    expect((await fetchApp(`/media/signed/tests/a.mp4?exp=${exp}&sig=${flipped}`)).status).toBe(403);
    // Another object with a's signature.
    expect((await fetchApp(`/media/signed/tests/b.mp4?exp=${exp}&sig=${sig}`)).status).toBe(403);
    // Extending the expiry.
    expect((await fetchApp(`/media/signed/tests/a.mp4?exp=${Number(exp) + 86400}&sig=${sig}`)).status).toBe(403);
    // Missing or malformed parts.
    expect((await fetchApp(`/media/signed/tests/a.mp4`)).status).toBe(403);
    expect((await fetchApp(`/media/signed/tests/a.mp4?exp=${exp}`)).status).toBe(403);
    expect((await fetchApp(`/media/signed/tests/a.mp4?exp=abc&sig=${sig}`)).status).toBe(403);
    // Path traversal (encoded, so the URL parser keeps it) never reaches the bucket.
    expect((await fetchApp(`/media/signed/tests%2F..%2Fa.mp4?exp=${exp}&sig=${sig}`)).status).toBe(403);
    // The genuine URL still works.
    expect((await fetchApp(url.pathname + url.search)).status).toBe(200);
  });

  it("answers a refused signature as the one failure shape (JSON, 403, not cached)", async () => {
    await putVideo("tests/shape.mp4");
    const url = new URL(await signMediaUrl("tests/shape.mp4"), "https://shortbeat.test");
    url.searchParams.set("sig", "0".repeat(64));
    const res = await fetchApp(url.pathname + url.search);
    expect(res.status).toBe(403);
    expect(res.headers.get("Cache-Control")).toContain("no-store");
    expect(await res.json()).toMatchObject({ ok: false, code: "forbidden", error: "Forbidden: invalid signature" });
  });

  it("refuses an expired URL with 403", async () => {
    await putVideo("tests/old.mp4");
    const url = await signMediaUrl("tests/old.mp4", 60, Date.now() - 120_000);
    const res = await fetchApp(url);
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("expired");
  });

  it("answers a Range request with 206 and Content-Range (video seeking)", async () => {
    const body = await putVideo("tests/range.mp4", 1000);
    const url = await signMediaUrl("tests/range.mp4");

    const mid = await fetchApp(url, { headers: { Range: "bytes=100-199" } });
    expect(mid.status).toBe(206);
    expect(mid.headers.get("Content-Range")).toBe("bytes 100-199/1000");
    expect(mid.headers.get("Content-Length")).toBe("100");
    expect(mid.headers.get("Content-Type")).toBe("video/mp4");
    expect(new Uint8Array(await mid.arrayBuffer())).toEqual(body.slice(100, 200));

    const open = await fetchApp(url, { headers: { Range: "bytes=990-" } });
    expect(open.status).toBe(206);
    expect(open.headers.get("Content-Range")).toBe("bytes 990-999/1000");
    expect(new Uint8Array(await open.arrayBuffer())).toEqual(body.slice(990));

    const suffix = await fetchApp(url, { headers: { Range: "bytes=-10" } });
    expect(suffix.status).toBe(206);
    expect(suffix.headers.get("Content-Range")).toBe("bytes 990-999/1000");

    const beyond = await fetchApp(url, { headers: { Range: "bytes=5000-" } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get("Content-Range")).toBe("bytes */1000");
  });

  it("answers HEAD with the headers and no body", async () => {
    await putVideo("tests/head.mp4", 321);
    const url = await signMediaUrl("tests/head.mp4");
    const res = await fetchApp(url, { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Length")).toBe("321");
    expect(res.headers.get("Content-Type")).toBe("video/mp4");
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });

  it("sends a stored type we do not serve inline as an octet-stream attachment", async () => {
    await env.MEDIA.put("tests/page.html", "<script>alert(1)</script>", { httpMetadata: { contentType: "text/html" } });
    const res = await fetchApp(await signMediaUrl("tests/page.html"));
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/octet-stream");
    expect(res.headers.get("Content-Disposition")).toMatch(/^attachment;/);
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
  });

  it("answers 404 for a signed URL of a missing object", async () => {
    expect((await fetchApp(await signMediaUrl("tests/missing.mp4"))).status).toBe(404);
  });
});

describe("public avatars", () => {
  it("serves AVATARS objects publicly with long cache headers and the right type", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    await env.AVATARS.put("avatars/test.png", png, { httpMetadata: { contentType: "image/png" } });
    const res = await fetchApp("/media/avatars/avatars/test.png");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("image/png");
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(res.headers.get("ETag")).toBeTruthy();
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(png);

    const again = await fetchApp("/media/avatars/avatars/test.png", { headers: { "If-None-Match": res.headers.get("ETag")! } });
    expect(again.status).toBe(304);
  });

  it("answers 404 for a missing avatar and for a key outside the allowed shape", async () => {
    expect((await fetchApp("/media/avatars/avatars/none.png")).status).toBe(404);
    expect((await fetchApp("/media/avatars/a%2F..%2F..%2Fsecret")).status).toBe(404);
  });

  it("never serves MEDIA objects through the public avatars path", async () => {
    await putVideo("tests/private.mp4");
    expect((await fetchApp("/media/avatars/tests/private.mp4")).status).toBe(404);
  });
});

describe("content checks", () => {
  it("recognises each accepted type by its magic bytes", () => {
    const b = (...xs: (number | string)[]) => Uint8Array.from(xs.flatMap((x) => (typeof x === "string" ? [...x].map((c) => c.charCodeAt(0)) : [x])));
    expect(sniffType(b(0x89, "PNG", 0x0d, 0x0a, 0x1a, 0x0a))).toBe("image/png");
    expect(sniffType(b(0xff, 0xd8, 0xff, 0xe0))).toBe("image/jpeg");
    expect(sniffType(b("GIF89a"))).toBe("image/gif");
    expect(sniffType(b("RIFF", 0, 0, 0, 0, "WEBP"))).toBe("image/webp");
    expect(sniffType(b(0, 0, 0, 0x18, "ftypisom"))).toBe("video/mp4");
    expect(sniffType(b(0, 0, 0, 0x14, "ftypqt  "))).toBe("video/quicktime");
    expect(sniffType(b(0x1a, 0x45, 0xdf, 0xa3))).toBe("video/webm");
    expect(sniffType(b("<svg xmlns"))).toBeNull();
    expect(sniffType(b("RIFF", 0, 0, 0, 0, "WAVE"))).toBeNull();
  });

  it("parses single byte ranges", () => {
    expect(parseRange("bytes=0-9", 100)).toEqual({ offset: 0, length: 10 });
    expect(parseRange("bytes=90-", 100)).toEqual({ offset: 90, length: 10 });
    expect(parseRange("bytes=-5", 100)).toEqual({ offset: 95, length: 5 });
    expect(parseRange("bytes=50-500", 100)).toEqual({ offset: 50, length: 50 });
    expect(parseRange("bytes=100-", 100)).toBe("unsatisfiable");
    expect(parseRange("bytes=0-1,5-6", 100)).toBeNull();
    expect(parseRange(null, 100)).toBeNull();
  });
});

describe("storage for every domain (app/platform/storage.server.ts)", () => {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 1, 2, 3, 4]);

  it("stores a checked file under a server-made key with the sniffed type, never the claimed one", async () => {
    const file = new File([png], "My Photo!.exe", { type: "text/html" });
    const check = await checkUpload(file, IMAGE_TYPES, 1024, "The image");
    expect(check).toEqual({ ok: true, type: "image/png", size: png.length });
    if (!check.ok) return;
    const key = await putFile(env.MEDIA, file, check.type, "tests/uploads");
    expect(key).toMatch(/^tests\/uploads\/[0-9a-f-]{36}\.png$/);
    const stored = await env.MEDIA.head(key);
    expect(stored?.httpMetadata?.contentType).toBe("image/png");
    expect(stored?.customMetadata?.filename).toBe("My-Photo.png");
  });

  it("refuses content that is not of an allowed kind, an empty file and a file over the cap", async () => {
    const svg = new File(["<svg xmlns='http://www.w3.org/2000/svg'/>"], "x.png", { type: "image/png" });
    expect(await checkUpload(svg, IMAGE_TYPES, 1024, "The image")).toEqual({
      ok: false,
      error: "The image must be one of: PNG, JPG, WEBP, GIF.",
    });
    expect(await checkUpload(new File([], "e.png"), IMAGE_TYPES, 1024, "The image")).toEqual({
      ok: false,
      error: "The image is empty.",
    });
    const big = new File([png, new Uint8Array(2 * 1024 * 1024)], "big.png");
    expect(await checkUpload(big, IMAGE_TYPES, 1024 * 1024, "The image")).toEqual({
      ok: false,
      error: "The image must be 1 MB or smaller.",
    });
  });

  it("binds a signature to its path prefix: a URL signed for one place does not open another", async () => {
    const signed = new URL(await signUrl("/exports/", "a/b.csv", 60), "https://shortbeat.test");
    expect(await verifySignedUrl(signed, "/exports/")).toMatchObject({ ok: true, key: "a/b.csv" });
    const moved = new URL(signed.toString().replace("/exports/", "/media/signed/"));
    expect(await verifySignedUrl(moved, "/media/signed/")).toEqual({ ok: false, reason: "bad-signature" });
  });
});
