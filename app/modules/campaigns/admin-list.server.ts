import { asc, count, desc, eq } from "drizzle-orm";
import { campaignParticipants, campaignSubmissions, campaigns } from "~/db/schema";
import { type Actor, authorize } from "~/lib/permissions";
import { peopleByIds } from "~/modules/accounts/accounts.server";
import { youtubeApiStatus } from "~/modules/channels/channels.server";
import { EMPTY_LIBRARY_QUERY } from "~/modules/music/library";
import { libraryPage } from "~/modules/music/music.server";
import { creditsOfSourceQuery } from "~/modules/payments/payments.server";
import { db } from "~/platform/db.server";
import { type CampaignState, DEADLINE_WARNING_DAYS, daysUntil, effectiveEnd, payoutDeadline } from "./rules";
import { type CampaignRow, stateOf } from "./store.server";

// The admin console's campaign list and the selected campaign in detail (docs/decisions/0140):
// counts, the payout-deadline warning, the submissions and the ledger entries. The changes are in
// edit.server.ts, lifecycle.server.ts and review.server.ts.

export type AdminCampaignRow = {
  id: string;
  slug: string;
  brand: string;
  title: string;
  state: CampaignState;
  rateCents: number;
  budgetCents: number;
  spentCents: number;
  startsAt: string;
  endsAt: string;
  effectiveEnd: string;
  participants: number;
  pending: number;
  fundsReceivedAt: string | null;
  payableOn: string | null;
  deadline: string;
  /** Days until the 60-day payout deadline while the campaign is not payable yet (null: no warning). */
  deadlineWarning: number | null;
};

export type AdminSubmission = {
  id: string;
  person: string;
  url: string;
  platform: "youtube" | "tiktok" | "instagram";
  channelId: string | null;
  rateCents: number;
  status: "pending" | "approved" | "rejected";
  views: number;
  amountCents: number;
  reason: string | null;
  /** Why ownership is the admin's to check (decision 0301); null when the platform confirmed it. */
  ownershipReview: string | null;
  createdAt: string;
  reviewedAt: string | null;
  /** What the views provider last read, and when (decision 0266); null when never read. */
  providerViews: number | null;
  viewsCheckedAt: string | null;
  /** When an admin's views override pinned the views: the daily job leaves them (decision 0266). */
  viewsPinnedAt: string | null;
};

export type AdminCampaignDetail = AdminCampaignRow & {
  brief: string;
  requiredTrackId: string | null;
  minSubscribers: number;
  settledAt: string | null;
  endedEarlyAt: string | null;
  submissions: AdminSubmission[];
  credits: { person: string; amountCents: number; status: string; paid: boolean }[];
};

export type TrackOption = { id: string; label: string };

function warningOf(row: CampaignRow, state: CampaignState, now: Date): number | null {
  if (state !== "ended" && state !== "settled") return null;
  if (row.payableOn) return null;
  const days = daysUntil(payoutDeadline(row), now);
  return days <= DEADLINE_WARNING_DAYS ? days : null;
}

function summary(row: CampaignRow, counts: { participants: number; pending: number }, now: Date): AdminCampaignRow {
  const state = stateOf(row, now);
  return {
    id: row.id,
    slug: row.slug,
    brand: row.brand,
    title: row.title,
    state,
    rateCents: row.rateCents,
    budgetCents: row.budgetCents,
    spentCents: row.spentCents,
    startsAt: row.startsAt,
    endsAt: row.endsAt,
    effectiveEnd: effectiveEnd(row),
    participants: counts.participants,
    pending: counts.pending,
    fundsReceivedAt: row.fundsReceivedAt,
    payableOn: row.payableOn,
    deadline: payoutDeadline(row),
    deadlineWarning: warningOf(row, state, now),
  };
}

/** The published tracks an admin may require (title order, up to 100). */
async function trackOptions(actor: Actor): Promise<TrackOption[]> {
  const first = await libraryPage(actor, { ...EMPTY_LIBRARY_QUERY, sort: "title" });
  const more = await Promise.all(
    Array.from({ length: Math.min(first.pageCount, 5) - 1 }, (_, i) => libraryPage(actor, { ...EMPTY_LIBRARY_QUERY, sort: "title", page: i + 2 })),
  );
  return [first, ...more].flatMap((p) => p.tracks.map((t) => ({ id: t.id, label: `${t.title} — ${t.artist}` })));
}

/** Every campaign (newest first) with its counts and warnings, the selected one in detail, and the tracks to choose from. */
export async function adminCampaigns(actor: Actor, selectedId: string | null, now = new Date()) {
  authorize(actor, "campaign", "manage");
  const [rows, participantCounts, pendingCounts] = await db().batch([
    db().select().from(campaigns).orderBy(desc(campaigns.createdAt)).limit(200),
    db().select({ id: campaignParticipants.campaignId, n: count() }).from(campaignParticipants).groupBy(campaignParticipants.campaignId),
    db()
      .select({ id: campaignSubmissions.campaignId, n: count() })
      .from(campaignSubmissions)
      .where(eq(campaignSubmissions.status, "pending"))
      .groupBy(campaignSubmissions.campaignId),
  ]);
  const pc = new Map(participantCounts.map((r) => [r.id, r.n]));
  const pe = new Map(pendingCounts.map((r) => [r.id, r.n]));
  const list = rows.map((r) => summary(r, { participants: pc.get(r.id) ?? 0, pending: pe.get(r.id) ?? 0 }, now));
  const selectedRow = selectedId ? rows.find((r) => r.id === selectedId) : undefined;
  const [tracks, selected] = await Promise.all([trackOptions(actor), selectedRow ? detailOf(selectedRow, list, now) : Promise.resolve(null)]);
  // YouTube's state for the views job (decision 0303): a missing API key, a quota pause.
  return { campaigns: list, selected, tracks, youtube: await youtubeApiStatus() };
}

async function detailOf(row: CampaignRow, list: AdminCampaignRow[], now: Date): Promise<AdminCampaignDetail> {
  const [subs, credits] = await db().batch([
    db().select().from(campaignSubmissions).where(eq(campaignSubmissions.campaignId, row.id)).orderBy(asc(campaignSubmissions.createdAt)).limit(1000),
    creditsOfSourceQuery("campaign", row.id),
  ]);
  const people = await peopleByIds([...subs.map((s) => s.userId), ...credits.map((c) => c.userId)]);
  const name = (id: string) => people.get(id)?.fullName || people.get(id)?.email || "Unknown";
  const base = list.find((c) => c.id === row.id) ?? summary(row, { participants: 0, pending: 0 }, now);
  return {
    ...base,
    brief: row.brief,
    requiredTrackId: row.requiredTrackId,
    minSubscribers: row.minSubscribers,
    settledAt: row.settledAt,
    endedEarlyAt: row.endedAt,
    submissions: subs.map((s) => ({
      id: s.id,
      person: name(s.userId),
      url: s.url,
      platform: s.platform,
      channelId: s.channelId,
      rateCents: s.rateCents,
      status: s.status,
      views: s.views,
      amountCents: s.amountCents,
      reason: s.reason,
      ownershipReview: s.ownershipReview,
      createdAt: s.createdAt,
      reviewedAt: s.reviewedAt,
      providerViews: s.providerViews,
      viewsCheckedAt: s.viewsCheckedAt,
      viewsPinnedAt: s.viewsPinnedAt,
    })),
    credits: credits.map((c) => ({ person: name(c.userId), amountCents: c.amountCents, status: c.status, paid: c.status === "paid" })),
  };
}
