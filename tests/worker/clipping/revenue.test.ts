// Clip revenue in the import (issue 16, docs/decisions/0150): a row naming a clip's video is
// music-pool revenue split between clipper and creator by the split in force, pro rata by UTC days
// in the month it changed, to the cent; each side's entry is paid in their own payout and both
// statements show it (the creator's names what went to the clipper).
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { splitClipMonth } from "~/modules/clipping/split-days";
import { runPayoutDay } from "~/modules/payments/payments.server";
import { createUser, type TestUser } from "../../factories/users";
import { fetchApp, outcome, postForm, withCookie } from "../helpers";
import { pair, stageRevenue } from "./helpers";

const HEADER = "month,channel_id,creator_id,video_id,net_revenue,currency";
let admin: TestUser;
beforeAll(async () => {
  admin = await createUser("admin");
}, 60_000);

async function importMonth(month: string, csv: string) {
  const staged = await stageRevenue(admin, month, csv);
  const live = await env.DB.prepare("SELECT live_import_id FROM revenue_months WHERE month = ?").bind(month).first<{ live_import_id: string | null }>();
  const post = (fields: Record<string, string>) => postForm("/admin/payments", fields, withCookie(admin.cookie));
  expect(await outcome(await post({ intent: "commit", importId: staged, replaces: live?.live_import_id ?? "" }))).toBe("→/admin/payments");
  return staged;
}

async function approvedClip(creatorId: string, clipperId: string, videoId: string) {
  const id = crypto.randomUUID();
  await env.DB.prepare(
    "INSERT INTO clips (id, creator_user_id, clipper_user_id, platform, url, video_id, status, approved_at) VALUES (?, ?, ?, 'youtube_shorts', ?, ?, 'approved', '2020-01-01T00:00:00.000Z')",
  )
    .bind(id, creatorId, clipperId, `https://www.youtube.com/shorts/${videoId}`, videoId)
    .run();
  return id;
}

const clipEntries = (importId: string, clipId: string) =>
  env.DB.prepare("SELECT user_id, net_cents, amount_cents, share_bp, note FROM ledger_entries WHERE import_id = ? AND source_kind = 'clip' AND source_id = ?")
    .bind(importId, clipId)
    .all<{ user_id: string; net_cents: number; amount_cents: number; share_bp: number; note: string }>();

