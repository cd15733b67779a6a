// Campaigns (issue 15): the state machine (draft → live → ended → settled, live/ended from the
// dates), the guards and bad input, joining and submitting (one per video, the YouTube channel
// check through the stand-in provider, the rate kept per submission), the budget cap under
// parallel reviews, settling into the ledger, funds received and the payout date, notifications,
// the public page and the sitemap, and the daily end notice.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { notifyEndedCampaigns } from "~/modules/campaigns/campaigns.server";
import { nextPayoutDate } from "~/modules/payments/calendar";
import { createUser, type TestUser } from "../../factories/users";
import { count, fetchApp, ORIGIN, outcome, postForm, withCookie } from "../helpers";
import { campaignFields, daysFromNow, localDateTime } from "../../factories/campaigns";
import { declareHandles, linkChannels } from "../../factories/channels";
import { registerStandInPost } from "~/dev/dev-social.server";
import { present } from "../../helpers/present";

let admins: [TestUser, TestUser];
let casey: TestUser; // linked YouTube channel
let robin: TestUser; // linked YouTube channel of their own
let noChannel: TestUser;
const caseyChannel = `UCcamp${crypto.randomUUID().slice(0, 10)}`;
const robinChannel = `UCcamp${crypto.randomUUID().slice(0, 10)}`;

let videoCounter = 0;
/** A fresh 11-character YouTube id the stand-in says is on `channelId`. */
async function youtubeVideo(channelId: string): Promise<string> {
  videoCounter += 1;
  const id = `v${String(videoCounter).padStart(3, "0")}${crypto.randomUUID().replace(/-/g, "").slice(0, 7)}`;
  await env.RATE_LIMITS.put(`devoauth:video:${id}`, channelId);
  return id;
}

beforeAll(async () => {
  admins = await Promise.all([createUser("admin"), createUser("admin")]);
  [casey, robin, noChannel] = await Promise.all([createUser("creator"), createUser("creator"), createUser("creator")]);
  await linkChannels([
    { userId: casey.id, channelId: caseyChannel, title: "Casey Camp", subscribers: 5000 },
    { userId: robin.id, channelId: robinChannel, title: "Robin Camp", subscribers: 100 },
  ]);
  // Their TikTok / Instagram handles (decision 0265): the stand-in's oEmbed names the link's @handle.
  await declareHandles(casey.id, { tiktok: "casey", instagram: "casey" });
  await declareHandles(robin.id, { tiktok: "robin" });
  await fetchApp("/auth");
}, 180_000);

const admin = (fields: Record<string, string>, who = admins[0], query = "") => postForm(`/admin/campaigns${query}`, fields, withCookie(who.cookie));
const creator = (who: TestUser, fields: Record<string, string>) => postForm("/campaigns", fields, withCookie(who.cookie));

const local = localDateTime;
const days = daysFromNow;

let slugCounter = 0;
function fields(over: Record<string, string> = {}): Record<string, string> & { slug: string } {
  slugCounter += 1;
  return campaignFields({ title: `Summer Fizz ${slugCounter}`, slug: `summer-fizz-${slugCounter}-${crypto.randomUUID().slice(0, 6)}`, ...over });
}

type Campaign = { id: string; slug: string; status: string; rate_cents: number; budget_cents: number; spent_cents: number; payable_on: string | null };
const campaignBySlug = (slug: string) => env.DB.prepare("SELECT * FROM campaigns WHERE slug = ?").bind(slug).first<Campaign>();
const campaignById = (id: string) => env.DB.prepare("SELECT * FROM campaigns WHERE id = ?").bind(id).first<Campaign>();

/** Creates a draft through the admin form; returns its row. */
async function draft(over: Record<string, string> = {}): Promise<Campaign> {
  const f = fields(over);
  const res = await admin(f);
  expect(await outcome(res)).toBe("→/admin/campaigns");
  const row = await campaignBySlug(f.slug);
  expect(row).not.toBeNull();
  return row as Campaign;
}

/** A launched, live campaign. */
async function live(over: Record<string, string> = {}): Promise<Campaign> {
  const row = await draft(over);
  expect(await outcome(await admin({ intent: "launch", id: row.id }))).toBe("→/admin/campaigns");
  return (await campaignById(row.id)) as Campaign;
}

describe("amounts typed with a decimal comma (issue 27, item 5)", () => {
  it("refuses a rate or budget of '2,50' with the expected form, storing nothing; '1,234.56' is read as typed", async () => {
    for (const [field, value, label] of [
      ["rate", "2,50", "Rate"],
      ["budget", "1,00", "Budget"],
    ] as const) {
      const f = fields({ [field]: value });
      const res = await admin(f);
      expect(res.status).toBe(400);
      expect(await res.text()).toContain(`${label}: use a dot for decimals, e.g. 2.50.`);
      expect(await campaignBySlug(f.slug)).toBeNull();
    }
    const row = await draft({ rate: "1,234.56", budget: "12,000" });
    expect(row).toMatchObject({ rate_cents: 123456, budget_cents: 1200000 });
  });
});

async function join(who: TestUser, id: string) {
  return creator(who, { intent: "join", campaignId: id, accept: "on" });
}

async function submit(who: TestUser, id: string, url: string) {
  return creator(who, { intent: "submit", campaignId: id, url });
}

const submissionId = async (campaignId: string, userId: string, n = 0) =>
  (
    await env.DB.prepare("SELECT id FROM campaign_submissions WHERE campaign_id = ? AND user_id = ? ORDER BY created_at, id LIMIT 1 OFFSET ?")
      .bind(campaignId, userId, n)
      .first<{ id: string }>()
  )?.id ?? "";

