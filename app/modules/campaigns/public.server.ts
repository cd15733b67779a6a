import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { campaigns } from "~/db/schema";
import { db } from "~/platform/db.server";
import { budgetLeft, type CampaignState, type CampaignSummary, effectiveEnd } from "./rules";
import { tellEnded } from "./admin.server";
import { liveAt, stateOf } from "./store.server";

// Public: /campaigns/{slug} (a live, ended or settled campaign; a draft or one not started yet is
// the not-found page) and the sitemap's live campaigns. No actor: these are public pages.
// The daily job tells participants when a campaign ended by its date.

export type PublicCampaign = CampaignSummary & {
  startsAt: string;
  endsAt: string;
  state: CampaignState;
};

export async function publicCampaign(slug: string, now = new Date()): Promise<PublicCampaign | null> {
  if (!/^[a-z0-9-]{1,60}$/.test(slug)) return null;
  const row = await db()
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.slug, slug), inArray(campaigns.status, ["launched", "settled"])))
    .get();
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
    ...budgetLeft(row),
    startsAt: row.startsAt,
    endsAt: effectiveEnd(row),
    state,
  };
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
