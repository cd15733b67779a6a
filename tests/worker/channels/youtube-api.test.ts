// The YouTube Data API as Google answers it (issue 41 §2, decisions 0303-0305): videos.list needs an
// OAuth token or an API key (the stand-in refuses neither with Google's 403), a campaign submitter's
// own linked-channel token is enough without YOUTUBE_API_KEY, the views jobs ask 50 ids per call, a
// quotaExceeded answer pauses YouTube until midnight Pacific Time (shown on the admin console), a
// token endpoint outage never asks for a reconnect, and snapshots older than 30 days are pruned.
import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  exhaustStandInQuota,
  handleDevOAuthApi,
  issueStandInGrant,
  registerStandInVideo,
  resetStandInVideoCalls,
  setStandInTokenOutage,
  standInVideoCalls,
} from "~/dev/dev-oauth.server";
import { runDailyChannelRefresh } from "~/modules/channels/channels.server";
import { refreshClipViews } from "~/modules/clipping/clipping.server";
import { encryptToken } from "~/platform/token-crypto.server";
import { campaignFields } from "../../factories/campaigns";
import { CHANNEL_LIST, MISSING_KEY, QUOTA_EXCEEDED, VIDEO_LIST } from "../../factories/youtube-fixtures";
import { createUser, type TestUser } from "../../factories/users";
import { count, fetchApp, ORIGIN, outcome, postForm, withCookie } from "../helpers";
import { present } from "../../helpers/present";

const settings = env as unknown as Record<string, unknown>;
const KEY = settings.YOUTUBE_API_KEY;
const QUOTA_PAUSE = "settings:youtube-quota-paused-until";

let admin: TestUser;
beforeAll(async () => {
  admin = await createUser("admin");
  await fetchApp("/auth");
}, 180_000);

afterEach(async () => {
  settings.YOUTUBE_API_KEY = KEY;
  await exhaustStandInQuota(false);
  await setStandInTokenOutage(false);
  await env.RATE_LIMITS.delete(QUOTA_PAUSE);
  resetStandInVideoCalls();
});

const standIn = (path: string, headers: Record<string, string> = {}) => handleDevOAuthApi(new Request(`${ORIGIN}/dev/oauth/${path}`, { headers }));

/**
 * Links a YouTube channel to the user as the OAuth flow leaves it: a stand-in grant (access and
 * refresh token, stored encrypted) for a Google account of their own; `expired`: the access token
 * is past its expiry, so the next use renews it at the token endpoint.
 */
async function linkWithGrant(user: TestUser, opts: { expired?: boolean } = {}): Promise<{ rowId: string; channelId: string }> {
  const slug = user.id.replace(/-/g, "").slice(0, 12);
  const grant = await issueStandInGrant({ sub: `google-test-${slug}`, email: `yt${slug}@example.com`, name: `YT ${slug}`, email_verified: true });
  const mine = (await (await standIn("youtube/channels", { Authorization: `Bearer ${grant.access_token}` })).json()) as { items: { id: string }[] };
  const channelId = present(mine.items[0], "the grant's channel").id;
  const rowId = crypto.randomUUID();
  const expiresAt = new Date(Date.now() + (opts.expired ? -60_000 : 3_600_000)).toISOString();
  await env.DB.batch([
    env.DB.prepare("INSERT INTO youtube_channels (id, user_id, channel_id, channel_title) VALUES (?, ?, ?, ?)").bind(rowId, user.id, channelId, `YT ${slug}`),
    env.DB.prepare(
      "INSERT INTO youtube_channel_tokens (channel_row_id, access_token_enc, refresh_token_enc, access_token_expires_at) VALUES (?, ?, ?, ?)",
    ).bind(rowId, await encryptToken(grant.access_token, `access:${rowId}`), await encryptToken(grant.refresh_token, `refresh:${rowId}`), expiresAt),
  ]);
  return { rowId, channelId };
}

