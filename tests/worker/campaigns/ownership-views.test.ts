// Declared handles and the daily views (issue 30 §3, decisions 0265, 0266; ownership since 0299-0301 in
// tests/worker/channels/social-accounts.test.ts): the creator declares their handles on /channels; the
// platform unreachable writes nothing. The daily job reads views for every platform through the views
// provider (TikTok and Instagram with the creator's linked account), raising approved submissions'
// views and amounts, never past an admin's override (pinned and audited).
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { registerStandInPost } from "~/dev/dev-social.server";
import { refreshCampaignViews } from "~/modules/campaigns/campaigns.server";
import { declareHandles } from "../../factories/channels";
import { createUser, type TestUser } from "../../factories/users";
import { count, fetchApp, outcome, postForm, withCookie } from "../helpers";
import { linkSocial } from "../social-link";

let admin: TestUser;
let owner: TestUser;
let other: TestUser;
let bare: TestUser;
const tag = crypto.randomUUID().replace(/-/g, "").slice(0, 8);
const ownerHandle = `owner_${tag}`;

beforeAll(async () => {
  [admin, owner, other, bare] = await Promise.all([createUser("admin"), createUser("creator"), createUser("creator"), createUser("creator")]);
  await declareHandles(owner.id, { tiktok: ownerHandle, instagram: ownerHandle });
  await fetchApp("/auth");
  for (const platform of ["tiktok", "instagram"] as const) expect(await outcome(await linkSocial(owner, platform, ownerHandle))).toBe("→/channels");
}, 180_000);

let n = 0;
async function liveCampaign(): Promise<string> {
  n += 1;
  const slug = `own-${tag}-${n}`;
  const local = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 16);
  const fields = { intent: "create", brand: "Fizz", title: `Own ${n}`, slug, brief: "Use the track.", rate: "2.50", budget: "500.00" };
  expect(
    await outcome(
      await postForm(
        "/admin/campaigns",
        { ...fields, startsAt: local(-1), endsAt: local(10), requiredTrackId: "", minSubscribers: "" },
        withCookie(admin.cookie),
      ),
    ),
  ).toBe("→/admin/campaigns");
  const row = await env.DB.prepare("SELECT id FROM campaigns WHERE slug = ?").bind(slug).first<{ id: string }>();
  const id = row?.id ?? "";
  expect(await outcome(await postForm("/admin/campaigns", { intent: "launch", id }, withCookie(admin.cookie)))).toBe("→/admin/campaigns");
  for (const who of [owner, other, bare]) await postForm("/campaigns", { intent: "join", campaignId: id, accept: "on" }, withCookie(who.cookie));
  return id;
}

const submit = (who: TestUser, campaignId: string, url: string) => postForm("/campaigns", { intent: "submit", campaignId, url }, withCookie(who.cookie));
const stored = (campaignId: string) => count("SELECT count(*) AS n FROM campaign_submissions WHERE campaign_id = ?", campaignId);
let vid = 0;
const tiktokId = () => `78${tag.replace(/\D/g, "1").padEnd(8, "1")}${String(++vid).padStart(6, "0")}`;

describe("declaring handles on /channels", () => {
  it("stores the handle lower case without the @, audited; another account's handle and a bad handle are refused, nothing changed", async () => {
    const me = await createUser("creator");
    const mine = `Decl_${tag}`;
    const ok = await postForm("/channels", { intent: "handles", tiktok: `@${mine}`, instagram: "" }, withCookie(me.cookie));
    expect(await outcome(ok)).toBe("→/channels");
    const row = await env.DB.prepare("SELECT handle FROM social_handles WHERE user_id = ? AND platform = 'tiktok'").bind(me.id).first<{ handle: string }>();
    expect(row?.handle).toBe(mine.toLowerCase());
    const audit = await env.DB.prepare("SELECT details FROM security_audit_log WHERE event_type = 'social_handles_declared' AND user_id = ?")
      .bind(me.id)
      .first<{ details: string }>();
    expect(JSON.parse(audit?.details ?? "{}").tiktok).toEqual({ before: null, after: mine.toLowerCase() });
    const page = await (await fetchApp("/channels", withCookie(me.cookie))).text();
    expect(page).toContain(`value="@${mine.toLowerCase()}"`);

    const taken = await postForm("/channels", { intent: "handles", tiktok: mine.toUpperCase(), instagram: "" }, withCookie(other.cookie));
    expect(taken.status).toBe(409);
    expect(await taken.text()).toContain("This TikTok handle is already declared by another Shortbeat account.");
    const bad = await postForm("/channels", { intent: "handles", tiktok: "no spaces allowed", instagram: "" }, withCookie(other.cookie));
    expect(bad.status).toBe(400);
    expect(await count("SELECT count(*) AS n FROM social_handles WHERE user_id = ?", other.id)).toBe(0);

    // Two accounts claiming the same new handle at once: one has it, the other is told.
    const [x, y] = await Promise.all([createUser("creator"), createUser("creator")]);
    const race = `race_${tag}`;
    const both = await Promise.all([x, y].map((u) => postForm("/channels", { intent: "handles", tiktok: race, instagram: "" }, withCookie(u.cookie))));
    expect((await Promise.all(both.map(outcome))).sort()).toEqual(["409", "→/channels"]);
    expect(await count("SELECT count(*) AS n FROM social_handles WHERE platform = 'tiktok' AND handle = ?", race)).toBe(1);
  });
});