describe("clip revenue in the import", () => {
  it("the default 70/30 of the creator's 70% share: no cent created or lost; other rows stay music", async () => {
    const { creator, clipper } = await pair();
    const videoId = `V${crypto.randomUUID().replace(/-/g, "").slice(0, 10)}`;
    const clipId = await approvedClip(creator.id, clipper.id, videoId);
    const month = "2004-01";
    const importId = await importMonth(month, `${HEADER}\n${month},,${creator.creatorId},${videoId},100.01,USD\n${month},,${creator.creatorId},,10.00,USD\n`);
    const rows = (await clipEntries(importId, clipId)).results;
    const mine = rows.find((r) => r.user_id === clipper.id);
    const theirs = rows.find((r) => r.user_id === creator.id);
    // Pool: floor(10001 × 0.7) = 7000; clipper floor(7000 × 0.7) = 4900; creator 2100.
    expect(mine?.amount_cents).toBe(4900);
    expect(theirs?.amount_cents).toBe(2100);
    expect((mine?.net_cents ?? 0) + (theirs?.net_cents ?? 0)).toBe(10001);
    expect(theirs?.note).toContain("$49.00 to the clipper");
    expect(theirs?.note).toContain("Test creator");
    const music = await env.DB.prepare("SELECT amount_cents FROM ledger_entries WHERE import_id = ? AND user_id = ? AND source_kind = 'music'")
      .bind(importId, creator.id)
      .first<{ amount_cents: number }>();
    expect(music?.amount_cents).toBe(700);
    // The creator-level row (no channel) is named as such, never "all channels" (decision 0321).
    const page = await (await fetchApp(`/payments?month=${month}`, withCookie(creator.cookie))).text();
    expect(page).toContain("Music on your channels (reported for your creator ID, not by channel)");
  });

  it("a split approved mid-month applies from the next UTC day: pro rata, to the cent; paid in each side's own payout; both statements show it", async () => {
    const { creator, clipper, linkId } = await pair();
    const videoId = `W${crypto.randomUUID().replace(/-/g, "").slice(0, 10)}`;
    const clipId = await approvedClip(creator.id, clipper.id, videoId);
    const month = "2004-03";
    await env.DB.prepare(
      "INSERT INTO clip_split_requests (id, link_id, from_bps, share_bps, status, created_at, decided_at, decided_by) VALUES (?, ?, 7000, 8000, 'approved', ?, ?, ?)",
    )
      .bind(crypto.randomUUID(), linkId, "2004-03-09T00:00:00.000Z", "2004-03-10T15:00:00.000Z", creator.id)
      .run();
    const importId = await importMonth(month, `${HEADER}\n${month},,${creator.creatorId},${videoId},100.00,USD\n`);
    const rows = (await clipEntries(importId, clipId)).results;
    // Pool 7000: days 1–10 → floor(7000 × 10 / 31) = 2258 at 70% = 1580; days 11–31 → 4742 at 80% = 3793.
    expect(rows.find((r) => r.user_id === clipper.id)?.amount_cents).toBe(5373);
    expect(rows.find((r) => r.user_id === creator.id)?.amount_cents).toBe(1627);
    expect(splitClipMonth(10000, 7000, month, [{ at: "2004-03-10T15:00:00.000Z", bps: 8000 }], 7000).clipperCents).toBe(5373);

    const post = (fields: Record<string, string>) => postForm("/admin/payments", fields, withCookie(admin.cookie));
    await post({ intent: "funds_received", month });
    expect(await outcome(await post({ intent: "finalize", month }))).toBe("→/admin/payments");
    // Both paid outside Stripe here (decision 0224): the payout day gathers them without a Stripe account.
    await env.DB.batch(
      [creator, clipper].map((p) => env.DB.prepare("INSERT INTO payout_accounts (user_id, method, manual_reason) VALUES (?, 'manual', 'test')").bind(p.id)),
    );
    await runPayoutDay(new Date("2004-04-30T03:00:00Z"));
    const payouts = await env.DB.prepare("SELECT user_id, amount_cents FROM payouts WHERE user_id IN (?, ?) ORDER BY amount_cents")
      .bind(creator.id, clipper.id)
      .all<{ user_id: string; amount_cents: number }>();
    expect(payouts.results).toEqual([
      { user_id: creator.id, amount_cents: 1627 },
      { user_id: clipper.id, amount_cents: 5373 },
    ]);
    const creatorPage = await (await fetchApp("/payments", withCookie(creator.cookie))).text();
    expect(creatorPage).toContain("$53.73 to the clipper");
    expect(creatorPage).toContain("$16.27");
    const clipperPage = await (await fetchApp("/payments", withCookie(clipper.cookie))).text();
    expect(clipperPage).toContain("$53.73");
    expect(clipperPage).toContain(`https://www.youtube.com/shorts/${videoId}`);
    // Each side's line names the clip and the other person, as they would (decision 0321).
    expect(clipperPage).toContain(`Your part of clip https://www.youtube.com/shorts/${videoId} for Test creator (the creator)`);
    expect(creatorPage).toContain(`Your part of clip https://www.youtube.com/shorts/${videoId} by Test creator (your clipper)`);
  });

  it("a clip never approved, or a row of someone else naming the video, is ordinary music revenue", async () => {
    const { creator, clipper } = await pair();
    const videoId = `X${crypto.randomUUID().replace(/-/g, "").slice(0, 10)}`;
    await env.DB.prepare(
      "INSERT INTO clips (id, creator_user_id, clipper_user_id, platform, url, video_id, status) VALUES (?, ?, ?, 'youtube_shorts', ?, ?, 'pending')",
    )
      .bind(crypto.randomUUID(), creator.id, clipper.id, `https://www.youtube.com/shorts/${videoId}`, videoId)
      .run();
    const month = "2004-05";
    const importId = await importMonth(month, `${HEADER}\n${month},,${creator.creatorId},${videoId},10.00,USD\n`);
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM ledger_entries WHERE import_id = ? AND source_kind = 'clip'").bind(importId).first<{ n: number }>(),
    ).toEqual({ n: 0 });
  });
});

