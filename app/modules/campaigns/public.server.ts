import { and, count, desc, eq, inArray, isNull, sql, sum } from "drizzle-orm";
import { campaignSubmissions, campaigns } from "~/db/schema";
import { DELETED_NAME, peopleByIds } from "~/modules/accounts/accounts.server";
import { type PublicTrackPreview, publicTrackPreview } from "~/modules/music/music.server";
import { db } from "~/platform/db.server";
import { budgetLeft, type CampaignState, type CampaignSummary, effectiveEnd, publicName } from "./rules";
import { tellEnded } from "./lifecycle.server";
import { liveAt, stateOf } from "./store.server";

// Public: /campaigns/{slug} (a live, ended or settled campaign; a draft or one not started yet is
// the not-found page) and the sitemap's live campaigns. No actor: these are public pages.
// The daily job tells participants when a campaign ended by its date.

export type PublicCampaign = CampaignSummary & {
  budgetCents: number;
  spentCents: number;
  requiredTrackId: string | null;
  startsAt: string;
  endsAt: string;
  state: CampaignState;
};

export async function publicCampaign(slug: string, now = new Date()): Promise<PublicCampaign | null> {
  if (!SLUG.test(slug)) return null;
  return shown(await publicRowQuery(slug).get(), now);
}

const SLUG = /^[a-z0-9-]{1,60}$/;

/** The campaign's row when it is launched or settled (the state decides the rest). */
function publicRowQuery(slug: string) {
  return db()
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.slug, slug), inArray(campaigns.status, ["launched", "settled"])))
    .limit(1);
}

/** The row as the public page shows it, or null when the page does not show it (draft, not started, cancelled). */
function shown(row: typeof campaigns.$inferSelect | undefined, now: Date): PublicCampaign | null {
  if (!row) return null;
  const state = stateOf(row, now);
  if (state !== "live" && state !== "ended" && state !== "settled") return null;
  return {
    id: row.id,
    slug: row.slug,
    brand: row.brand,
    title: row.title,
    brief: row.brief,
    rateCents: row.rateCents,
    budgetCents: row.budgetCents,
    spentCents: row.spentCents,
    ...budgetLeft(row),
    requiredTrackId: row.requiredTrackId,
    startsAt: row.startsAt,
    endsAt: effectiveEnd(row),
    state,
  };
}

/** A row of the public leaderboard: what a visitor may see of a creator (docs/decisions/0244). */
export type LeaderboardEntry = { rank: number; name: string; views: number; videos: number };

/** Creators on the public leaderboard. */
export const LEADERBOARD_SIZE = 10;

/**
 * The public page's whole picture: the campaign, its required track with a signed preview (a
 * published track only), and the leaderboard of approved submissions — per creator, the verified
 * views and the number of videos, the name as first name and last initial. Never an e-mail, an
 * amount, a video link or a pending or rejected submission; banned and deleted accounts are left out.
 */
export async function publicCampaignPage(
  slug: string,
  now = new Date(),
): Promise<{ campaign: PublicCampaign; track: PublicTrackPreview | null; leaderboard: LeaderboardEntry[] } | null> {
  if (!SLUG.test(slug)) return null;
  // The campaign and its leaderboard's rows in one round trip; then the names and the track at once.
  const [[row], rows] = await db().batch([publicRowQuery(slug), leaderboardRowsQuery(slug)]);
  const campaign = shown(row, now);
  if (!campaign) return null;
  const [track, leaderboard] = await Promise.all([
    campaign.requiredTrackId ? publicTrackPreview(campaign.requiredTrackId, now.getTime()) : Promise.resolve(null),
    leaderboardOf(rows),
  ]);
  return { campaign, track, leaderboard };
}

/** Approved submissions summed per creator, most views first: a few more than shown (banned or deleted accounts drop out after the names are read). */
function leaderboardRowsQuery(slug: string) {
  const views = sum(campaignSubmissions.views).mapWith(Number);
  return db()
    .select({ userId: campaignSubmissions.userId, views, videos: count() })
    .from(campaignSubmissions)
    .innerJoin(campaigns, eq(campaigns.id, campaignSubmissions.campaignId))
    .where(and(eq(campaigns.slug, slug), eq(campaignSubmissions.status, "approved")))
    .groupBy(campaignSubmissions.userId)
    .orderBy(desc(views), campaignSubmissions.userId)
    .limit(LEADERBOARD_SIZE + 10);
}

async function leaderboardOf(rows: { userId: string; views: number; videos: number }[]): Promise<LeaderboardEntry[]> {
  const people = await peopleByIds(rows.map((r) => r.userId));
  return rows
    .filter((r) => {
      const p = people.get(r.userId);
      return p && !p.isBanned && p.fullName !== DELETED_NAME;
    })
    .slice(0, LEADERBOARD_SIZE)
    .map((r, i) => ({ rank: i + 1, name: publicName(people.get(r.userId)?.fullName ?? null), views: r.views, videos: r.videos }));
}

/** The sitemap's campaign pages: the live ones. */
export async function liveCampaignPaths(now = new Date()): Promise<string[]> {
  const rows = await db().select({ slug: campaigns.slug }).from(campaigns).where(liveAt(now.toISOString())).limit(1000);
  return rows.map((r) => `/campaigns/${r.slug}`);
}

/**
 * The daily job: participants of campaigns that ended by their date are told once (end_notified_at
 * is claimed by a guarded update, so two runs at once tell them once).
 */
export async function notifyEndedCampaigns(now = new Date()): Promise<{ campaigns: number }> {
  const t = now.toISOString();
  const claimed = await db()
    .update(campaigns)
    .set({ endNotifiedAt: t })
    .where(and(eq(campaigns.status, "launched"), isNull(campaigns.endNotifiedAt), sql`${campaigns.endsAt} <= ${t}`))
    .returning();
  for (const row of claimed) await tellEnded(row);
  return { campaigns: claimed.length };
}
