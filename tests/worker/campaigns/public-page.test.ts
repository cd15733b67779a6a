// The public campaign page (issue 30 §3): anyone sees the budget used with an accessible bar, the
// required track with a play button on a signed preview URL (no session), and a leaderboard of
// approved submissions that shows only what a public page may: first name and last initial, videos
// and verified views — never an e-mail, an amount, a link or a submission not approved; banned
// people are left out. docs/decisions/0244.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { campaignFields } from "../../factories/campaigns";
import { type TrackStatus, trackInsert } from "../../factories/tracks";
import { createUser, type TestUser } from "../../factories/users";
import { fetchApp, okText, outcome, postForm, withCookie } from "../helpers";
import { declareHandles } from "../../factories/channels";
import { present } from "../../helpers/present";

const AUDIO = Uint8Array.from({ length: 800 }, (_, i) => (i * 5 + 1) % 251);
let admin: TestUser;
let alex: TestUser;
let sam: TestUser;
let jo: TestUser;
let banned: TestUser;
const trackId = crypto.randomUUID();
const hiddenTrackId = crypto.randomUUID();

async function insertTrack(id: string, status: TrackStatus, title: string) {
  const audioKey = `music/audio/${id}.wav`;
  await env.MEDIA.put(audioKey, AUDIO, { httpMetadata: { contentType: "audio/wav" } });
  await trackInsert({
    id,
    title,
    artist: "Page Artist",
    genre: "Lo-fi",
    mood: "Chill",
    bpm: 84,
    durationSeconds: 95,
    audioKey,
    audioContentType: "audio/wav",
    audioSize: AUDIO.length,
    peaks: "[1,2]",
    status,
  }).run();
}

/** A live campaign made through the admin console ($1.00 per 1,000 views, budget $10.00). */
async function liveCampaign(requiredTrackId: string): Promise<{ id: string; slug: string }> {
  const slug = `page-${crypto.randomUUID().slice(0, 8)}`;
  const f = campaignFields({ title: "Page Fizz", slug, brief: "Use the track.", rate: "1.00", budget: "10.00", requiredTrackId });
  expect(await outcome(await postForm("/admin/campaigns", f, withCookie(admin.cookie)))).toBe("→/admin/campaigns");
  const row = await env.DB.prepare("SELECT id FROM campaigns WHERE slug = ?").bind(slug).first<{ id: string }>();
  const id = row?.id ?? "";
  expect(await outcome(await postForm("/admin/campaigns", { intent: "launch", id }, withCookie(admin.cookie)))).toBe("→/admin/campaigns");
  return { id, slug };
}

let videoN = 0;
/** A TikTok submission made through /campaigns, reviewed by the admin (approve with views, or reject). */
async function submission(who: TestUser, campaignId: string, review: { views: number } | "reject" | "pending") {
  videoN += 1;
  const url = `https://www.tiktok.com/@page${videoN}/video/76${String(videoN).padStart(17, "0")}`;
  await declareHandles(who.id, { tiktok: `page${videoN}` });
  await postForm("/campaigns", { intent: "join", campaignId, accept: "on" }, withCookie(who.cookie));
  expect(await outcome(await postForm("/campaigns", { intent: "submit", campaignId, url }, withCookie(who.cookie)))).toBe("→/campaigns");
  const sub = await env.DB.prepare("SELECT id FROM campaign_submissions WHERE url = ?").bind(url).first<{ id: string }>();
  const submissionId = sub?.id ?? "";
  if (review === "pending") return url;
  const fields: Record<string, string> =
    review === "reject" ? { intent: "reject", submissionId, reason: "Not the track" } : { intent: "approve", submissionId, views: String(review.views) };
  expect(await outcome(await postForm("/admin/campaigns", fields, withCookie(admin.cookie)))).toBe("→/admin/campaigns");
  return url;
}

let campaign: { id: string; slug: string };
const urls: string[] = [];

