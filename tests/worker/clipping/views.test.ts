// YouTube Shorts clip views from the provider (issue 16, docs/decisions/0154): read through the
// channels module's videos lookup (the one campaigns use; the local stand-in answers
// /dev/oauth/youtube/videos) when the creator approves the clip and by the daily job, which reads
// TikTok and Instagram Reels through the views provider too (decision 0266) unless an admin entered
// the views (pinned). A provider failure keeps the last views, never a 500.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { registerStandInVideo } from "~/dev/dev-oauth.server";
import { registerStandInPost } from "~/dev/dev-social.server";
import { linkSocial } from "../social-link";
import { refreshClipViews } from "~/modules/clipping/clipping.server";
import { fetchApp, outcome, withCookie } from "../helpers";
import { act, mp4Bytes, pair, uploadSource } from "./helpers";

const shortId = (p: string) => `${p}${crypto.randomUUID().replace(/-/g, "").slice(0, 10)}`;

async function insertClip(
  creatorId: string,
  clipperId: string,
  o: {
    platform?: "youtube_shorts" | "tiktok" | "instagram_reels";
    videoId: string;
    status: string;
    views?: number;
    viewsUpdatedAt?: string | null;
    pinned?: boolean;
  },
) {
  const id = crypto.randomUUID();
  const platform = o.platform ?? "youtube_shorts";
  const url =
    platform === "tiktok"
      ? `https://www.tiktok.com/@someone/video/${o.videoId}`
      : platform === "instagram_reels"
        ? `https://www.instagram.com/reel/${o.videoId}/`
        : `https://www.youtube.com/shorts/${o.videoId}`;
  await env.DB.prepare(
    "INSERT INTO clips (id, creator_user_id, clipper_user_id, platform, url, video_id, status, views, views_updated_at, approved_at, views_pinned_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  )
    .bind(
      id,
      creatorId,
      clipperId,
      platform,
      url,
      o.videoId,
      o.status,
      o.views ?? 0,
      o.viewsUpdatedAt ?? null,
      o.status === "pending" ? null : "2030-01-01T00:00:00.000Z",
      o.pinned ? "2030-01-01T00:00:00.000Z" : null,
    )
    .run();
  return id;
}

const viewsOf = (id: string) =>
  env.DB.prepare("SELECT views, views_updated_at FROM clips WHERE id = ?").bind(id).first<{ views: number; views_updated_at: string | null }>();

describe("YouTube clip views from the provider", () => {
  it("approving a YouTube Shorts clip reads its views from the provider", async () => {
    const { creator, clipper } = await pair();
    const videoId = shortId("A");
    await registerStandInVideo(videoId, "UCstandinClipViews000001", 12_345);
    const clipId = await insertClip(creator.id, clipper.id, { videoId, status: "pending" });
    expect(await outcome(await act(creator, { intent: "review-clip", clipId, decision: "approve" }))).toBe("→/clipping");
    expect(await viewsOf(clipId)).toMatchObject({ views: 12_345 });
    expect((await viewsOf(clipId))?.views_updated_at).toBeTruthy();
  });

  it("the daily job refreshes approved clips (and those asked to be removed) on every platform, not pending ones nor views an admin entered", async () => {
    const { creator, clipper } = await pair();
    const [a, b, p] = [shortId("B"), shortId("C"), shortId("D")];
    for (const id of [a, b, p]) await registerStandInVideo(id, "UCstandinClipViews000001", 40_000);
    const approved = await insertClip(creator.id, clipper.id, { videoId: a, status: "approved", views: 10 });
    const removal = await insertClip(creator.id, clipper.id, { videoId: b, status: "removal_requested", views: 10 });
    const pending = await insertClip(creator.id, clipper.id, { videoId: p, status: "pending", views: 0 });
    // Entered by an admin (pinned): stays. Read from TikTok / Instagram through the views provider (the stand-in).
    const tiktok = await insertClip(creator.id, clipper.id, { platform: "tiktok", videoId: `7${Date.now()}`, status: "approved", views: 77, pinned: true });
    const [tt, ig] = [`71${Date.now()}`, shortId("Reel")];
    // The clipper posted them: their linked accounts read the views (decisions 0299, 0300).
    const handle = `clipper_${tt.slice(-8)}`;
    for (const platform of ["tiktok", "instagram"] as const) expect(await outcome(await linkSocial(clipper, platform, handle))).toBe("→/channels");
    await registerStandInPost("tiktok", tt, { author: handle, views: 5_555 });
    await registerStandInPost("instagram", ig, { author: handle, views: 6_666 });
    const tiktokRead = await insertClip(creator.id, clipper.id, { platform: "tiktok", videoId: tt, status: "approved", views: 1 });
    const reelRead = await insertClip(creator.id, clipper.id, { platform: "instagram_reels", videoId: ig, status: "approved", views: 1 });
    const summary = await refreshClipViews({ limit: 10_000 });
    expect(summary.updated).toBeGreaterThanOrEqual(4);
    expect((await viewsOf(approved))?.views).toBe(40_000);
    expect((await viewsOf(removal))?.views).toBe(40_000);
    expect((await viewsOf(pending))?.views).toBe(0);
    expect((await viewsOf(tiktok))?.views).toBe(77);
    expect((await viewsOf(tiktokRead))?.views).toBe(5_555);
    expect((await viewsOf(reelRead))?.views).toBe(6_666);
    // The next day the provider has more views.
    await registerStandInVideo(a, "UCstandinClipViews000001", 41_500);
    await refreshClipViews({ limit: 10_000 });
    expect((await viewsOf(approved))?.views).toBe(41_500);
  });

  it("a provider failure keeps the last views: the job goes on with the other clips; approving still succeeds (no 500)", async () => {
    const { creator, clipper } = await pair();
    const [down, up, gone, toApprove] = [shortId("E"), shortId("F"), shortId("G"), shortId("H")];
    await registerStandInVideo(down, "UCstandinClipViews000001", "unavailable");
    await registerStandInVideo(up, "UCstandinClipViews000001", 900);
    await registerStandInVideo(toApprove, "UCstandinClipViews000001", "unavailable");
    const kept = await insertClip(creator.id, clipper.id, { videoId: down, status: "approved", views: 500, viewsUpdatedAt: "2030-01-02T00:00:00.000Z" });
    const fresh = await insertClip(creator.id, clipper.id, { videoId: up, status: "approved", views: 1 });
    // A video the provider no longer has: its last views stay too.
    const missing = await insertClip(creator.id, clipper.id, { videoId: gone, status: "approved", views: 321 });
    const summary = await refreshClipViews({ limit: 10_000 });
    expect(summary.failed).toBeGreaterThanOrEqual(2);
    expect(await viewsOf(kept)).toEqual({ views: 500, views_updated_at: "2030-01-02T00:00:00.000Z" });
    expect((await viewsOf(missing))?.views).toBe(321);
    expect((await viewsOf(fresh))?.views).toBe(900);

    const pendingId = await insertClip(creator.id, clipper.id, { videoId: toApprove, status: "pending" });
    expect(await outcome(await act(creator, { intent: "review-clip", clipId: pendingId, decision: "approve" }))).toBe("→/clipping");
    const row = await env.DB.prepare("SELECT status, views FROM clips WHERE id = ?").bind(pendingId).first();
    expect(row).toEqual({ status: "approved", views: 0 });
  });

  it("a YouTube video the provider does not know is flagged to the creator, never approved with 0 views (issue 31 §3)", async () => {
    const { creator, clipper, linkId } = await pair();
    const sourceId = await uploadSource(creator, mp4Bytes(2048), "unknown.mp4");
    const unknown = shortId("U");
    const submitted = await act(clipper, { intent: "submit-clip", linkId, platform: "youtube_shorts", url: `https://youtu.be/${unknown}`, sourceId });
    expect(await outcome(submitted)).toBe("→/clipping");
    const clip = await env.DB.prepare("SELECT id, status, views, video_not_found_at FROM clips WHERE video_id = ?")
      .bind(unknown)
      .first<{ id: string; status: string; views: number; video_not_found_at: string | null }>();
    expect(clip?.status).toBe("pending");
    expect(clip?.video_not_found_at).toBeTruthy();
    // The creator is told at once, in the notification and on the row.
    const note = await env.DB.prepare(
      "SELECT n.content FROM user_notifications un JOIN notifications n ON n.id = un.notification_id WHERE un.user_id = ? AND n.title = 'New clip to review'",
    )
      .bind(creator.id)
      .first<{ content: string }>();
    expect(note?.content).toContain("YouTube does not know this video: check the link before approving it");
    const html = await (await fetchApp("/clipping", withCookie(creator.cookie))).text();
    expect(html).toContain("Not found on YouTube");

    // Approving is refused with the reason: the clip stays pending with no views.
    const refused = await act(creator, { intent: "review-clip", clipId: clip?.id ?? "", decision: "approve" });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("YouTube does not know this video, so it cannot be approved with its views.");
    expect(await env.DB.prepare("SELECT status, views, approved_at FROM clips WHERE id = ?").bind(clip?.id).first()).toEqual({
      status: "pending",
      views: 0,
      approved_at: null,
    });

    // Once YouTube knows it (published late, link fixed upstream), approval reads its views and clears the flag.
    await registerStandInVideo(unknown, "UCstandinClipViews000001", 2_468);
    expect(await outcome(await act(creator, { intent: "review-clip", clipId: clip?.id ?? "", decision: "approve" }))).toBe("→/clipping");
    expect(await env.DB.prepare("SELECT status, views, video_not_found_at FROM clips WHERE id = ?").bind(clip?.id).first()).toEqual({
      status: "approved",
      views: 2_468,
      video_not_found_at: null,
    });
  });

  it("the daily job flags an approved clip whose video YouTube no longer has, keeping its last views", async () => {
    const { creator, clipper } = await pair();
    const gone = shortId("V");
    const clipId = await insertClip(creator.id, clipper.id, { videoId: gone, status: "approved", views: 654 });
    await refreshClipViews({ limit: 10_000 });
    const row = await env.DB.prepare("SELECT views, video_not_found_at FROM clips WHERE id = ?")
      .bind(clipId)
      .first<{ views: number; video_not_found_at: string | null }>();
    expect(row?.views).toBe(654);
    expect(row?.video_not_found_at).toBeTruthy();
  });
});
