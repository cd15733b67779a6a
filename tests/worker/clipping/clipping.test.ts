// Clipping (issue 16): access and revocation (already-signed URLs stop at once), clips and their
// review, split requests and their one-winner approval, bad input (nothing stored). Invitations and
// the creator's approval: invitations.test.ts.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { registerStandInVideo } from "~/dev/dev-oauth.server";
import { createUser, type TestUser } from "../../factories/users";
import { count, fetchApp, outcome, withCookie } from "../helpers";
import { act, mp4Bytes, pair, uploadSource } from "./helpers";

const linkOf = (creatorId: string, clipperId: string) =>
  env.DB.prepare("SELECT * FROM clipper_links WHERE creator_user_id = ? AND clipper_user_id = ?").bind(creatorId, clipperId).first<Record<string, unknown>>();
const notificationText = async (userId: string, title: string) =>
  (
    await env.DB.prepare(
      "SELECT x.content FROM user_notifications u JOIN notifications x ON x.id = u.notification_id WHERE u.user_id = ? AND x.title = ? ORDER BY x.created_at DESC LIMIT 1",
    )
      .bind(userId, title)
      .first<{ content: string }>()
  )?.content ?? "";
const notificationsOf = (userId: string, title: string) =>
  count("SELECT count(*) AS n FROM user_notifications u JOIN notifications x ON x.id = u.notification_id WHERE u.user_id = ? AND x.title = ?", userId, title);