describe("clip revenue after the creator's agreement ends (decisions 0128, 0154)", () => {
  async function terminated(creatorId: string, endsOn: string) {
    await env.DB.prepare("INSERT INTO payment_agreements (user_id, status, ends_on, terminated_at, termination_reason) VALUES (?, 'terminated', ?, ?, 'test')")
      .bind(creatorId, endsOn, `${endsOn}T12:00:00Z`)
      .run();
  }

  it("a month after the end date credits neither side: no clip entries", async () => {
    const { creator, clipper } = await pair();
    const videoId = `E${crypto.randomUUID().replace(/-/g, "").slice(0, 10)}`;
    const clipId = await approvedClip(creator.id, clipper.id, videoId);
    await terminated(creator.id, "2005-05-20");
    const month = "2005-06";
    const importId = await importMonth(month, `${HEADER}\n${month},,${creator.creatorId},${videoId},100.00,USD\n`);
    expect((await clipEntries(importId, clipId)).results).toEqual([]);
    const total = await env.DB.prepare("SELECT coalesce(sum(amount_cents), 0) AS c FROM ledger_entries WHERE import_id = ? AND user_id IN (?, ?)")
      .bind(importId, creator.id, clipper.id)
      .first<{ c: number }>();
    expect(total?.c).toBe(0);
  });

  it("the month holding the end date is pro rata as for music, then split: the clipper's part follows the creator's", async () => {
    const { creator, clipper } = await pair();
    const videoId = `F${crypto.randomUUID().replace(/-/g, "").slice(0, 10)}`;
    const clipId = await approvedClip(creator.id, clipper.id, videoId);
    await terminated(creator.id, "2005-09-15");
    const month = "2005-09";
    const importId = await importMonth(month, `${HEADER}\n${month},,${creator.creatorId},${videoId},100.01,USD\n`);
    const rows = (await clipEntries(importId, clipId)).results;
    // Earned: floor(10001 × 15 / 30) = 5000; pool floor(5000 × 0.7) = 3500; clipper 70% = 2450; creator 1050.
    const mine = rows.find((r) => r.user_id === clipper.id);
    const theirs = rows.find((r) => r.user_id === creator.id);
    expect(mine?.amount_cents).toBe(2450);
    expect(theirs?.amount_cents).toBe(1050);
    expect((mine?.net_cents ?? 0) + (theirs?.net_cents ?? 0)).toBe(5000);
    expect(theirs?.note).toContain("15 of 30 days, to the agreement's end on 2005-09-15");
    expect(mine?.note).toContain("15 of 30 days");
  });

  it("a month whose last day is the end date is credited in full", async () => {
    const { creator, clipper } = await pair();
    const videoId = `G${crypto.randomUUID().replace(/-/g, "").slice(0, 10)}`;
    const clipId = await approvedClip(creator.id, clipper.id, videoId);
    await terminated(creator.id, "2005-11-30");
    const month = "2005-11";
    const importId = await importMonth(month, `${HEADER}\n${month},,${creator.creatorId},${videoId},100.00,USD\n`);
    const rows = (await clipEntries(importId, clipId)).results;
    expect(rows.find((r) => r.user_id === clipper.id)?.amount_cents).toBe(4900);
    expect(rows.find((r) => r.user_id === creator.id)?.amount_cents).toBe(2100);
  });
});