describe("TikTok and Instagram ownership on submission", () => {
  it("the platform unreachable: a clear 'try again' (503) and nothing written", async () => {
    const campaignId = await liveCampaign();
    const down = tiktokId();
    await registerStandInPost("tiktok", down, { author: ownerHandle, unavailable: true });
    const res = await submit(owner, campaignId, `https://www.tiktok.com/@${ownerHandle}/video/${down}`);
    expect(res.status).toBe(503);
    expect(await res.text()).toContain("TikTok could not be reached to check the video. Nothing was submitted: try again in a moment.");
    expect(await stored(campaignId)).toBe(0);
  });
});

describe("the daily views through the provider", () => {
  type Sub = { id: string; status: string; views: number; amount_cents: number; provider_views: number | null; views_pinned_at: string | null };
  const subOf = (url: string) => env.DB.prepare("SELECT * FROM campaign_submissions WHERE url = ?").bind(url).first<Sub>();
  const review = (fields: Record<string, string>) => postForm("/admin/campaigns", fields, withCookie(admin.cookie));

  it("reads TikTok and Instagram views, raises approved ones (capped, spent re-summed), keeps an admin's override (pinned, audited) and what a failing platform had", async () => {
    const campaignId = await liveCampaign();
    const ids = { a: tiktokId(), b: tiktokId(), d: tiktokId(), e: tiktokId() };
    const url = {
      a: `https://www.tiktok.com/@${ownerHandle}/video/${ids.a}`,
      b: `https://www.tiktok.com/@${ownerHandle}/video/${ids.b}`,
      c: `https://www.instagram.com/reel/Views${tag}/`,
      d: `https://www.tiktok.com/@${ownerHandle}/video/${ids.d}`,
      e: `https://www.tiktok.com/@${ownerHandle}/video/${ids.e}`,
    };
    await Promise.all([
      registerStandInPost("tiktok", ids.a, { author: ownerHandle, views: 12345 }),
      registerStandInPost("tiktok", ids.b, { author: ownerHandle, views: 50000 }),
      registerStandInPost("instagram", `Views${tag}`, { author: ownerHandle, views: 6789 }),
      registerStandInPost("tiktok", ids.d, { author: ownerHandle, views: 777 }),
      registerStandInPost("tiktok", ids.e, { author: ownerHandle }),
    ]);
    for (const u of Object.values(url)) expect(await outcome(await submit(owner, campaignId, u)), u).toBe("→/campaigns");
    // e's views are unreachable from now on (its ownership was confirmed above).
    await registerStandInPost("tiktok", ids.e, { author: ownerHandle, views: "unavailable" });
    for (const k of ["a", "b", "c", "e"] as const) {
      const s = await subOf(url[k]);
      expect(await outcome(await review({ intent: "approve", submissionId: s?.id ?? "", views: "100" }))).toBe("→/admin/campaigns");
    }
    // The admin's manual override of b: pinned, audited (who, when, old → new).
    const b = await subOf(url.b);
    expect(await outcome(await review({ intent: "views", submissionId: b?.id ?? "", views: "201" }))).toBe("→/admin/campaigns");
    const audit = await env.DB.prepare(
      "SELECT user_id, target_user_id, created_at, details FROM security_audit_log WHERE event_type = 'campaign_submission_views_updated' AND details LIKE ?",
    )
      .bind(`%${b?.id}%`)
      .first<{ user_id: string; target_user_id: string; created_at: string; details: string }>();
    expect(audit).toMatchObject({ user_id: admin.id, target_user_id: owner.id });
    expect(audit?.created_at).toBeTruthy();
    expect(JSON.parse(audit?.details ?? "{}")).toMatchObject({ views_before: 100, views: 201, pinned: true });
    // 201 × 2.50 / 1,000 is whole cents (50), never 50.25.
    expect(await subOf(url.b)).toMatchObject({ views: 201, amount_cents: 50 });

    const run = await refreshCampaignViews({ limit: 10_000 });
    expect(run.raised).toBeGreaterThanOrEqual(2);
    expect(await subOf(url.a)).toMatchObject({ status: "approved", views: 12345, amount_cents: 3086, provider_views: 12345 });
    expect(await subOf(url.c)).toMatchObject({ status: "approved", views: 6789, amount_cents: 1697, provider_views: 6789 });
    // Pinned by the override: the provider's reading is kept beside it, the views are the admin's.
    expect(await subOf(url.b)).toMatchObject({ views: 201, amount_cents: 50, provider_views: 50000 });
    expect((await subOf(url.b))?.views_pinned_at).toBeTruthy();
    // Pending: read, not approved by the job.
    expect(await subOf(url.d)).toMatchObject({ status: "pending", views: 0, amount_cents: 0, provider_views: 777 });
    // The platform failing: the admin's views stay, nothing read.
    expect(await subOf(url.e)).toMatchObject({ views: 100, amount_cents: 25, provider_views: null });
    const spent = await env.DB.prepare("SELECT spent_cents FROM campaigns WHERE id = ?").bind(campaignId).first<{ spent_cents: number }>();
    expect(spent?.spent_cents).toBe(3086 + 50 + 1697 + 25);

    // A lower reading never lowers the views; a second run changes nothing else.
    await registerStandInPost("tiktok", ids.a, { author: ownerHandle, views: 10 });
    await refreshCampaignViews({ limit: 10_000 });
    expect(await subOf(url.a)).toMatchObject({ views: 12345, amount_cents: 3086, provider_views: 10 });
    expect((await env.DB.prepare("SELECT spent_cents FROM campaigns WHERE id = ?").bind(campaignId).first<{ spent_cents: number }>())?.spent_cents).toBe(
      3086 + 50 + 1697 + 25,
    );
  });
});