let videoCounter = 0;
async function youtubeVideo(channelId: string, views?: number): Promise<string> {
  videoCounter += 1;
  const id = `y${String(videoCounter).padStart(3, "0")}${crypto.randomUUID().replace(/-/g, "").slice(0, 7)}`;
  await registerStandInVideo(id, channelId, views);
  return id;
}

/** A live campaign the creator has joined. */
async function joinedCampaign(who: TestUser): Promise<string> {
  const f = campaignFields({ title: `YT ${crypto.randomUUID().slice(0, 6)}`, slug: `yt-${crypto.randomUUID().slice(0, 8)}` });
  expect(await outcome(await postForm("/admin/campaigns", f, withCookie(admin.cookie)))).toBe("→/admin/campaigns");
  const row = await env.DB.prepare("SELECT id FROM campaigns WHERE slug = ?").bind(f.slug).first<{ id: string }>();
  const id = row?.id ?? "";
  expect(await outcome(await postForm("/admin/campaigns", { intent: "launch", id }, withCookie(admin.cookie)))).toBe("→/admin/campaigns");
  expect(await outcome(await postForm("/campaigns", { intent: "join", campaignId: id, accept: "on" }, withCookie(who.cookie)))).toBe("→/campaigns");
  return id;
}

const submit = (who: TestUser, campaignId: string, videoId: string) =>
  postForm("/campaigns", { intent: "submit", campaignId, url: `https://www.youtube.com/shorts/${videoId}` }, withCookie(who.cookie));

/** A JSON value with every leaf replaced by its type: two answers of one shape are equal. */
const shape = (v: unknown): unknown => JSON.parse(JSON.stringify(v, (_k, x) => (x !== null && typeof x !== "object" ? typeof x : x)));

describe("the stand-in answers in the shape of @googleapis/youtube's types (decision 0303)", () => {
  it("videos.list, channels.list and the quotaExceeded error match the typed fixtures", async () => {
    await registerStandInVideo("hiddenViews", "UCstandinSamShorts00001", "unavailable");
    const videos = (await (
      await standIn(`youtube/videos?part=snippet,statistics&id=caseyShort1,hiddenViews,notAVideo1&key=${KEY}`)
    ).json()) as typeof VIDEO_LIST;
    expect(shape(videos)).toEqual(shape(VIDEO_LIST));
    const grant = await issueStandInGrant({ sub: "google-sam-0001", email: "sam.google@example.com", name: "Sam Google", email_verified: true });
    const channels = await (await standIn("youtube/channels?part=snippet,statistics&mine=true", { Authorization: `Bearer ${grant.access_token}` })).json();
    expect(shape(channels)).toEqual(shape(CHANNEL_LIST));
    await exhaustStandInQuota();
    const spent = await standIn(`youtube/videos?part=snippet&id=caseyShort1&key=${KEY}`);
    expect(spent.status).toBe(403);
    expect(await spent.json()).toEqual(QUOTA_EXCEEDED);
  });
});

describe("videos.list credentials (decision 0303)", () => {
  it("the stand-in refuses a videos.list with neither key nor token as Google does: 403 forbidden, 'The request is missing a valid API key.'", async () => {
    const res = await standIn("youtube/videos?part=snippet,statistics&id=caseyShort1");
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual(MISSING_KEY);
    expect((await standIn("youtube/videos?part=snippet&id=caseyShort1&key=not-the-key")).status).toBe(400);
    expect((await standIn(`youtube/videos?part=snippet&id=caseyShort1&key=${KEY}`)).status).toBe(200);
  });

  it("without YOUTUBE_API_KEY, the channel's owner submits a YouTube video: asked with their own token, accepted", async () => {
    const owner = await createUser("creator");
    const { channelId } = await linkWithGrant(owner, { expired: true });
    const campaignId = await joinedCampaign(owner);
    const video = await youtubeVideo(channelId);
    delete settings.YOUTUBE_API_KEY;

    expect(await outcome(await submit(owner, campaignId, video))).toBe("→/campaigns");
    expect(
      await count(
        "SELECT count(*) AS n FROM campaign_submissions WHERE user_id = ? AND video_key = ? AND channel_id = ?",
        owner.id,
        `youtube:${video}`,
        channelId,
      ),
    ).toBe(1);
    expect(standInVideoCalls().at(-1)).toEqual({ ids: [video], credential: "bearer" });

    // A creator whose linked channel has no stored grant, with no key: 503, nothing stored.
    const tokenless = await createUser("creator");
    await env.DB.prepare("INSERT INTO youtube_channels (id, user_id, channel_id, channel_title) VALUES (?, ?, ?, 'Tokenless')")
      .bind(crypto.randomUUID(), tokenless.id, `UCtokenless${tokenless.id.slice(0, 8)}`)
      .run();
    const other = await joinedCampaign(tokenless);
    const refused = await submit(tokenless, other, await youtubeVideo(`UCtokenless${tokenless.id.slice(0, 8)}`));
    expect(refused.status).toBe(503);
    expect(await count("SELECT count(*) AS n FROM campaign_submissions WHERE user_id = ?", tokenless.id)).toBe(0);
  });
});