describe("per-clip earnings on /clipping (issue 31 §3, decision 0255)", () => {
  /** The page's text as a person reads it: tags and React's text separators gone, spaces collapsed. */
  const pageText = async (user: TestUser) =>
    (await (await fetchApp("/clipping", withCookie(user.cookie))).text())
      .replace(/<!-- -->/g, "")
      .replace(/<[^>]+>/g, " ")
      .replace(/&#x27;|&#39;/g, "'")
      .replace(/\s+/g, " ");

  it("both sides see the clip's month from the ledger: status, both parts of the pool, the split by days, per 1,000 views", async () => {
    const { creator, clipper, linkId } = await pair();
    const videoId = `E${crypto.randomUUID().replace(/-/g, "").slice(0, 10)}`;
    const clipId = await approvedClip(creator.id, clipper.id, videoId);
    await env.DB.prepare("UPDATE clips SET views = 20000 WHERE id = ?").bind(clipId).run();
    // Before any import: nothing invented, what will apply is said.
    expect(await pageText(clipper)).toContain(
      "Nothing imported yet. Its revenue comes with the month's report: 70% to the clipper of the creator's 70% share.",
    );

    // 80% from the 11th (confirmed on the 10th at 15:00 UTC).
    await env.DB.prepare(
      "INSERT INTO clip_split_requests (id, link_id, from_bps, share_bps, status, created_at, decided_at, decided_by) VALUES (?, ?, 7000, 8000, 'approved', ?, ?, ?)",
    )
      .bind(crypto.randomUUID(), linkId, "2005-03-09T00:00:00.000Z", "2005-03-10T15:00:00.000Z", creator.id)
      .run();
    await importMonth("2005-03", `${HEADER}\n2005-03,,${creator.creatorId},${videoId},100.00,USD\n`);

    // Pool 7000: clipper 5373 (70% on days 1–10, 80% on days 11–31), creator 1627 (as the import wrote them).
    const split = "Clipper 70% on days 1–10, 80% on days 11–31: $53.73 · creator $16.27 · of $70.00 (the creator's 70% share)";
    const mine = await pageText(clipper);
    expect(mine).toContain(`$53.73 Estimated March 2005 ${split}`);
    // 5373 × 1000 / 20000 views = 268.65 cents.
    expect(mine).toContain("$2.69 per 1,000 views so far (your $53.73 in all)");
    const theirs = await pageText(creator);
    expect(theirs).toContain(`$16.27 Estimated March 2005 ${split}`);
    expect(theirs).toContain("$0.81 per 1,000 views so far (your $16.27 in all)");

    // A later month adds to the total; the latest month is the one shown.
    await importMonth("2005-04", `${HEADER}\n2005-04,,${creator.creatorId},${videoId},10.00,USD\n`);
    const later = await pageText(clipper);
    // Pool 700 at 80%: 560.
    expect(later).toContain("$5.60 Estimated April 2005 Clipper 80%: $5.60 · creator $1.40 · of $7.00 (the creator's 70% share)");
    expect(later).toContain("per 1,000 views so far (your $59.33 in all)");
    expect(later).not.toContain("March 2005 Clipper");

    // Someone else's page shows none of it.
    const stranger = await createUser("creator");
    expect(await pageText(stranger)).not.toContain("$59.33");
  });

  it("the share said before any import is the creator's revised share in force this month, else the standard one", async () => {
    const revised = await pair();
    const standard = await pair();
    for (const { creator, clipper } of [revised, standard]) {
      await approvedClip(creator.id, clipper.id, `S${crypto.randomUUID().replace(/-/g, "").slice(0, 10)}`);
    }
    const offer = (userId: string, shareBp: number, effectiveMonth: string, respondedAt: string) =>
      env.DB.prepare(
        "INSERT INTO share_offers (id, user_id, share_bp, status, responded_at, effective_month, term_start) VALUES (?, ?, ?, 'accepted', ?, ?, ?)",
      ).bind(crypto.randomUUID(), userId, shareBp, respondedAt, effectiveMonth, `${effectiveMonth}-01`);
    // Accepted in turn: 75% from 2001, 80% from 2002 (in force now), 90% from 2999 (not yet).
    await env.DB.batch([
      offer(revised.creator.id, 7500, "2001-01", "2000-12-15T00:00:00.000Z"),
      offer(revised.creator.id, 8000, "2002-01", "2001-12-15T00:00:00.000Z"),
      offer(revised.creator.id, 9000, "2999-01", "2998-12-15T00:00:00.000Z"),
    ]);
    expect(await pageText(revised.clipper)).toContain("70% to the clipper of the creator's 80% share.");
    expect(await pageText(standard.clipper)).toContain("70% to the clipper of the creator's 70% share.");
  });
});