const raiseOf = (id: string) =>
  env.DB.prepare("SELECT raise_cause, raised_from_cents FROM campaign_submissions WHERE id = ?")
    .bind(id)
    .first<{ raise_cause: string | null; raised_from_cents: number | null }>();

/** The bell texts of the person's raised submissions. */
const raisedNotices = async (userId: string) =>
  (
    await env.DB.prepare(
      "SELECT n.content FROM user_notifications un JOIN notifications n ON n.id = un.notification_id WHERE un.user_id = ? AND n.kind = 'campaign_submission_raised'",
    )
      .bind(userId)
      .all<{ content: string }>()
  ).results.map((r) => r.content);

/** Moves a launched campaign's dates so it ended yesterday (as time passing would). */
const endByDate = (id: string) =>
  env.DB.prepare("UPDATE campaigns SET starts_at = ?, ends_at = ? WHERE id = ?").bind(days(-20).toISOString(), days(-1).toISOString(), id).run();

describe("creating and the state machine", () => {
  it("refuses a rate or budget that is not a positive amount, a bad address, an end before the start: a message, nothing stored", async () => {
    const before = await count("SELECT count(*) AS n FROM campaigns");
    for (const [over, text] of [
      [{ rate: "0" }, "Rate must be a positive amount."],
      [{ rate: "-1.00" }, "Rate must be a positive amount in dollars"],
      [{ budget: "0.00" }, "Budget must be a positive amount."],
      [{ budget: "abc" }, "Budget must be a positive amount in dollars"],
      [{ slug: "Bad Slug!" }, "Address must be 3 to 60"],
      [{ endsAt: local(days(-2)) }, "The end must be after the start."],
      [{ requiredTrackId: "no-such-track" }, "Choose a published track from the library."],
    ] as const) {
      const res = await admin(fields(over));
      expect(res.status, JSON.stringify(over)).toBe(400);
      expect(await res.text()).toContain(text);
    }
    expect(await count("SELECT count(*) AS n FROM campaigns")).toBe(before);
  });

  it("creates a draft (audited), which is not public, not listed and not in the sitemap; a second campaign cannot take its address", async () => {
    const row = await draft();
    expect(row).toMatchObject({ status: "draft", rate_cents: 250, budget_cents: 50000, spent_cents: 0 });
    expect(await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'campaign_created' AND details LIKE ?", `%${row.id}%`)).toBe(1);
    expect((await fetchApp(`/campaigns/${row.slug}`)).status).toBe(404);
    expect(await (await fetchApp("/campaigns", withCookie(casey.cookie))).text()).not.toContain(row.slug);
    expect(await (await fetchApp("/sitemap.xml")).text()).not.toContain(row.slug);
    const clash = await admin(fields({ slug: row.slug }));
    expect(clash.status).toBe(409);
    expect(await clash.text()).toContain("Another campaign already uses this address.");
    // Joining a draft: not found.
    expect((await join(casey, row.id)).status).toBe(404);
  });

  it("launches once (two admins at once: one wins), goes live from its dates, shows publicly and in the sitemap", async () => {
    const row = await draft();
    const results = await Promise.all(admins.map((a) => admin({ intent: "launch", id: row.id }, a)));
    const outcomes = (await Promise.all(results.map(outcome))).sort();
    expect(outcomes).toEqual(["409", "→/admin/campaigns"]);
    expect(await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'campaign_launched' AND details LIKE ?", `%${row.id}%`)).toBe(1);
    const page = await fetchApp(`/campaigns/${row.slug}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Use the track in a Short about your summer.");
    expect(html).toContain("$2.50 per 1,000 views");
    expect(html).toContain("Sign up to join");
    expect(await (await fetchApp("/sitemap.xml")).text()).toContain(`/campaigns/${row.slug}</loc>`);
    expect(await (await fetchApp("/campaigns", withCookie(casey.cookie))).text()).toContain(row.slug);
  });

  it("a campaign launched before its start is scheduled: not public, not joinable, not in the sitemap; at its start it is live with no job", async () => {
    const row = await live({ startsAt: local(days(2)), endsAt: local(days(5)) });
    expect((await fetchApp(`/campaigns/${row.slug}`)).status).toBe(404);
    expect((await join(casey, row.id)).status).toBe(409);
    // Time passes: the start moves into the past.
    await env.DB.prepare("UPDATE campaigns SET starts_at = ? WHERE id = ?").bind(days(-1).toISOString(), row.id).run();
    expect((await fetchApp(`/campaigns/${row.slug}`)).status).toBe(200);
  });

  it("ends by its date when read; an admin can end a live campaign early (participants told by bell and e-mail); the ended page stays public, out of the sitemap", async () => {
    const a = await live();
    await endByDate(a.id);
    const ended = await fetchApp(`/campaigns/${a.slug}`);
    expect(ended.status).toBe(200);
    expect(await ended.text()).toContain("This campaign has ended.");
    expect(await (await fetchApp("/sitemap.xml")).text()).not.toContain(a.slug);
    expect(await outcome(await admin({ intent: "end", id: a.id }))).toBe("409");

    const b = await live();
    expect(await outcome(await join(casey, b.id))).toBe("→/campaigns");
    const [r1, r2] = await Promise.all([admin({ intent: "end", id: b.id }), admin({ intent: "end", id: b.id }, admins[1])]);
    expect([await outcome(r1), await outcome(r2)].sort()).toEqual(["409", "→/admin/campaigns"]);
    expect(await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'campaign_ended_early' AND details LIKE ?", `%${b.id}%`)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM email_outbox WHERE to_email = ? AND kind = 'campaign_ended'", casey.email)).toBeGreaterThanOrEqual(1);
    expect(
      await count(
        "SELECT count(*) AS n FROM user_notifications un JOIN notifications n ON n.id = un.notification_id WHERE un.user_id = ? AND n.kind = 'campaign_ended' AND n.content LIKE ?",
        casey.id,
        `%${b.id ? (await env.DB.prepare("SELECT title FROM campaigns WHERE id = ?").bind(b.id).first<{ title: string }>())?.title : ""}%`,
      ),
    ).toBe(1);
    // Ended: no more joins or submissions.
    expect((await join(robin, b.id)).status).toBe(409);
    const res = await submit(casey, b.id, "https://www.tiktok.com/@casey/video/7300000000000000001");
    expect(res.status).toBe(409);
    expect(await res.text()).toContain("This campaign is not live");
  });

  it("the daily job tells the participants of a campaign that ended by its date, once (even when run twice at once)", async () => {
    const row = await live();
    await join(robin, row.id);
    await endByDate(row.id);
    await Promise.all([notifyEndedCampaigns(), notifyEndedCampaigns()]);
    await notifyEndedCampaigns();
    const title = (await env.DB.prepare("SELECT title FROM campaigns WHERE id = ?").bind(row.id).first<{ title: string }>())?.title;
    expect(
      await count("SELECT count(*) AS n FROM email_outbox WHERE to_email = ? AND kind = 'campaign_ended' AND subject LIKE ?", robin.email, `%${title}`),
    ).toBe(1);
  });
});

describe("joining and submitting", () => {
  it("joins once with the terms accepted; without them nothing is stored; eligibility by subscribers", async () => {
    const row = await live({ minSubscribers: "1000" });
    const noTerms = await creator(casey, { intent: "join", campaignId: row.id });
    expect(noTerms.status).toBe(400);
    expect(await noTerms.text()).toContain("Accept the campaign terms to join.");
    expect(await count("SELECT count(*) AS n FROM campaign_participants WHERE campaign_id = ?", row.id)).toBe(0);
    const few = await join(robin, row.id);
    expect(few.status).toBe(409);
    expect(await few.text()).toContain("at least 1,000 subscribers");
    const both = await Promise.all([join(casey, row.id), join(casey, row.id)]);
    expect((await Promise.all(both.map(outcome))).sort()).toEqual(["409", "→/campaigns"]);
    expect(await count("SELECT count(*) AS n FROM campaign_participants WHERE campaign_id = ? AND terms_accepted_at IS NOT NULL", row.id)).toBe(1);
    expect((await join(casey, crypto.randomUUID())).status).toBe(404);
  });

  it("checks the link: a supported platform, joined first, YouTube videos on one's own linked channel, one submission per video", async () => {
    const row = await live();
    const own = await youtubeVideo(caseyChannel);
    const notJoined = await submit(casey, row.id, `https://youtu.be/${own}`);
    expect(notJoined.status).toBe(409);
    expect(await notJoined.text()).toContain("Join the campaign before submitting videos.");
    await join(casey, row.id);
    await join(noChannel, row.id);

    for (const [url, status, text] of [
      ["https://vimeo.com/123456", 400, "Enter the link of a video on YouTube, TikTok or Instagram."],
      ["not a url at all", 400, "Enter the link of a video on YouTube, TikTok or Instagram."],
      [`https://www.youtube.com/shorts/${await youtubeVideo(robinChannel)}`, 409, "This video is not on one of your linked YouTube channels."],
      ["https://www.youtube.com/shorts/AAAAAAAAAAA", 400, "YouTube has no public video at this link."],
    ] as const) {
      const res = await submit(casey, row.id, url);
      expect(res.status, url).toBe(status);
      expect(await res.text()).toContain(text);
    }
    const unlinked = await submit(noChannel, row.id, `https://youtu.be/${own}`);
    expect(unlinked.status).toBe(409);
    expect(await unlinked.text()).toContain("Link your YouTube channel");
    expect(await count("SELECT count(*) AS n FROM campaign_submissions WHERE campaign_id = ?", row.id)).toBe(0);

    // The same video twice at once, in two spellings: one submission.
    const twice = await Promise.all([submit(casey, row.id, `https://youtu.be/${own}`), submit(casey, row.id, `https://m.youtube.com/watch?v=${own}`)]);
    expect((await Promise.all(twice.map(outcome))).sort()).toEqual(["409", "→/campaigns"]);
    const stored = await env.DB.prepare("SELECT * FROM campaign_submissions WHERE campaign_id = ?").bind(row.id).all<Record<string, unknown>>();
    expect(stored.results).toHaveLength(1);
    expect(stored.results[0]).toMatchObject({ platform: "youtube", channel_id: caseyChannel, rate_cents: 250, status: "pending", video_key: `youtube:${own}` });
    // Another campaign cannot take the same video either.
    const other = await live();
    await join(casey, other.id);
    const again = await submit(casey, other.id, `https://www.youtube.com/shorts/${own}`);
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("This video has already been submitted.");
    // TikTok and Instagram: posted by the declared handle (the oEmbed stand-in; tests/worker/campaigns/ownership.test.ts).
    await registerStandInPost("instagram", "Cxyz123AbC", { author: "casey" });
    expect(await outcome(await submit(casey, row.id, "https://www.tiktok.com/@casey/video/7311111111111111111"))).toBe("→/campaigns");
    expect(await outcome(await submit(casey, row.id, "https://www.instagram.com/reel/Cxyz123AbC/"))).toBe("→/campaigns");
    // An unknown campaign.
    expect((await submit(casey, crypto.randomUUID(), "https://www.tiktok.com/@casey/video/7322222222222222222")).status).toBe(404);
  });

  it("limits submissions per person (60 per 15 minutes): the 61st is refused with 429, nothing stored", async () => {
    const row = await live();
    const busy = await createUser("creator");
    await declareHandles(busy.id, { tiktok: "busy" });
    await join(busy, row.id);
    for (let i = 0; i < 60; i++)
      expect(
        await outcome(
          await submit(busy, row.id, `https://www.tiktok.com/@busy/video/77${String(i).padStart(10, "0")}${busy.id.slice(0, 4).replace(/\D/g, "1")}`),
        ),
      ).toBe("→/campaigns");
    const refused = await submit(busy, row.id, "https://www.tiktok.com/@busy/video/7799999999999999");
    expect(refused.status).toBe(429);
    expect(await count("SELECT count(*) AS n FROM campaign_submissions WHERE user_id = ?", busy.id)).toBe(60);
  });

  it("a new rate applies to new submissions only", async () => {
    const row = await live();
    await join(casey, row.id);
    await submit(casey, row.id, "https://www.tiktok.com/@casey/video/7333333333333333331");
    const f = fields();
    const res = await admin({ ...f, intent: "update", id: row.id, slug: row.slug, rate: "4.00" });
    expect(await outcome(res)).toBe("→/admin/campaigns");
    await submit(casey, row.id, "https://www.tiktok.com/@casey/video/7333333333333333332");
    const rates = await env.DB.prepare("SELECT rate_cents FROM campaign_submissions WHERE campaign_id = ? ORDER BY url")
      .bind(row.id)
      .all<{ rate_cents: number }>();
    expect(rates.results.map((r) => r.rate_cents)).toEqual([250, 400]);
    expect(await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'campaign_updated' AND details LIKE ?", `%${row.id}%`)).toBe(1);
    // The address of a launched campaign does not change.
    const moved = await admin({ ...f, intent: "update", id: row.id, slug: "another-address" });
    expect(moved.status).toBe(400);
  });
});

describe("review and the budget", () => {
  it("parallel approvals never spend the budget twice: the last amount is capped and the campaign shows 'budget reached'", async () => {
    // $1.00 per 1,000 views, budget $10.00; five videos each approved with 3,000 views ($3.00) at once.
    const row = await live({ rate: "1.00", budget: "10.00" });
    await join(casey, row.id);
    for (let i = 0; i < 5; i++) await submit(casey, row.id, `https://www.tiktok.com/@casey/video/74000000000000000${i}0`);
    const ids = (await env.DB.prepare("SELECT id FROM campaign_submissions WHERE campaign_id = ?").bind(row.id).all<{ id: string }>()).results.map((r) => r.id);
    const results = await Promise.all(ids.map((id, i) => admin({ intent: "approve", submissionId: id, views: "3000" }, admins[i % 2])));
    for (const r of results) expect(await outcome(r)).toBe("→/admin/campaigns");
    const amounts = (
      await env.DB.prepare("SELECT amount_cents FROM campaign_submissions WHERE campaign_id = ? ORDER BY amount_cents DESC")
        .bind(row.id)
        .all<{ amount_cents: number }>()
    ).results.map((r) => r.amount_cents);
    expect(amounts.reduce((s, a) => s + a, 0)).toBe(1000);
    expect(amounts).toEqual([300, 300, 300, 100, 0]);
    expect((await campaignById(row.id))?.spent_cents).toBe(1000);
    const page = await (await fetchApp("/campaigns", withCookie(casey.cookie))).text();
    expect(page).toContain("Budget reached");
    expect(
      await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'campaign_submission_approved' AND details LIKE ?", `%${row.id}%`),
    ).toBe(5);
    expect(
      await count("SELECT count(*) AS n FROM email_outbox WHERE to_email = ? AND kind = 'campaign_submission_approve'", casey.email),
    ).toBeGreaterThanOrEqual(5);

    // Raising views is capped too; lowering frees budget, which goes to the capped submissions at once (decision 0143).
    const top =
      (await env.DB.prepare("SELECT id FROM campaign_submissions WHERE campaign_id = ? AND amount_cents = 300 LIMIT 1").bind(row.id).first<{ id: string }>())
        ?.id ?? "";
    await admin({ intent: "views", submissionId: top, views: "9000" });
    expect((await campaignById(row.id))?.spent_cents).toBe(1000);
    await admin({ intent: "views", submissionId: top, views: "1000" });
    expect((await campaignById(row.id))?.spent_cents).toBe(1000);
    const after = (
      await env.DB.prepare("SELECT amount_cents FROM campaign_submissions WHERE campaign_id = ? ORDER BY amount_cents DESC")
        .bind(row.id)
        .all<{ amount_cents: number }>()
    ).results.map((r) => r.amount_cents);
    expect(after.reduce((s, a) => s + a, 0)).toBe(1000);
    expect(after).toContain(100); // the lowered one
    expect(after.every((a) => a <= 300)).toBe(true); // never past what the views earned
    // Parallel raises of two submissions: the $2.00 left is spent once.
    const two = (
      await env.DB.prepare("SELECT id FROM campaign_submissions WHERE campaign_id = ? AND amount_cents = 300 LIMIT 2").bind(row.id).all<{ id: string }>()
    ).results;
    await Promise.all(two.map((s) => admin({ intent: "views", submissionId: s.id, views: "50000" })));
    expect((await campaignById(row.id))?.spent_cents).toBe(1000);
  });

  it("budget freed by a rejection, lower views or a larger budget raises the capped submissions, oldest review first, never past what they earned or the budget, also at once", async () => {
    // $1.00 per 1,000 views, budget $10.00.
    const row = await live({ rate: "1.00", budget: "10.00" });
    await join(casey, row.id);
    for (let i = 0; i < 4; i++) await submit(casey, row.id, `https://www.tiktok.com/@casey/video/75000000000000000${i}0`);
    const [a, b, c, d] = await Promise.all([
      submissionId(row.id, casey.id, 0),
      submissionId(row.id, casey.id, 1),
      submissionId(row.id, casey.id, 2),
      submissionId(row.id, casey.id, 3),
    ]);
    const amounts = async () =>
      Object.fromEntries(
        (
          await env.DB.prepare("SELECT id, amount_cents FROM campaign_submissions WHERE campaign_id = ?")
            .bind(row.id)
            .all<{ id: string; amount_cents: number }>()
        ).results.map((r) => [r.id, r.amount_cents]),
      );
    await admin({ intent: "approve", submissionId: a, views: "6000" }); // $6.00
    await admin({ intent: "approve", submissionId: b, views: "8000" }); // earned $8.00, capped at $4.00
    await admin({ intent: "approve", submissionId: c, views: "3000" }); // earned $3.00, capped at $0.00
    expect(await amounts()).toMatchObject({ [a]: 600, [b]: 400, [c]: 0 });
    // Rejecting A frees $6.00: B (reviewed first) gets its $4.00 more, C the $2.00 left.
    expect(await outcome(await admin({ intent: "reject", submissionId: a, reason: "Not the required track" }))).toBe("→/admin/campaigns");
    expect(await amounts()).toMatchObject({ [a]: 0, [b]: 800, [c]: 200 });
    expect((await campaignById(row.id))?.spent_cents).toBe(1000);
    // Each raised submission says why, on /campaigns and in the bell (decision 0245).
    expect(await raiseOf(b)).toEqual({ raise_cause: "rejected", raised_from_cents: 400 });
    expect(await raiseOf(c)).toEqual({ raise_cause: "rejected", raised_from_cents: 0 });
    expect(await raisedNotices(casey.id)).toEqual(
      expect.arrayContaining([
        expect.stringContaining("now has an estimated payout of $8.00 (was $4.00): budget freed up when another submission was rejected."),
        expect.stringContaining("now has an estimated payout of $2.00 (was $0.00): budget freed up when another submission was rejected."),
      ]),
    );
    const statusLine = (await (await fetchApp("/campaigns", withCookie(casey.cookie))).text()).replaceAll("<!-- -->", "");
    expect(statusLine).toMatch(/Raised from \$4\.00 on <time[^>]*>[^<]*<\/time>: budget freed up when another submission was rejected\./);
    // Lowering B's views to 7,500 frees $0.50 for C; B's own note goes (it was reviewed again).
    await admin({ intent: "views", submissionId: b, views: "7500" });
    expect(await amounts()).toMatchObject({ [b]: 750, [c]: 250 });
    expect(await raiseOf(b)).toEqual({ raise_cause: null, raised_from_cents: null });
    expect(await raiseOf(c)).toEqual({ raise_cause: "views", raised_from_cents: 200 });
    // A larger budget ($20.00) pays C in full; what is left stays free.
    const edit = await admin({ ...fields({ rate: "1.00", budget: "20.00" }), intent: "update", id: row.id, slug: row.slug });
    expect(await outcome(edit)).toBe("→/admin/campaigns");
    expect(await amounts()).toMatchObject({ [b]: 750, [c]: 300 });
    expect(await raiseOf(c)).toEqual({ raise_cause: "budget", raised_from_cents: 250 });
    expect(await raisedNotices(casey.id)).toEqual(
      expect.arrayContaining([expect.stringContaining("now has an estimated payout of $3.00 (was $2.50): the campaign's budget was increased.")]),
    );
    expect((await campaignById(row.id))?.spent_cents).toBe(1050);
    // At once: D approved with 12,000 views while B is rejected: the budget is never spent twice.
    await Promise.all([
      admin({ intent: "approve", submissionId: d, views: "12000" }),
      admin({ intent: "reject", submissionId: b, reason: "Deleted" }, admins[1]),
    ]);
    const end = await amounts();
    const spent = (await campaignById(row.id))?.spent_cents;
    expect(spent).toBe(present(end[c], "C's amount") + present(end[d], "D's amount"));
    expect(end[d]).toBe(1200);
    expect(spent).toBeLessThanOrEqual(2000);
  });

  it("approving the same submission twice at once approves it once; reject needs a reason; bad views are refused", async () => {
    const row = await live();
    await join(casey, row.id);
    await submit(casey, row.id, "https://www.tiktok.com/@casey/video/7500000000000000001");
    await submit(casey, row.id, "https://www.tiktok.com/@casey/video/7500000000000000002");
    const [first, second] = [await submissionId(row.id, casey.id, 0), await submissionId(row.id, casey.id, 1)];
    const both = await Promise.all(admins.map((a) => admin({ intent: "approve", submissionId: first, views: "10000" }, a)));
    expect((await Promise.all(both.map(outcome))).sort()).toEqual(["409", "→/admin/campaigns"]);
    expect((await campaignById(row.id))?.spent_cents).toBe(2500);
    for (const views of ["-5", "12.5", "lots", ""]) expect((await admin({ intent: "views", submissionId: first, views })).status).toBe(400);
    expect((await admin({ intent: "reject", submissionId: second, reason: "" })).status).toBe(400);
    expect(await outcome(await admin({ intent: "reject", submissionId: second, reason: "Not the required track" }))).toBe("→/admin/campaigns");
    expect((await admin({ intent: "views", submissionId: second, views: "10" })).status).toBe(409);
    const page = await (await fetchApp("/campaigns", withCookie(casey.cookie))).text();
    expect(page).toContain("Not the required track");
    expect(page).toContain("$25.00");
    expect(
      await count(
        "SELECT count(*) AS n FROM user_notifications un JOIN notifications n ON n.id = un.notification_id WHERE un.user_id = ? AND n.kind = 'campaign_submission_rejected'",
        casey.id,
      ),
    ).toBeGreaterThanOrEqual(1);
    // Not a form: refused, nothing changed.
    const json = await fetchApp("/admin/campaigns", {
      method: "POST",
      headers: { Origin: ORIGIN, Cookie: admins[0].cookie, "Content-Type": "application/json" },
      body: JSON.stringify({ intent: "approve", submissionId: second, views: "1" }),
    });
    expect(json.status).toBe(415);
    // A creator cannot review.
    expect(await outcome(await postForm("/admin/campaigns", { intent: "approve", submissionId: second, views: "1" }, withCookie(casey.cookie)))).toBe(
      "→/dashboard",
    );
  });
});

describe("settling, the ledger and the payout date", () => {
  async function endedWithApprovals(): Promise<Campaign> {
    const row = await live({ rate: "2.00", budget: "100.00" });
    await join(casey, row.id);
    await join(robin, row.id);
    await submit(casey, row.id, `https://www.youtube.com/shorts/${await youtubeVideo(caseyChannel)}`);
    await registerStandInPost("instagram", "Settle1abc", { author: "casey" });
    await submit(casey, row.id, "https://www.instagram.com/reel/Settle1abc/");
    await submit(robin, row.id, `https://youtu.be/${await youtubeVideo(robinChannel)}`);
    await admin({ intent: "approve", submissionId: await submissionId(row.id, casey.id, 0), views: "12345" }); // $24.69
    await admin({ intent: "approve", submissionId: await submissionId(row.id, casey.id, 1), views: "1000" }); // $2.00
    await admin({ intent: "approve", submissionId: await submissionId(row.id, robin.id, 0), views: "500" }); // $1.00
    return row;
  }

  it("settles only after the end and with nothing pending; writes one campaign entry per person; freezes the views; payable once the funds are in", async () => {
    const row = await endedWithApprovals();
    const early = await admin({ intent: "settle", id: row.id });
    expect(early.status).toBe(409);
    expect(await early.text()).toContain("A campaign is settled after it ends.");
    await submit(robin, row.id, "https://www.tiktok.com/@robin/video/7600000000000000001");
    await endByDate(row.id);
    const pending = await admin({ intent: "settle", id: row.id });
    expect(pending.status).toBe(409);
    expect(await pending.text()).toContain("Approve or reject every pending submission before settling.");
    await admin({ intent: "reject", submissionId: await submissionId(row.id, robin.id, 1), reason: "Posted after the end" });

    const both = await Promise.all(admins.map((a) => admin({ intent: "settle", id: row.id }, a)));
    expect((await Promise.all(both.map(outcome))).sort()).toEqual(["409", "→/admin/campaigns"]);
    const entries = await env.DB.prepare(
      "SELECT user_id, source_kind, source_id, net_cents, share_bp, amount_cents, status, month, import_id FROM ledger_entries WHERE source_id = ?",
    )
      .bind(row.id)
      .all<Record<string, unknown>>();
    const endMonth = days(-1).toISOString().slice(0, 7);
    expect(entries.results.sort((a, b) => Number(b.amount_cents) - Number(a.amount_cents))).toEqual([
      {
        user_id: casey.id,
        source_kind: "campaign",
        source_id: row.id,
        net_cents: 2669,
        share_bp: 10000,
        amount_cents: 2669,
        status: "estimated",
        month: endMonth,
        import_id: null,
      },
      {
        user_id: robin.id,
        source_kind: "campaign",
        source_id: row.id,
        net_cents: 100,
        share_bp: 10000,
        amount_cents: 100,
        status: "estimated",
        month: endMonth,
        import_id: null,
      },
    ]);
    expect((await campaignById(row.id))?.payable_on).toBeNull();
    expect(await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'campaign_settled' AND details LIKE ?", `%${row.id}%`)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM email_outbox WHERE to_email = ? AND kind = 'campaign_settled'", casey.email)).toBeGreaterThanOrEqual(1);
    // Frozen.
    const frozen = await admin({ intent: "views", submissionId: await submissionId(row.id, casey.id, 0), views: "99999" });
    expect(frozen.status).toBe(409);
    expect(await frozen.text()).toContain("frozen");

    // Funds received (twice at once: once): finalized, payable on the next payout date.
    const funds = await Promise.all(admins.map((a) => admin({ intent: "funds_received", id: row.id }, a)));
    expect((await Promise.all(funds.map(outcome))).sort()).toEqual(["409", "→/admin/campaigns"]);
    expect(await count("SELECT count(*) AS n FROM ledger_entries WHERE source_id = ? AND status = 'finalized'", row.id)).toBe(2);
    const payable = nextPayoutDate(new Date(), 18);
    expect((await campaignById(row.id))?.payable_on).toBe(payable);
    expect(await count("SELECT count(*) AS n FROM email_outbox WHERE to_email = ? AND kind = 'campaign_payable'", robin.email)).toBe(1);

    // The creator sees it in /payments and the payout date on /campaigns.
    const payments = await (await fetchApp(`/payments?month=${endMonth}`, withCookie(casey.cookie))).text();
    expect(payments).toContain("Campaign: Fizz Cola");
    expect(payments).toContain("$26.69");
    const mine = await (await fetchApp("/campaigns", withCookie(casey.cookie))).text();
    expect(mine).toContain("Ended campaigns you joined");
  });

  it("settling and funds received for 1,000 participants: one notification each time (not one per person), an e-mail each with its own amount", async () => {
    const row = await live({ rate: "1.00", budget: "600000.00" });
    const tag = crypto.randomUUID().slice(0, 8);
    const N = 1000;
    // 1,000 approved creators, each joined with one approved submission of (i) × 1,000 views at $1.00: $i.00 each.
    const seq = `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${N})`;
    await env.DB.batch([
      env.DB.prepare(`${seq} INSERT INTO users (id, email) SELECT ?1 || '-' || i, ?1 || '-' || i || '@example.com' FROM n`).bind(tag),
      env.DB.prepare(
        `${seq} INSERT INTO profiles (user_id, creator_id, full_name, approval_status) SELECT ?1 || '-' || i, upper(?1) || i, 'Many ' || i, 'approved' FROM n`,
      ).bind(tag),
      env.DB.prepare(
        `${seq} INSERT INTO campaign_participants (campaign_id, user_id, terms_accepted_at, created_at) SELECT ?2, ?1 || '-' || i, ?3, ?3 FROM n`,
      ).bind(tag, row.id, new Date().toISOString()),
      env.DB.prepare(
        `${seq} INSERT INTO campaign_submissions (id, campaign_id, user_id, url, platform, video_key, rate_cents, status, views, amount_cents, created_at, updated_at)
         SELECT ?1 || '-s' || i, ?2, ?1 || '-' || i, 'https://www.tiktok.com/@m/video/' || i, 'tiktok', 'tiktok:' || ?1 || i, 100, 'approved', i * 1000, i * 100, ?3, ?3 FROM n`,
      ).bind(tag, row.id, new Date().toISOString()),
      env.DB.prepare("UPDATE campaigns SET spent_cents = ? WHERE id = ?").bind((N * (N + 1) * 100) / 2, row.id),
    ]);
    await endByDate(row.id);
    const title = (await env.DB.prepare("SELECT title FROM campaigns WHERE id = ?").bind(row.id).first<{ title: string }>())?.title;
    expect(await outcome(await admin({ intent: "settle", id: row.id }))).toBe("→/admin/campaigns");
    expect(await count("SELECT count(*) AS n FROM ledger_entries WHERE source_id = ?", row.id)).toBe(N);
    const settled = await env.DB.prepare("SELECT id FROM notifications WHERE kind = 'campaign_settled' AND content LIKE ?")
      .bind(`%"${title}" is settled%`)
      .all();
    expect(settled.results).toHaveLength(1);
    expect(
      await count("SELECT count(*) AS n FROM user_notifications WHERE notification_id = ?", present(settled.results[0], "the settled notification").id),
    ).toBe(N);
    const subject = `Campaign settled: ${title}`;
    expect(await count("SELECT count(*) AS n FROM email_outbox WHERE subject = ? AND kind = 'campaign_settled'", subject)).toBe(N);
    for (const i of [1, 537, 1000]) {
      const mail = await env.DB.prepare("SELECT body_text FROM email_outbox WHERE to_email = ? AND subject = ?")
        .bind(`${tag}-${i}@example.com`, subject)
        .first<{ body_text: string }>();
      expect(mail?.body_text).toContain(`Your approved amount is $${i.toLocaleString("en-US")}.00.`);
    }

    expect(await outcome(await admin({ intent: "funds_received", id: row.id }))).toBe("→/admin/campaigns");
    const payable = await env.DB.prepare("SELECT id FROM notifications WHERE kind = 'campaign_payable' AND content LIKE ?").bind(`%"${title}"%`).all();
    expect(payable.results).toHaveLength(1);
    expect(
      await count("SELECT count(*) AS n FROM user_notifications WHERE notification_id = ?", present(payable.results[0], "the payable notification").id),
    ).toBe(N);
    const paySubject = `Campaign payout scheduled: ${title}`;
    expect(await count("SELECT count(*) AS n FROM email_outbox WHERE subject = ?", paySubject)).toBe(N);
    const mail = await env.DB.prepare("SELECT body_text FROM email_outbox WHERE to_email = ? AND subject = ?")
      .bind(`${tag}-42@example.com`, paySubject)
      .first<{ body_text: string }>();
    expect(mail?.body_text).toContain("your $42.00 is payable on");
  }, 120_000);

  it("funds received before settling: the entries are finalized as they are written", async () => {
    const row = await endedWithApprovals();
    expect(await outcome(await admin({ intent: "funds_received", id: row.id }))).toBe("→/admin/campaigns");
    expect((await campaignById(row.id))?.payable_on).toBeNull();
    await endByDate(row.id);
    expect(await outcome(await admin({ intent: "settle", id: row.id }))).toBe("→/admin/campaigns");
    expect(await count("SELECT count(*) AS n FROM ledger_entries WHERE source_id = ? AND status = 'finalized'", row.id)).toBe(2);
    expect((await campaignById(row.id))?.payable_on).toBe(nextPayoutDate(new Date(), 18));
    // A draft has no funds.
    const d = await draft();
    expect((await admin({ intent: "funds_received", id: d.id })).status).toBe(409);
  });

  it("finalizing a music month leaves that month's campaign entries estimated", async () => {
    const month = "2004-04";
    const campaignEntry = crypto.randomUUID();
    const adjustment = crypto.randomUUID();
    const channelId = `UCfin${crypto.randomUUID().slice(0, 8)}`;
    await env.DB.batch([
      env.DB.prepare("INSERT INTO youtube_channels (id, user_id, channel_id, channel_title) VALUES (?, ?, ?, 'Fin Channel')").bind(
        crypto.randomUUID(),
        noChannel.id,
        channelId,
      ),
      env.DB.prepare(
        "INSERT INTO ledger_entries (id, user_id, month, source_kind, source_id, net_cents, share_bp, amount_cents, status) VALUES (?, ?, ?, 'campaign', 'c-1', 500, 10000, 500, 'estimated')",
      ).bind(campaignEntry, casey.id, month),
      env.DB.prepare(
        "INSERT INTO ledger_entries (id, user_id, month, source_kind, source_id, net_cents, share_bp, amount_cents, status) VALUES (?, ?, ?, 'adjustment', 'a-1', 100, 10000, 100, 'estimated')",
      ).bind(adjustment, casey.id, month),
    ]);
    const form = new FormData();
    form.set("intent", "preview");
    form.set("month", month);
    form.set(
      "file",
      new File([`month,channel_id,creator_id,video_id,net_revenue,currency\n${month},${channelId},,,10.00,USD\n`], "r.csv", { type: "text/csv" }),
    );
    expect((await fetchApp("/admin/payments", { method: "POST", headers: { Origin: ORIGIN, Cookie: admins[0].cookie }, body: form })).status).toBe(200);
    const staged = await env.DB.prepare("SELECT id FROM revenue_imports WHERE month = ? AND status = 'staged'").bind(month).first<{ id: string }>();
    const pay = (fields: Record<string, string>) => postForm("/admin/payments", fields, withCookie(admins[0].cookie));
    expect(await outcome(await pay({ intent: "commit", importId: staged?.id ?? "", replaces: "" }))).toBe("→/admin/payments");
    expect(await outcome(await pay({ intent: "funds_received", month }))).toBe("→/admin/payments");
    expect(await outcome(await pay({ intent: "finalize", month }))).toBe("→/admin/payments");
    const status = (id: string) => env.DB.prepare("SELECT status FROM ledger_entries WHERE id = ?").bind(id).first<{ status: string }>();
    expect((await status(campaignEntry))?.status).toBe("estimated");
    expect((await status(adjustment))?.status).toBe("finalized");
  });
});

describe("admin console", () => {
  it("lists campaigns with their state and warns when the 60-day payout deadline nears", async () => {
    const row = await live({ title: "Deadline Watch" });
    await env.DB.prepare("UPDATE campaigns SET starts_at = ?, ends_at = ? WHERE id = ?").bind(days(-60).toISOString(), days(-50).toISOString(), row.id).run();
    const html = await (await fetchApp(`/admin/campaigns?campaign=${row.id}`, withCookie(admins[0].cookie))).text();
    expect(html).toContain("Payout deadlines");
    expect(html).toContain("Deadline Watch");
    expect(html).toContain("10 days left");
    expect(html).toContain("Settle campaign");
  });
});

describe("joining from the public page", () => {
  it("a signed-in approved creator joins on /campaigns/{slug} with the terms ticked; anonymous visitors keep the sign-up link", async () => {
    const row = await live();
    const path = `/campaigns/${row.slug}`;
    const publicPost = (who: TestUser | null, f: Record<string, string>) => postForm(path, f, who ? withCookie(who.cookie) : {});
    // Anonymous: the sign-up link, no join form.
    const anon = await (await fetchApp(path)).text();
    expect(anon).toContain("Sign up to join");
    expect(anon).not.toContain('name="accept"');
    expect(await outcome(await publicPost(null, { intent: "join", campaignId: row.id, accept: "on" }))).toMatch(/^→\/auth/);
    // Signed in and approved: the terms and a tick box, joining here.
    const page = await (await fetchApp(path, withCookie(robin.cookie))).text();
    expect(page).toContain('name="accept"');
    expect(page).not.toContain("Sign up to join");
    const noTerms = await publicPost(robin, { intent: "join", campaignId: row.id });
    expect(noTerms.status).toBe(400);
    expect(await noTerms.text()).toContain("Accept the campaign terms to join.");
    expect(await count("SELECT count(*) AS n FROM campaign_participants WHERE campaign_id = ?", row.id)).toBe(0);
    expect(await outcome(await publicPost(robin, { intent: "join", campaignId: row.id, accept: "on" }))).toBe("→/campaigns");
    expect(
      await count("SELECT count(*) AS n FROM campaign_participants WHERE campaign_id = ? AND user_id = ? AND terms_accepted_at IS NOT NULL", row.id, robin.id),
    ).toBe(1);
    expect(await (await fetchApp(path, withCookie(robin.cookie))).text()).toContain("You joined this campaign.");
    // Once only; a pending person is refused by the guard; an unknown slug is not found.
    expect((await publicPost(robin, { intent: "join", campaignId: row.id, accept: "on" })).status).toBe(409);
    const pending = await createUser("pending");
    expect(await outcome(await publicPost(pending, { intent: "join", campaignId: row.id, accept: "on" }))).not.toBe("→/campaigns");
    expect(await count("SELECT count(*) AS n FROM campaign_participants WHERE campaign_id = ?", row.id)).toBe(1);
    expect((await postForm("/campaigns/no-such-campaign", { intent: "join", campaignId: row.id, accept: "on" }, withCookie(robin.cookie))).status).toBe(404);
  });
});
