import { and, desc, eq, ne, sql } from "drizzle-orm";
import { campaignParticipants, campaignSubmissions, campaigns } from "~/db/schema";
import { conflict, invalid, notFound, rateLimited } from "~/lib/errors";
import { type Actor, authorize, can } from "~/lib/permissions";
import { listChannels, socialVideoOwnership } from "~/modules/channels/channels.server";
import { EMPTY_LIBRARY_QUERY, type LibraryTrack } from "~/modules/music/library";
import { libraryPage } from "~/modules/music/music.server";
import { batch, builtOnce, db } from "~/platform/db.server";
import { isUniqueViolation } from "~/platform/precondition.server";
import { consume, type Limit } from "~/platform/rate-limit.server";
import { CAMPAIGN_MESSAGES as M, type RaiseCause } from "./messages";
import { youtubeVideoChannel } from "./provider.server";
import { budgetLeft, campaignState, type CampaignState, type CampaignSummary, effectiveEnd, PAYOUT_WINDOW_DAYS, payoutDeadline } from "./rules";
import { campaignById, liveAt, stateOf } from "./store.server";
import { PLATFORM_LABELS, type ParsedVideo, parseVideoUrl, videoUrlProblem } from "./video-url";

// The creator's /campaigns (docs/decisions/0140, 0142): live campaigns, joining one (the terms,
// once), submitting video links to a joined live campaign, and their own submissions and ended
// campaigns with the payout date.

export type LiveCampaign = CampaignSummary & {
  endsAt: string;
  minSubscribers: number;
  track: LibraryTrack | null;
  joined: boolean;
};

export type MySubmission = {
  id: string;
  campaignTitle: string;
  url: string;
  platform: "youtube" | "tiktok" | "instagram";
  status: "pending" | "approved" | "rejected";
  views: number;
  amountCents: number;
  rateCents: number;
  reason: string | null;
  /** The last raise by freed budget, with why (decision 0245); null when none since the last review. */
  raise: { fromCents: number; at: string; cause: RaiseCause } | null;
  createdAt: string;
};

export type EndedCampaign = {
  id: string;
  brand: string;
  title: string;
  state: CampaignState;
  endedAt: string;
  amountCents: number;
  payableOn: string | null;
  deadline: string;
};

export type CampaignsPage = { live: LiveCampaign[]; submissions: MySubmission[]; ended: EndedCampaign[] };

// The page's three statements, built once per isolate (db.server builtOnce, docs/decisions/0284).
const liveCampaignsQuery = builtOnce((slot) =>
  db()
    .select()
    .from(campaigns)
    .where(liveAt(slot("now")))
    .orderBy(campaigns.endsAt)
    .limit(100),
);
const joinedCampaignsQuery = builtOnce((slot) =>
  db()
    .select({ campaign: campaigns })
    .from(campaignParticipants)
    .innerJoin(campaigns, eq(campaigns.id, campaignParticipants.campaignId))
    .where(eq(campaignParticipants.userId, slot("me")))
    .orderBy(desc(campaigns.endsAt))
    .limit(200),
);
const ownSubmissionsQuery = builtOnce((slot) =>
  db()
    .select({ s: campaignSubmissions, title: campaigns.title })
    .from(campaignSubmissions)
    .innerJoin(campaigns, eq(campaigns.id, campaignSubmissions.campaignId))
    .where(eq(campaignSubmissions.userId, slot("me")))
    .orderBy(desc(campaignSubmissions.createdAt))
    .limit(500),
);

export async function campaignsPage(actor: Actor, now = new Date()): Promise<CampaignsPage> {
  authorize(actor, "campaign", "participate");
  const t = now.toISOString();
  const [live, joined, subs] = await batch([liveCampaignsQuery({ now: t }), joinedCampaignsQuery({ me: actor.id }), ownSubmissionsQuery({ me: actor.id })]);
  const joinedIds = new Set(joined.map((j) => j.campaign.id));
  const trackIds = [...new Set(live.flatMap((c) => (c.requiredTrackId ? [c.requiredTrackId] : [])))].slice(0, 80);
  const tracks = trackIds.length ? (await libraryPage(actor, { ...EMPTY_LIBRARY_QUERY, ids: trackIds })).tracks : [];
  const byId = new Map(tracks.map((tr) => [tr.id, tr]));
  const earned = new Map<string, number>();
  for (const { s } of subs) if (s.status === "approved") earned.set(s.campaignId, (earned.get(s.campaignId) ?? 0) + s.amountCents);
  return {
    live: live.map((c) => ({
      id: c.id,
      slug: c.slug,
      brand: c.brand,
      title: c.title,
      brief: c.brief,
      rateCents: c.rateCents,
      ...budgetLeft(c),
      endsAt: c.endsAt,
      minSubscribers: c.minSubscribers,
      track: c.requiredTrackId ? (byId.get(c.requiredTrackId) ?? null) : null,
      joined: joinedIds.has(c.id),
    })),
    submissions: subs.map(({ s, title }) => ({
      id: s.id,
      campaignTitle: title,
      url: s.url,
      platform: s.platform,
      status: s.status,
      views: s.views,
      amountCents: s.amountCents,
      rateCents: s.rateCents,
      // A pending TikTok / Instagram video the admin must check by hand says why (decision 0301).
      reason: s.reason ?? (s.status === "pending" ? s.ownershipReview : null),
      raise:
        s.status === "approved" && s.raisedAt && s.raiseCause && s.raisedFromCents !== null
          ? { fromCents: s.raisedFromCents, at: s.raisedAt, cause: s.raiseCause }
          : null,
      createdAt: s.createdAt,
    })),
    ended: joined
      .map((j) => j.campaign)
      .filter((c) => {
        const st = stateOf(c, now);
        return st === "ended" || st === "settled";
      })
      .map((c) => ({
        id: c.id,
        brand: c.brand,
        title: c.title,
        state: stateOf(c, now),
        endedAt: effectiveEnd(c),
        amountCents: earned.get(c.id) ?? 0,
        payableOn: c.payableOn,
        deadline: payoutDeadline(c),
      })),
  };
}