async function insertClip(creatorId: string, clipperId: string, videoId: string) {
  await env.DB.prepare(
    "INSERT INTO clips (id, creator_user_id, clipper_user_id, platform, url, video_id, status, views, approved_at) VALUES (?, ?, ?, 'youtube_shorts', ?, ?, 'approved', 0, '2030-01-01T00:00:00.000Z')",
  )
    .bind(crypto.randomUUID(), creatorId, clipperId, `https://www.youtube.com/shorts/${videoId}`, videoId)
    .run();
}

describe("the daily views jobs batch and respect the quota (decision 0303)", () => {
  it("120 YouTube clips are read in 3 videos.list calls of at most 50 ids, with the API key", async () => {
    const [creator, clipper] = await Promise.all([createUser("creator"), createUser("clipper")]);
    const ids: string[] = [];
    for (let i = 0; i < 120; i++) ids.push(await youtubeVideo("UCstandinBatchClips00001", 1_000 + i));
    for (const id of ids) await insertClip(creator.id, clipper.id, id);
    resetStandInVideoCalls();

    const summary = await refreshClipViews({ limit: 10_000 });
    expect(summary.updated).toBeGreaterThanOrEqual(120);
    const calls = standInVideoCalls().filter((c) => c.ids.some((id) => ids.includes(id)));
    expect(calls).toHaveLength(3);
    expect(calls.every((c) => c.ids.length <= 50 && c.credential === "key")).toBe(true);
    expect(await count("SELECT count(*) AS n FROM clips WHERE clipper_user_id = ? AND views >= 1000", clipper.id)).toBe(120);
  });

  it("403 quotaExceeded pauses YouTube until midnight Pacific Time: the rest of the run asks nothing, the admin console says so", async () => {
    const [creator, clipper] = await Promise.all([createUser("creator"), createUser("clipper")]);
    for (let i = 0; i < 60; i++) await insertClip(creator.id, clipper.id, await youtubeVideo("UCstandinQuotaClips00001", 5));
    await exhaustStandInQuota();
    resetStandInVideoCalls();

    await refreshClipViews({ limit: 10_000 });
    expect(standInVideoCalls()).toHaveLength(1);
    const until = await env.RATE_LIMITS.get(QUOTA_PAUSE);
    expect(until).not.toBeNull();
    const hoursAhead = (Date.parse(until ?? "") - Date.now()) / 3_600_000;
    expect(hoursAhead).toBeGreaterThan(0);
    expect(hoursAhead).toBeLessThanOrEqual(24);
    // Midnight in Los Angeles.
    expect(
      new Intl.DateTimeFormat("en-US", { timeZone: "America/Los_Angeles", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(new Date(until ?? "")),
    ).toBe("00:00");
    expect(await count("SELECT count(*) AS n FROM clips WHERE clipper_user_id = ? AND views > 0", clipper.id)).toBe(0);

    // A later run before the reset asks nothing.
    await refreshClipViews({ limit: 10_000 });
    expect(standInVideoCalls()).toHaveLength(1);

    const page = await (await fetchApp("/admin/campaigns", withCookie(admin.cookie))).text();
    expect(page).toContain("YouTube calls are paused: the daily quota is used up.");
  });

  it("the admin console warns when YOUTUBE_API_KEY is missing", async () => {
    expect(await (await fetchApp("/admin/campaigns", withCookie(admin.cookie))).text()).not.toContain("YOUTUBE_API_KEY is not set");
    delete settings.YOUTUBE_API_KEY;
    expect(await (await fetchApp("/admin/campaigns", withCookie(admin.cookie))).text()).toContain("YOUTUBE_API_KEY is not set");
  });
});

describe("the token endpoint (decision 0303)", () => {
  it("a 503 from the token endpoint is retried and never asks for a reconnect: the channel stays linked and refreshes on the next run", async () => {
    const owner = await createUser("creator");
    const { rowId } = await linkWithGrant(owner, { expired: true });
    await setStandInTokenOutage(true);

    const down = await runDailyChannelRefresh({ limit: 10_000 });
    const failure = down.failed.find((f) => f.channelRowId === rowId);
    expect(failure).toBeDefined();
    expect(failure?.reconnect).toBe(false);
    expect(await count("SELECT count(*) AS n FROM youtube_channel_tokens WHERE channel_row_id = ?", rowId)).toBe(1);
    // /channels shows it linked, with no reconnect asked.
    const page = await (await fetchApp("/channels", withCookie(owner.cookie))).text();
    expect(page).toContain(`YT ${owner.id.replace(/-/g, "").slice(0, 12)}`);
    expect(page).not.toContain("Reconnect");

    await setStandInTokenOutage(false);
    const up = await runDailyChannelRefresh({ limit: 10_000 });
    expect(up.failed.find((f) => f.channelRowId === rowId)).toBeUndefined();
  });

  it("invalid_grant (a revoked grant) still asks for a reconnect", async () => {
    const owner = await createUser("creator");
    const { rowId } = await linkWithGrant(owner, { expired: true });
    await env.DB.prepare("UPDATE youtube_channel_tokens SET refresh_token_enc = ? WHERE channel_row_id = ?")
      .bind(await encryptToken("revoked-refresh-token", `refresh:${rowId}`), rowId)
      .run();
    const run = await runDailyChannelRefresh({ limit: 10_000 });
    expect(run.failed.find((f) => f.channelRowId === rowId)?.reconnect).toBe(true);
  });
});

describe("statistics retention (decision 0304)", () => {
  it("the daily job deletes channel snapshots older than 30 days and keeps the window the charts read", async () => {
    const owner = await createUser("creator");
    const { rowId } = await linkWithGrant(owner);
    const day = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
    await env.DB.batch(
      [0, 7, 29, 30, 31, 90, 400].map((n) =>
        env.DB.prepare(
          "INSERT OR IGNORE INTO channel_snapshots (id, channel_row_id, day, subscriber_count, view_count, video_count) VALUES (?, ?, ?, 1, 1, 1)",
        ).bind(crypto.randomUUID(), rowId, day(n)),
      ),
    );
    await runDailyChannelRefresh({ limit: 10_000 });
    const kept = await env.DB.prepare("SELECT day FROM channel_snapshots WHERE channel_row_id = ? ORDER BY day DESC").bind(rowId).all<{ day: string }>();
    expect(kept.results.map((r) => r.day)).toEqual([day(0), day(7), day(29), day(30)]);
  });
});

describe("offline access only where a refresh token is used (decision 0305)", () => {
  it("Google sign-in asks for neither offline access nor a forced consent screen; the channel link does", async () => {
    const signIn = new URL((await postForm("/auth/google", {})).headers.get("Location") ?? "");
    expect(signIn.searchParams.get("scope")).toBe("openid email profile");
    expect(signIn.searchParams.get("access_type")).toBeNull();
    expect(signIn.searchParams.get("prompt")).toBeNull();
  });
});
