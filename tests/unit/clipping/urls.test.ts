// Clip URLs (issue 16): the three platforms, the video id the revenue import names, and refusals.
import { describe, expect, it } from "vitest";
import { parseClipUrl, platformOfUrl } from "~/modules/clipping/urls";
import { clippingActionSchema, uploadActionSchema } from "~/modules/clipping/schema";

describe("parseClipUrl", () => {
  it("reads YouTube Shorts, TikTok and Instagram Reels URLs", () => {
    expect(parseClipUrl("https://www.youtube.com/shorts/abcdefghijk", "youtube_shorts")).toEqual({
      platform: "youtube_shorts",
      videoId: "abcdefghijk",
      url: "https://www.youtube.com/shorts/abcdefghijk",
    });
    expect(parseClipUrl("https://youtube.com/shorts/abcdefghijk/?feature=share", "youtube_shorts")?.videoId).toBe("abcdefghijk");
    // The share link (issue 31 §3): the same Short, stored under its canonical URL.
    expect(parseClipUrl("https://youtu.be/abcdefghijk?si=xyz", "youtube_shorts")).toEqual({
      platform: "youtube_shorts",
      videoId: "abcdefghijk",
      url: "https://www.youtube.com/shorts/abcdefghijk",
    });
    expect(parseClipUrl("https://youtu.be/shorts/abcdefghijk", "youtube_shorts")).toBeNull();
    expect(parseClipUrl("https://youtu.be/abc", "youtube_shorts")).toBeNull();
    expect(parseClipUrl("https://www.tiktok.com/@some.user/video/7234567890123456789", "tiktok")?.videoId).toBe("7234567890123456789");
    expect(parseClipUrl("https://www.instagram.com/reel/Cx1_aB-9zQ/", "instagram_reels")?.videoId).toBe("Cx1_aB-9zQ");
    expect(parseClipUrl("https://instagram.com/reels/Cx1_aB-9zQ", "instagram_reels")?.url).toBe("https://www.instagram.com/reel/Cx1_aB-9zQ/");
  });

  it("refuses a URL of another platform, another page of the platform, or no URL", () => {
    expect(parseClipUrl("https://www.tiktok.com/@a/video/7234567890123456789", "youtube_shorts")).toBeNull();
    expect(parseClipUrl("https://www.youtube.com/watch?v=abcdefghijk", "youtube_shorts")).toBeNull();
    expect(parseClipUrl("https://www.instagram.com/p/Cx1_aB-9zQ/", "instagram_reels")).toBeNull();
    expect(parseClipUrl("javascript:alert(1)", "tiktok")).toBeNull();
    expect(parseClipUrl("https://evil.example/shorts/abcdefghijk", "youtube_shorts")).toBeNull();
    expect(parseClipUrl("https://user:pw@www.youtube.com/shorts/abcdefghijk", "youtube_shorts")).toBeNull();
  });

  it("names the platform of a host, or none", () => {
    expect(platformOfUrl("https://m.youtube.com/shorts/x")).toBe("youtube_shorts");
    expect(platformOfUrl("https://vimeo.com/123")).toBeNull();
    expect(platformOfUrl("not a url")).toBeNull();
  });
});

describe("the forms", () => {
  it("a split outside 0–100% is refused with its message", () => {
    const id = crypto.randomUUID();
    for (const v of ["101", "-1", "abc", "100.001"]) {
      const r = clippingActionSchema.safeParse({ intent: "request-split", linkId: id, sharePercent: v });
      expect(r.success).toBe(false);
      expect(r.error?.issues[0]?.message).toBe("The share must be between 0% and 100%.");
    }
    expect(clippingActionSchema.parse({ intent: "request-split", linkId: id, sharePercent: "72.5" })).toMatchObject({ sharePercent: 7250 });
  });

  it("an upload over 5 GB is refused", () => {
    const r = uploadActionSchema.safeParse({ intent: "start", name: "a.mp4", size: String(5_000_000_001), chunk: new File(["x"], "part") });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe("A source video must be 5 GB or smaller.");
  });
});