/** A campaign's approved earnings not yet in the ledger (it is not settled): /payments' pending section (docs/decisions/0321). */
export type PendingCampaignEarning = {
  campaignId: string;
  brand: string;
  title: string;
  state: "live" | "ended";
  /** YYYY-MM-DD: the day it ends or ended. */
  endsOn: string;
  amountCents: number;
  /** YYYY-MM-DD: the latest payout day by the terms (the end + 60 days). */
  payBy: string;
  windowDays: number;
};

// The person's approved amounts per campaign that is not settled yet, built once per isolate.
const pendingEarningsQuery = builtOnce((slot) =>
  db()
    .select({
      id: campaigns.id,
      brand: campaigns.brand,
      title: campaigns.title,
      status: campaigns.status,
      startsAt: campaigns.startsAt,
      endsAt: campaigns.endsAt,
      endedAt: campaigns.endedAt,
      total: sql<number>`sum(${campaignSubmissions.amountCents})`.mapWith(Number),
    })
    .from(campaignSubmissions)
    .innerJoin(campaigns, eq(campaigns.id, campaignSubmissions.campaignId))
    .where(and(eq(campaignSubmissions.userId, slot("me")), eq(campaignSubmissions.status, "approved"), ne(campaigns.status, "settled")))
    .groupBy(campaigns.id)
    .orderBy(campaigns.endsAt),
);

/**
 * What the person has earned in campaigns that are not settled: approved views × rate, not yet in
 * their balance. Settling writes it to the ledger (estimated, then finalized with the brand's funds);
 * the terms pay it up to 60 days after the campaign ends. Empty for someone who cannot take part.
 */
export async function pendingCampaignEarnings(actor: Actor, now = new Date()): Promise<PendingCampaignEarning[]> {
  if (!can(actor, "campaign", "participate")) return [];
  const rows = await pendingEarningsQuery({ me: actor.id }).all();
  return rows
    .filter((r) => r.total > 0)
    .map((r) => ({
      campaignId: r.id,
      brand: r.brand,
      title: r.title,
      state: campaignState(r, now) === "live" ? ("live" as const) : ("ended" as const),
      endsOn: effectiveEnd(r).slice(0, 10),
      amountCents: r.total,
      payBy: payoutDeadline(r),
      windowDays: PAYOUT_WINDOW_DAYS,
    }));
}

/** Whether the person has joined this campaign (the public page shows the join form or "joined"). */
export async function hasJoinedCampaign(actor: Actor, campaignId: string): Promise<boolean> {
  const row = await db()
    .select({ at: campaignParticipants.termsAcceptedAt })
    .from(campaignParticipants)
    .where(and(eq(campaignParticipants.campaignId, campaignId), eq(campaignParticipants.userId, actor.id)))
    .get();
  return !!row;
}

/** Joins a live campaign: the terms and the 60-day payout rule are accepted once, with the time. */
export async function joinCampaign(actor: Actor, campaignId: string): Promise<{ title: string }> {
  authorize(actor, "campaign", "participate");
  const row = await campaignById(campaignId);
  if (!row || row.status === "draft") throw notFound(M.notFound);
  if (stateOf(row) !== "live") throw conflict(M.notLive);
  if (row.minSubscribers > 0) {
    const channels = await listChannels(actor);
    const best = Math.max(0, ...channels.map((c) => c.subscriberCount));
    if (best < row.minSubscribers) throw conflict(M.tooFewSubscribers(row.minSubscribers));
  }
  const t = new Date().toISOString();
  const inserted = await db()
    .insert(campaignParticipants)
    .select(sql`select ${campaignId}, ${actor.id}, ${t}, ${t} where exists (select 1 from ${campaigns} where ${campaigns.id} = ${campaignId} and ${liveAt(t)})`)
    .onConflictDoNothing()
    .returning({ userId: campaignParticipants.userId });
  if (inserted.length === 0) throw conflict((await hasJoinedCampaign(actor, campaignId)) ? M.alreadyJoined : M.notLive);
  return { title: row.title };
}

