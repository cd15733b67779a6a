// Demo campaigns (issue 15): one live campaign ('summer-launch', the required track is a demo track)
// that the demo creator joined, with a pending, an approved and a rejected submission; one ended
// campaign waiting to be settled; one draft. Dates are relative to today; fixed ids and INSERT OR
// IGNORE make a second run change nothing.

const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString().padStart(12, "0")}`;

export const CAMPAIGN_SEED_IDS = { live: uuid(150001), ended: uuid(150002), draft: uuid(150003) };

export function campaignsSeed({
  db,
  adminId,
  creatorId,
  channelId,
  trackId,
  now = new Date(),
}: {
  db: D1Database;
  adminId: string;
  creatorId: string;
  /** The demo creator's linked YouTube channel (the stand-in's caseyShort* videos are on it). */
  channelId: string;
  trackId: string | null;
  now?: Date;
}): D1PreparedStatement[] {
  const day = (n: number) => new Date(now.getTime() + n * 86_400_000).toISOString();
  const campaign = (c: {
    id: string;
    slug: string;
    brand: string;
    title: string;
    brief: string;
    rate: number;
    budget: number;
    spent: number;
    starts: string;
    ends: string;
    status: "draft" | "launched";
    track: string | null;
  }) =>
    db
      .prepare(
        `INSERT OR IGNORE INTO campaigns (id, slug, brand, title, brief, rate_cents, budget_cents, spent_cents, starts_at, ends_at, required_track_id, min_subscribers, status, launched_at, created_by, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?)`,
      )
      .bind(
        c.id,
        c.slug,
        c.brand,
        c.title,
        c.brief,
        c.rate,
        c.budget,
        c.spent,
        c.starts,
        c.ends,
        c.track,
        c.status,
        c.status === "launched" ? c.starts : null,
        adminId,
        day(-30),
        day(-30),
      );
  const submission = (
    id: string,
    campaignId: string,
    url: string,
    platform: string,
    key: string,
    channel: string | null,
    rate: number,
    status: string,
    views: number,
    amount: number,
    reason: string | null,
    age: number,
  ) =>
    db
      .prepare(
        `INSERT OR IGNORE INTO campaign_submissions (id, campaign_id, user_id, url, platform, video_key, channel_id, rate_cents, status, views, amount_cents, reason, reviewed_by, reviewed_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .bind(
        id,
        campaignId,
        creatorId,
        url,
        platform,
        key,
        channel,
        rate,
        status,
        views,
        amount,
        reason,
        status === "pending" ? null : adminId,
        status === "pending" ? null : day(-age + 1),
        day(-age),
        day(-age),
      );
  const joined = (campaignId: string, age: number) =>
    db
      .prepare("INSERT OR IGNORE INTO campaign_participants (campaign_id, user_id, terms_accepted_at, created_at) VALUES (?, ?, ?, ?)")
      .bind(campaignId, creatorId, day(-age), day(-age));
  // The demo creator's declared TikTok and Instagram handles (decision 0265): the demo submissions' own.
  const handle = (platform: string, name: string) =>
    db
      .prepare("INSERT OR IGNORE INTO social_handles (user_id, platform, handle, created_at, updated_at) VALUES (?, ?, ?, ?, ?)")
      .bind(creatorId, platform, name, day(-40), day(-40));

  return [
    handle("tiktok", "caseycreates"),
    handle("instagram", "caseycreates"),
    campaign({
      id: CAMPAIGN_SEED_IDS.live,
      slug: "summer-launch",
      brand: "Fizz Cola",
      title: "Summer Launch",
      brief:
        "Make a Short about the best moment of your summer with the required track playing under it. Show a can of Fizz Cola on screen for at least two seconds and add #FizzSummer to the description.",
      rate: 250,
      budget: 200_000,
      spent: 3086,
      starts: day(-10),
      ends: day(20),
      status: "launched",
      track: trackId,
    }),
    joined(CAMPAIGN_SEED_IDS.live, 9),
    submission(
      uuid(150101),
      CAMPAIGN_SEED_IDS.live,
      "https://www.youtube.com/shorts/caseyShort1",
      "youtube",
      "youtube:caseyShort1",
      channelId,
      250,
      "approved",
      12_345,
      3086,
      null,
      8,
    ),
    submission(
      uuid(150102),
      CAMPAIGN_SEED_IDS.live,
      "https://www.tiktok.com/@caseycreates/video/7311000000000000001",
      "tiktok",
      "tiktok:7311000000000000001",
      null,
      250,
      "pending",
      0,
      0,
      null,
      2,
    ),
    submission(
      uuid(150103),
      CAMPAIGN_SEED_IDS.live,
      "https://www.instagram.com/reel/CaseyReel01/",
      "instagram",
      "instagram:CaseyReel01",
      null,
      250,
      "rejected",
      0,
      0,
      "The required track is not in the video.",
      5,
    ),
    campaign({
      id: CAMPAIGN_SEED_IDS.ended,
      slug: "autumn-glow",
      brand: "Glow Skincare",
      title: "Autumn Glow",
      brief: "Show your morning routine in under 60 seconds and mention Glow Skincare.",
      rate: 300,
      budget: 50_000,
      spent: 1560,
      starts: day(-40),
      ends: day(-10),
      status: "launched",
      track: null,
    }),
    joined(CAMPAIGN_SEED_IDS.ended, 38),
    submission(
      uuid(150201),
      CAMPAIGN_SEED_IDS.ended,
      "https://www.youtube.com/shorts/caseyShort2",
      "youtube",
      "youtube:caseyShort2",
      channelId,
      300,
      "approved",
      5200,
      1560,
      null,
      30,
    ),
    // Told when it ended (the daily job would have).
    db.prepare("UPDATE campaigns SET end_notified_at = coalesce(end_notified_at, ends_at) WHERE id = ?").bind(CAMPAIGN_SEED_IDS.ended),
    campaign({
      id: CAMPAIGN_SEED_IDS.draft,
      slug: "winter-beats",
      brand: "Northpeak Outdoor",
      title: "Winter Beats",
      brief: "Film your first snow day of the year. Brief to be finalized with the brand.",
      rate: 200,
      budget: 100_000,
      spent: 0,
      starts: day(15),
      ends: day(45),
      status: "draft",
      track: null,
    }),
  ];
}
