import { expectAt } from "~/lib/arrays";
import { and, asc, eq, inArray, isNull, lt, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { campaignSubmissions, campaigns } from "~/db/schema";
import { VIEWS_PROVIDERS, youtubeViewsMany } from "~/modules/channels/channels.server";
import { db } from "~/platform/db.server";
import { jobRequest } from "~/platform/env.server";
import { cappedAmount, resumSpent } from "./budget.server";

// The daily views job of campaign submissions (decision 0266): every pending or approved
// submission of a launched campaign (not settled: settling freezes the views) is read through the
// views provider (YouTube, TikTok, Instagram; the stand-ins locally; TikTok and Instagram with the
// creator's linked account, decisions 0299, 0300). What the provider read is kept
// (provider_views, views_checked_at) for the admin; an approved submission whose views an admin has
// not pinned is raised to the provider's views when they are higher, its amount capped by the budget
// left exactly as a review does, and the campaign's spent re-summed in the same batch. Views never go
// down by the job (a platform's count does not; a lower reading is left to the admin), so it never
// frees budget. A platform that fails, or a video it no longer has, writes nothing for that submission.

/** Submissions the job reads per run, least recently read first. */
export const CAMPAIGN_VIEWS_MAX = 400;
const PARALLEL = 10;

export async function refreshCampaignViews(opts: { limit?: number } = {}): Promise<{ total: number; updated: number; raised: number; failed: number }> {
  const targets = await db()
    .select({
      id: campaignSubmissions.id,
      campaignId: campaignSubmissions.campaignId,
      platform: campaignSubmissions.platform,
      videoKey: campaignSubmissions.videoKey,
      userId: campaignSubmissions.userId,
    })
    .from(campaignSubmissions)
    .innerJoin(campaigns, eq(campaigns.id, campaignSubmissions.campaignId))
    .where(and(inArray(campaignSubmissions.status, ["pending", "approved"]), eq(campaigns.status, "launched")))
    .orderBy(asc(sql`coalesce(${campaignSubmissions.viewsCheckedAt}, '')`), asc(campaignSubmissions.id))
    .limit(opts.limit ?? CAMPAIGN_VIEWS_MAX);
  const request = jobRequest("/__cron/campaign-views");
  let updated = 0;
  let raised = 0;
  let failed = 0;
  const videoIdOf = (t: (typeof targets)[number]) => t.videoKey.slice(t.videoKey.indexOf(":") + 1);
  // YouTube first, all at once: 50 ids per videos.list call, asked as the submitter (whose channel the
  // video was checked to be on), else with the API key (decision 0303).
  const youtube = await youtubeViewsMany(
    request,
    targets.filter((t) => t.platform === "youtube").map((t) => ({ videoId: videoIdOf(t), ownerUserId: t.userId })),
  );
  for (let i = 0; i < targets.length; i += PARALLEL) {
    const chunk = targets.slice(i, i + PARALLEL);
    const readings = await Promise.all(
      chunk.map((t) =>
        t.platform === "youtube"
          ? (youtube.get(videoIdOf(t)) ?? { kind: "unavailable" as const })
          : VIEWS_PROVIDERS[t.platform](request, videoIdOf(t), t.userId),
      ),
    );
    const at = new Date().toISOString();
    const writes: BatchItem<"sqlite">[] = [];
    readings.forEach((r, j) => {
      const t = expectAt(chunk, j, "view readings per submission");
      if (r.kind !== "found") {
        failed++;
        return;
      }
      updated++;
      writes.push(db().update(campaignSubmissions).set({ providerViews: r.views, viewsCheckedAt: at }).where(eq(campaignSubmissions.id, t.id)));
      // Raised only while approved, unpinned, in a launched campaign and below the reading: the
      // guard is in the statement, so a review or a settle in between is never overwritten.
      writes.push(
        db()
          .update(campaignSubmissions)
          .set({ views: r.views, amountCents: cappedAmount(r.views), updatedAt: at })
          .where(
            and(
              eq(campaignSubmissions.id, t.id),
              eq(campaignSubmissions.status, "approved"),
              isNull(campaignSubmissions.viewsPinnedAt),
              lt(campaignSubmissions.views, r.views),
              sql`exists (select 1 from ${campaigns} where ${campaigns.id} = ${campaignSubmissions.campaignId} and ${campaigns.status} = 'launched')`,
            ),
          )
          .returning({ id: campaignSubmissions.id }),
        // After each raise, not once per campaign: the next raise's cap reads spent_cents.
        resumSpent(t.campaignId, at),
      );
    });
    if (writes.length === 0) continue;
    const results = await db().batch(writes as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
    // Every raise is the second of each found reading's three statements.
    for (let k = 1; k < results.length; k += 3) raised += (results[k] as unknown as unknown[]).length;
  }
  return { total: targets.length, updated, raised, failed };
}