beforeAll(async () => {
  [admin, alex, sam, jo, banned] = await Promise.all([
    createUser("admin"),
    createUser("creator", { fullName: "Alexandra Quill-Stone" }),
    createUser("creator", { fullName: "Sam Rivers" }),
    createUser("creator", { fullName: "Jo" }),
    createUser("creator", { fullName: "Later Banned" }),
  ]);
  await insertTrack(trackId, "published", "Night Market");
  await insertTrack(hiddenTrackId, "published", "Soon Withdrawn");
  campaign = await liveCampaign(trackId);
  // Sam: 4,000 + 1,000 views (two videos); Alex: 3,000, then a rejected and a pending one; Jo: 500; the banned one: 9,000 (first until banned).
  urls.push(await submission(sam, campaign.id, { views: 4000 }));
  urls.push(await submission(sam, campaign.id, { views: 1000 }));
  urls.push(await submission(alex, campaign.id, { views: 3000 }));
  urls.push(await submission(alex, campaign.id, "reject"));
  urls.push(await submission(alex, campaign.id, "pending"));
  urls.push(await submission(jo, campaign.id, { views: 500 }));
  urls.push(await submission(banned, campaign.id, { views: 9000 }));
  await env.DB.prepare("UPDATE profiles SET is_banned = 1 WHERE user_id = ?").bind(banned.id).run();
}, 180_000);

const rows = (html: string) =>
  [...html.matchAll(/<tr data-testid="leaderboard-row">([\s\S]*?)<\/tr>/g)].map((m) =>
    [...present(m[1], "a leaderboard row").matchAll(/<t[dh][^>]*>([^<]*)<\/t[dh]>/g)].map((c) => c[1]),
  );

describe("the public campaign page, for anyone", () => {
  it("shows the budget used ($X of $Y) with a progress bar that carries its value", async () => {
    const html = await okText(fetchApp(`/campaigns/${campaign.slug}`));
    // $4.00 + $1.00 + $3.00 + $0.50 + Jo… the banned creator's $9.00 is capped at what was left: the budget is spent.
    const spent = await env.DB.prepare("SELECT spent_cents FROM campaigns WHERE id = ?").bind(campaign.id).first<{ spent_cents: number }>();
    expect(spent?.spent_cents).toBe(1000);
    expect(html).toContain("$10.00 of $10.00 used");
    expect(html).toMatch(/role="progressbar"[^>]*aria-valuenow="100"/);
    expect(html).toContain('aria-valuetext="100% of the budget used"');
  });

  it("lists approved submissions per creator by verified views: first name and last initial, videos, views; nothing private", async () => {
    const html = await okText(fetchApp(`/campaigns/${campaign.slug}`));
    expect(rows(html)).toEqual([
      ["1", "Sam R.", "2", "5,000"],
      ["2", "Alexandra Q.", "1", "3,000"],
      ["3", "Jo", "1", "500"],
    ]);
    for (const secret of [alex.email, sam.email, jo.email, "Rivers", "Quill", "Later", ...urls, "$4.00", "$3.00"]) expect(html).not.toContain(secret);
  });

  it("plays the required track through a signed URL without a session; a changed signature is refused", async () => {
    const html = await okText(fetchApp(`/campaigns/${campaign.slug}`));
    expect(html).toContain("Required track");
    expect(html).toContain('aria-label="Play Night Market by Page Artist"');
    const src = /<audio[^>]*src="([^"]+)"/.exec(html)?.[1]?.replaceAll("&amp;", "&") ?? "";
    expect(src).toMatch(/^\/media\/signed\/music\/audio\/.+\?exp=\d+&sig=[0-9a-f]+$/);
    const audio = await fetchApp(src, { headers: { Range: "bytes=0-99" } });
    expect(audio.status).toBe(206);
    expect(new Uint8Array(await audio.arrayBuffer())).toEqual(AUDIO.slice(0, 100));
    expect((await fetchApp(src.replace(/sig=./, (s) => (s.endsWith("0") ? "sig=1" : "sig=0")))).status).toBe(403);
    // The session route stays closed to visitors.
    expect((await fetchApp(`/music/audio/${trackId}`)).status).not.toBe(200);
  });

  it("a required track that is no longer published shows no player", async () => {
    const other = await liveCampaign(hiddenTrackId);
    await env.DB.prepare("UPDATE music_tracks SET status = 'withdrawn' WHERE id = ?").bind(hiddenTrackId).run();
    const html = await okText(fetchApp(`/campaigns/${other.slug}`));
    expect(html).not.toContain("Soon Withdrawn");
    expect(html).not.toContain("/media/signed/");
    expect(html).toContain("$0.00 of $10.00 used");
    expect(html).toContain("No approved videos yet. Be the first.");
  });
});