/** Video submissions per person: 60 per 15 minutes (a creator posting a day's Shorts never meets it). */
export const SUBMIT_LIMIT: Limit = { maxAttempts: 60, windowMs: 15 * 60_000 };

const isVideoClash = (error: unknown) => isUniqueViolation(error, "campaign_submissions.video_key");

/**
 * A TikTok or Instagram video must be the creator's own (decisions 0299, 0300): asked of the platform
 * with the account the creator linked on /channels (TikTok's video query returns only the owner's
 * videos; an Instagram reel must be in the account's media). Someone else's video is refused. With no
 * linked account the submission is accepted for the admin to check, with the reason (decision 0301):
 * the returned review note. The platform unreachable is "unavailable" (503): nothing is written.
 */
async function checkSocialOwnership(actor: Actor, request: Request, video: ParsedVideo & { platform: "tiktok" | "instagram" }): Promise<string | null> {
  const label = PLATFORM_LABELS[video.platform];
  const ownership = await socialVideoOwnership(request, actor.id, video.platform, video.videoId);
  if (ownership.kind === "not_linked") return M.needsReviewNotLinked(label);
  if (ownership.kind === "not_mine") {
    const message = M.socialNotYours(label, ownership.username);
    throw conflict(message, { fieldErrors: { url: message } });
  }
  return null;
}

/**
 * Submits a video link to a joined, live campaign. The link must name a video on a supported
 * platform; one submission per video (a unique index); a YouTube video must be on one of the
 * creator's linked channels (asked of the provider), a TikTok or Instagram one in the creator's linked
 * account, else held for the admin's check (decisions 0299-0301). The campaign's rate is copied onto the
 * submission by the INSERT itself, which also re-checks that the campaign is live and joined.
 */
export async function submitCampaignVideo(
  actor: Actor,
  request: Request,
  input: { campaignId: string; url: string },
): Promise<{ title: string; review: string | null }> {
  authorize(actor, "campaign", "participate");
  const video = parseVideoUrl(input.url);
  if (!video) {
    const problem = videoUrlProblem(input.url);
    throw invalid(problem, { fieldErrors: { url: problem } });
  }
  const row = await campaignById(input.campaignId);
  if (!row || row.status === "draft") throw notFound(M.notFound);
  if (stateOf(row) !== "live") throw conflict(M.notLive);
  const [joined, dup] = await db().batch([
    db()
      .select({ at: campaignParticipants.termsAcceptedAt })
      .from(campaignParticipants)
      .where(and(eq(campaignParticipants.campaignId, row.id), eq(campaignParticipants.userId, actor.id))),
    db().select({ id: campaignSubmissions.id }).from(campaignSubmissions).where(eq(campaignSubmissions.videoKey, video.key)),
  ]);
  if (joined.length === 0) throw conflict(M.notJoined);
  if (dup.length > 0) throw conflict(M.duplicateVideo, { fieldErrors: { url: M.duplicateVideo } });

  // Each submission may ask the provider: at most SUBMIT_LIMIT per person per window.
  const limit = await consume("campaign-submit", `user:${actor.id}`, SUBMIT_LIMIT);
  if (!limit.allowed) throw rateLimited(limit.retryAfterSeconds, "You have submitted many videos in a short time. Please wait before submitting more.");

  let channelId: string | null = null;
  let ownershipReview: string | null = null;
  if (video.platform === "youtube") {
    const mine = (await listChannels(actor)).map((c) => c.channelId);
    if (mine.length === 0) throw conflict(M.youtubeNotLinked, { fieldErrors: { url: M.youtubeNotLinked } });
    channelId = await youtubeVideoChannel(request, video.videoId, actor.id);
    if (!channelId) throw invalid(M.youtubeUnknown, { fieldErrors: { url: M.youtubeUnknown } });
    if (!mine.includes(channelId)) throw conflict(M.youtubeNotYours, { fieldErrors: { url: M.youtubeNotYours } });
  } else {
    ownershipReview = await checkSocialOwnership(actor, request, { ...video, platform: video.platform });
  }

  const t = new Date().toISOString();
  const id = crypto.randomUUID();
  let inserted: { id: string }[];
  try {
    inserted = await db()
      .insert(campaignSubmissions)
      .select(
        sql`select ${id}, ${campaigns.id}, ${actor.id}, ${video.url}, ${video.platform}, ${video.key}, ${channelId}, ${ownershipReview}, ${campaigns.rateCents}, 'pending', 0, 0, null, null, null, null, null, null, null, null, null, ${t}, ${t}
            from ${campaigns} where ${campaigns.id} = ${row.id} and ${liveAt(t)}
            and exists (select 1 from ${campaignParticipants} where ${campaignParticipants.campaignId} = ${row.id} and ${campaignParticipants.userId} = ${actor.id})`,
      )
      .returning({ id: campaignSubmissions.id });
  } catch (error) {
    if (isVideoClash(error)) throw conflict(M.duplicateVideo, { fieldErrors: { url: M.duplicateVideo } });
    throw error;
  }
  if (inserted.length === 0) throw conflict(M.notLive);
  return { title: row.title, review: ownershipReview ? M.submittedForReview(PLATFORM_LABELS[video.platform]) : null };
}