describe("access and revocation", () => {
  it("the clipper downloads through a signed URL; revoking stops it at once, already-issued URLs too; the clipper is notified", async () => {
    const { creator, clipper, linkId } = await pair();
    const sourceId = await uploadSource(creator, mp4Bytes(4096), "talk.mp4");
    const signed = await fetchApp(`/clipping/sources/${sourceId}/download`, withCookie(clipper.cookie));
    expect(signed.status).toBe(302);
    const url = signed.headers.get("Location") ?? "";
    expect(url).toMatch(new RegExp(`^/clipping/files/${clipper.id}/clipping/${creator.id}/.+\\?exp=\\d+&sig=[0-9a-f]{64}$`));
    // The URL works without a session (a download manager), while access lasts.
    expect((await fetchApp(url)).status).toBe(200);
    // Another user's session cannot turn it into theirs: the signature names the user.
    const stranger = await createUser("creator");
    expect((await fetchApp(url.replace(clipper.id, stranger.id))).status).toBe(404);
    expect((await fetchApp(`/clipping/sources/${sourceId}/download`, withCookie(stranger.cookie))).status).toBe(404);

    const revoked = await act(creator, { intent: "revoke", linkId });
    expect(await outcome(revoked)).toBe("→/clipping");
    // The revoked clipper is told why (issue 31 §3), on the download and on an already-issued URL.
    const stale = await fetchApp(url);
    expect(stale.status).toBe(403);
    expect(await stale.text()).toBe("Your access to this creator's source folder has been revoked.");
    const again = await fetchApp(`/clipping/sources/${sourceId}/download`, withCookie(clipper.cookie));
    expect(again.status).toBe(403);
    const body = await again.text();
    expect(body).toContain("Your access to this creator's source folder has been revoked.");
    expect(body).not.toContain("This source video is not in the folder.");
    // Anyone else still cannot tell the source exists.
    expect((await fetchApp(`/clipping/sources/${sourceId}/download`, withCookie(stranger.cookie))).status).toBe(404);
    expect(await notificationsOf(clipper.id, "Clipping access revoked")).toBe(1);
    // The notification names the creator.
    expect(await notificationText(clipper.id, "Clipping access revoked")).toMatch(/^Test creator revoked your access to their source folder\./);
    expect(await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'clipper_access_revoked' AND target_user_id = ?", clipper.id)).toBe(1);
    // The clipper's page no longer lists the folder.
    expect(await (await fetchApp("/clipping", withCookie(clipper.cookie))).text()).toContain("This creator revoked your access.");
  });

  it("two revocations at once: one wins, the other is told; a clipper cannot revoke, a stranger gets 404", async () => {
    const { creator, clipper, linkId } = await pair();
    expect((await act(clipper, { intent: "revoke", linkId })).status).toBe(404);
    const answers = await Promise.all([act(creator, { intent: "revoke", linkId }), act(creator, { intent: "revoke", linkId })]);
    expect((await Promise.all(answers.map(outcome))).sort()).toEqual(["409", "→/clipping"]);
    expect(await notificationsOf(clipper.id, "Clipping access revoked")).toBe(1);
  });

  it("a banned clipper's signed URL stops too", async () => {
    const { creator, clipper } = await pair();
    const sourceId = await uploadSource(creator, mp4Bytes(1024));
    const url = (await fetchApp(`/clipping/sources/${sourceId}/download`, withCookie(clipper.cookie))).headers.get("Location") ?? "";
    expect((await fetchApp(url)).status).toBe(200);
    await env.DB.prepare("UPDATE profiles SET is_banned = 1 WHERE user_id = ?").bind(clipper.id).run();
    expect((await fetchApp(url)).status).toBe(404);
  });
});

describe("clips", () => {
  let creator: TestUser;
  let clipper: TestUser;
  let linkId: string;
  let sourceId: string;
  beforeAll(async () => {
    ({ creator, clipper, linkId } = await pair());
    await env.DB.batch([
      env.DB.prepare("UPDATE profiles SET full_name = 'Sam Clipper' WHERE user_id = ?").bind(clipper.id),
      env.DB.prepare("UPDATE profiles SET full_name = 'Casey Creator' WHERE user_id = ?").bind(creator.id),
    ]);
    sourceId = await uploadSource(creator, mp4Bytes(2048), "podcast.mp4");
  }, 60_000);

  const submit = (url: string, platform = "youtube_shorts", user = clipper, link = linkId) =>
    act(user, { intent: "submit-clip", linkId: link, platform, url, sourceId });

  it("submit → creator approves → removal requested (clipper notified) → clipper marks removed; both see status and views", async () => {
    await registerStandInVideo("AbCdEfGhIj1", "UCstandinClipViews000001", 321);
    const res = await submit("https://www.youtube.com/shorts/AbCdEfGhIj1");
    expect(await outcome(res)).toBe("→/clipping");
    const clip = await env.DB.prepare("SELECT * FROM clips WHERE video_id = 'AbCdEfGhIj1'").first<Record<string, unknown>>();
    expect(clip).toMatchObject({
      status: "pending",
      creator_user_id: creator.id,
      clipper_user_id: clipper.id,
      source_id: sourceId,
      source_name: "podcast.mp4",
    });
    expect(await notificationsOf(creator.id, "New clip to review")).toBe(1);
    // Named: the clipper's display name, not "A clipper" (issue 31 §3).
    expect(await notificationText(creator.id, "New clip to review")).toBe(
      "Sam Clipper submitted a clip (YouTube Shorts): https://www.youtube.com/shorts/AbCdEfGhIj1",
    );
    const clipId = String(clip?.id);
    // The clipper cannot approve their own clip.
    expect((await act(clipper, { intent: "review-clip", clipId, decision: "approve" })).status).toBe(404);
    // Two approvals at once: one wins.
    const both = await Promise.all([
      act(creator, { intent: "review-clip", clipId, decision: "approve" }),
      act(creator, { intent: "review-clip", clipId, decision: "reject" }),
    ]);
    expect((await Promise.all(both.map(outcome))).sort()).toEqual(["409", "→/clipping"]);
    await env.DB.prepare("UPDATE clips SET status = 'approved', approved_at = ? WHERE id = ?").bind(new Date().toISOString(), clipId).run();
    expect(await outcome(await act(creator, { intent: "request-removal", clipId }))).toBe("→/clipping");
    expect(await notificationsOf(clipper.id, "Clip removal requested")).toBe(1);
    expect(await notificationText(clipper.id, "Clip removal requested")).toMatch(/^Casey Creator asks you to remove your clip /);
    expect(await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'clip_removal_requested' AND user_id = ?", creator.id)).toBe(1);
    expect(await outcome(await act(clipper, { intent: "mark-removed", clipId }))).toBe("→/clipping");
    expect(await notificationText(creator.id, "Clip removed")).toBe("Sam Clipper removed the clip https://www.youtube.com/shorts/AbCdEfGhIj1.");
    for (const user of [creator, clipper]) {
      const html = await (await fetchApp("/clipping", withCookie(user.cookie))).text();
      expect(html).toContain("https://www.youtube.com/shorts/AbCdEfGhIj1");
      expect(html).toContain("Removed");
    }
  });

  it("refuses an unsupported platform, a URL of another platform, a duplicate, a missing source — nothing stored", async () => {
    const before = await count("SELECT count(*) AS n FROM clips WHERE clipper_user_id = ?", clipper.id);
    const vimeo = await submit("https://vimeo.com/123456");
    expect(vimeo.status).toBe(400);
    expect(await vimeo.text()).toContain("Clips can be submitted for YouTube Shorts, TikTok or Instagram Reels only.");
    const wrong = await submit("https://www.tiktok.com/@someone/video/7234567890123456789", "youtube_shorts");
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain("This URL is not a YouTube Shorts link.");
    const badPlatform = await submit("https://www.youtube.com/shorts/AbCdEfGhIj2", "vimeo");
    expect(badPlatform.status).toBe(400);
    expect(await outcome(await submit("https://www.tiktok.com/@someone/video/7234567890123456789", "tiktok"))).toBe("→/clipping");
    const dup = await submit("https://tiktok.com/@someone/video/7234567890123456789", "tiktok");
    expect(dup.status).toBe(409);
    expect(await dup.text()).toContain("This clip has already been submitted.");
    const noSource = await act(clipper, {
      intent: "submit-clip",
      linkId,
      platform: "instagram_reels",
      url: "https://www.instagram.com/reel/Cx1aB9zQ/",
      sourceId: "",
    });
    expect(noSource.status).toBe(400);
    expect(await count("SELECT count(*) AS n FROM clips WHERE clipper_user_id = ?", clipper.id)).toBe(before + 1);
  });

  it("a youtu.be share link is accepted, stored as the Short's URL, and is the same clip as its youtube.com/shorts/ spelling", async () => {
    expect(await outcome(await submit("https://youtu.be/YtBeShare01"))).toBe("→/clipping");
    const clip = await env.DB.prepare("SELECT url, video_id, platform FROM clips WHERE video_id = 'YtBeShare01'").first();
    expect(clip).toEqual({ url: "https://www.youtube.com/shorts/YtBeShare01", video_id: "YtBeShare01", platform: "youtube_shorts" });
    const dup = await submit("https://www.youtube.com/shorts/YtBeShare01");
    expect(dup.status).toBe(409);
    const bad = await submit("https://youtu.be/short");
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("This URL is not a YouTube Shorts link.");
  });

  it("a clip for a revoked creator is refused with a clear message", async () => {
    const p = await pair();
    const src = await uploadSource(p.creator, mp4Bytes(1500));
    await act(p.creator, { intent: "revoke", linkId: p.linkId });
    const res = await act(p.clipper, {
      intent: "submit-clip",
      linkId: p.linkId,
      platform: "youtube_shorts",
      url: "https://www.youtube.com/shorts/ZZZZZZZZZZ1",
      sourceId: src,
    });
    expect(res.status).toBe(409);
    expect(await res.text()).toContain("Your access to this creator&#x27;s source folder has been revoked.");
    expect(await count("SELECT count(*) AS n FROM clips WHERE clipper_user_id = ?", p.clipper.id)).toBe(0);
  });

  it("an admin enters views of a TikTok clip; others may not", async () => {
    const clip = await env.DB.prepare("SELECT id FROM clips WHERE platform = 'tiktok' AND clipper_user_id = ?").bind(clipper.id).first<{ id: string }>();
    const admin = await createUser("admin");
    expect((await act(creator, { intent: "set-views", clipId: clip?.id ?? "", views: "5" })).status).toBe(403);
    expect(await outcome(await act(admin, { intent: "set-views", clipId: clip?.id ?? "", views: "12,345" }))).toBe("→/clipping");
    expect((await env.DB.prepare("SELECT views FROM clips WHERE id = ?").bind(clip?.id).first<{ views: number }>())?.views).toBe(12345);
    // The override is pinned (the daily views job leaves it) and audited old → new (decision 0266).
    expect(
      (await env.DB.prepare("SELECT views_pinned_at FROM clips WHERE id = ?").bind(clip?.id).first<{ views_pinned_at: string | null }>())?.views_pinned_at,
    ).toBeTruthy();
    const audit = await env.DB.prepare("SELECT user_id, details FROM security_audit_log WHERE event_type = 'clip_views_set' AND details LIKE ?")
      .bind(`%${clip?.id}%`)
      .first<{ user_id: string; details: string }>();
    expect(audit?.user_id).toBe(admin.id);
    expect(JSON.parse(audit?.details ?? "{}")).toMatchObject({ views: 12345, pinned: true });
    expect(JSON.parse(audit?.details ?? "{}")).toHaveProperty("views_before");
    // Issue 27, item 5: "1,00" was stored as 100. Refused with the expected form; the views stay.
    for (const views of ["1,00", "2,50", "12,34,567"]) {
      const bad = await act(admin, { intent: "set-views", clipId: clip?.id ?? "", views });
      expect(bad.status, views).toBe(400);
      expect(await bad.text()).toContain("Views must be a whole number: commas only between thousands, e.g. 1,250,000.");
    }
    expect((await env.DB.prepare("SELECT views FROM clips WHERE id = ?").bind(clip?.id).first<{ views: number }>())?.views).toBe(12345);
  });
});

describe("split requests", () => {
  it("the clipper asks for more; two approvals at once: one wins; the split is in force from the confirmation, kept in history, audited", async () => {
    const { creator, clipper, linkId } = await pair();
    for (const v of ["101", "-5", "abc"]) {
      const bad = await act(clipper, { intent: "request-split", linkId, sharePercent: v });
      expect(bad.status).toBe(400);
      expect(await bad.text()).toContain("The share must be between 0% and 100%.");
    }
    const lower = await act(clipper, { intent: "request-split", linkId, sharePercent: "60" });
    expect(lower.status).toBe(400);
    expect(await count("SELECT count(*) AS n FROM clip_split_requests WHERE link_id = ?", linkId)).toBe(0);

    // Two requests at once: one stays open.
    const asks = await Promise.all([
      act(clipper, { intent: "request-split", linkId, sharePercent: "80" }),
      act(clipper, { intent: "request-split", linkId, sharePercent: "85" }),
    ]);
    expect((await Promise.all(asks.map(outcome))).sort()).toEqual(["409", "→/clipping"]);
    expect(await notificationsOf(creator.id, "Split request")).toBe(1);
    const req = await env.DB.prepare("SELECT id, share_bps FROM clip_split_requests WHERE link_id = ? AND status = 'pending'")
      .bind(linkId)
      .first<{ id: string; share_bps: number }>();
    // The clipper cannot answer their own request.
    expect((await act(clipper, { intent: "answer-split", requestId: req?.id ?? "", decision: "approve" })).status).toBe(404);

    const before = new Date().toISOString();
    const answers = await Promise.all([
      act(creator, { intent: "answer-split", requestId: req?.id ?? "", decision: "approve" }),
      act(creator, { intent: "answer-split", requestId: req?.id ?? "", decision: "approve" }),
    ]);
    expect((await Promise.all(answers.map(outcome))).sort()).toEqual(["409", "→/clipping"]);
    const row = await env.DB.prepare("SELECT status, decided_at, from_bps FROM clip_split_requests WHERE id = ?")
      .bind(req?.id)
      .first<{ status: string; decided_at: string; from_bps: number }>();
    expect(row?.status).toBe("approved");
    expect(row?.from_bps).toBe(7000);
    expect(row && row.decided_at >= before).toBe(true);
    expect(await linkOf(creator.id, clipper.id)).toMatchObject({ clipper_share_bps: req?.share_bps });
    expect(await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'clip_split_approved' AND target_user_id = ?", clipper.id)).toBe(1);
    expect(await notificationsOf(clipper.id, "Split approved")).toBe(1);

    // A declined request is history too.
    await act(clipper, { intent: "request-split", linkId, sharePercent: "90" });
    const second = await env.DB.prepare("SELECT id FROM clip_split_requests WHERE link_id = ? AND status = 'pending'").bind(linkId).first<{ id: string }>();
    expect(await outcome(await act(creator, { intent: "answer-split", requestId: second?.id ?? "", decision: "decline" }))).toBe("→/clipping");
    expect(await count("SELECT count(*) AS n FROM clip_split_requests WHERE link_id = ?", linkId)).toBe(2);
    const html = await (await fetchApp("/clipping", withCookie(clipper.cookie))).text();
    expect(html).toContain("Split history");
    expect(html).toContain("Declined");
  });
});
