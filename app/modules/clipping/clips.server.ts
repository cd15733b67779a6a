import { expectAt } from "~/lib/arrays";
import { and, asc, desc, eq, inArray, isNotNull, isNull, or, type SQL, sql } from "drizzle-orm";
import { clipperLinks, clips } from "~/db/schema";
import { conflict, invalid, notFound } from "~/lib/errors";
import { type Actor, authorize } from "~/lib/permissions";
import { VIEWS_PROVIDERS, type ViewsPlatform, youtubeViewsMany } from "~/modules/channels/channels.server";
import { notifyUser } from "~/modules/notifications/notifications.server";
import { auditQuery } from "~/platform/audit.server";
import { builtOnce, db, inJsonList } from "~/platform/db.server";
import { jobRequest } from "~/platform/env.server";
import { isPreconditionFailure, precondition, previousStatementChanged } from "~/platform/precondition.server";
import { CLIP_PLATFORM_LABELS, type ClipPlatform, CLIPPING_MESSAGES as M } from "./messages";
import { personName } from "./names.server";
import { readySource } from "./sources.server";
import { parseClipUrl, platformOfUrl } from "./urls";

// Clips: the clipper submits (platform, URL, source video); the creator approves or rejects and
// may later ask for removal (the clipper is told, per the agreement); the clipper marks it removed.
// Views: the views provider's (daily, every platform), or an admin's for TikTok / Instagram Reels (pinned). Clips stay after revocation.

export async function submitClip(
  actor: Actor,
  request: Request,
  input: { linkId: string; platform: ClipPlatform; url: string; sourceId: string },
): Promise<string> {
  authorize(actor, "clipping", "use");
  const link = await db().select().from(clipperLinks).where(eq(clipperLinks.id, input.linkId)).get();
  if (!link || link.clipperUserId !== actor.id) throw notFound(M.notYourCreator);
  if (link.status !== "active") throw conflict(M.revoked, { title: "Clip not submitted" });
  const host = platformOfUrl(input.url);
  if (!host) throw invalid(M.unsupportedPlatform, { fieldErrors: { url: M.unsupportedPlatform } });
  const parsed = parseClipUrl(input.url, input.platform);
  if (!parsed) {
    const message = M.urlNotPlatform(CLIP_PLATFORM_LABELS[input.platform]);
    throw invalid(message, { fieldErrors: { url: message } });
  }
  const source = await readySource(link.creatorUserId, input.sourceId);
  if (!source) throw invalid(M.sourceRequired, { fieldErrors: { sourceId: M.sourceRequired } });
  // A YouTube Short is looked up at once: one YouTube does not know is flagged to the creator (issue
  // 31 §3); YouTube unreachable leaves it unchecked until the creator approves it.
  const video = parsed.platform === "youtube_shorts" ? await lookUpVideo(request, parsed.videoId) : null;
  const now = new Date().toISOString();
  const id = crypto.randomUUID();
  const [inserted] = await db().batch([
    db()
      .insert(clips)
      .values({
        id,
        creatorUserId: link.creatorUserId,
        clipperUserId: actor.id,
        sourceId: source.id,
        sourceName: source.name,
        platform: parsed.platform,
        url: parsed.url,
        videoId: parsed.videoId,
        ...(video?.kind === "found" ? { views: video.views, viewsUpdatedAt: now } : {}),
        videoNotFoundAt: video?.kind === "not_found" ? now : null,
      })
      .onConflictDoNothing()
      .returning({ id: clips.id }),
    auditQuery({
      eventType: "clip_submitted",
      userId: actor.id,
      targetUserId: link.creatorUserId,
      request,
      details: { platform: parsed.platform, video_id: parsed.videoId },
    }),
  ]);
  if (inserted.length === 0) throw conflict(M.duplicateClip, { fieldErrors: { url: M.duplicateClip } });
  await notifyUser(link.creatorUserId, {
    title: "New clip to review",
    content: `${await personName(actor.id, "A clipper")} submitted a clip (${CLIP_PLATFORM_LABELS[parsed.platform]}): ${parsed.url}${video?.kind === "not_found" ? `. ${M.videoNotFoundNote}` : ""}`,
    kind: "clipping",
  });
  return id;
}

async function clipRow(clipId: string) {
  return db().select().from(clips).where(eq(clips.id, clipId)).get();
}

/** One guarded status change; the loser of two learns it was already done. */
async function transition(
  actor: Actor,
  request: Request,
  clip: typeof clips.$inferSelect,
  from: (typeof clip.status)[],
  set: Partial<typeof clips.$inferInsert>,
  event: string,
  severity: "low" | "medium",
  alreadyMessage: string,
): Promise<void> {
  try {
    await db().batch([
      db()
        .update(clips)
        .set(set)
        .where(and(eq(clips.id, clip.id), inArray(clips.status, from))),
      precondition(previousStatementChanged()),
      auditQuery({
        eventType: event,
        severity,
        userId: actor.id,
        targetUserId: actor.id === clip.creatorUserId ? clip.clipperUserId : clip.creatorUserId,
        request,
        details: { clip_id: clip.id },
      }),
    ]);
  } catch (error) {
    if (isPreconditionFailure(error)) throw conflict(alreadyMessage);
    throw error;
  }
}

export async function reviewClip(actor: Actor, request: Request, input: { clipId: string; decision: "approve" | "reject" }): Promise<void> {
  authorize(actor, "clipping", "use");
  const clip = await clipRow(input.clipId);
  authorize(actor, "clipping", "manageOwn", { ownerId: clip?.creatorUserId ?? null });
  if (!clip) throw notFound(M.clipNotFound);
  if (clip.status !== "pending") throw conflict(M.alreadyReviewed);
  const now = new Date().toISOString();
  const approve = input.decision === "approve";
  // A YouTube Short's views are read from the provider as it is approved (then by the daily job).
  // One YouTube does not know is not approved with 0 views: it stays pending, flagged (issue 31 §3).
  let views: Partial<typeof clips.$inferInsert> = {};
  if (approve && clip.platform === "youtube_shorts") {
    const video = await lookUpVideo(request, clip.videoId);
    if (video.kind === "not_found") {
      await db().update(clips).set({ videoNotFoundAt: now }).where(eq(clips.id, clip.id));
      throw conflict(M.videoNotFound, { title: "Clip not approved" });
    }
    if (video.kind === "unavailable" && clip.videoNotFoundAt) throw conflict(M.videoUncheckable, { title: "Clip not approved" });
    if (video.kind === "found") views = { views: video.views, viewsUpdatedAt: now, videoNotFoundAt: null };
  }
  await transition(
    actor,
    request,
    clip,
    ["pending"],
    approve ? { status: "approved", approvedAt: now, reviewedAt: now, ...views } : { status: "rejected", reviewedAt: now },
    approve ? "clip_approved" : "clip_rejected",
    "low",
    M.alreadyReviewed,
  );
  await notifyUser(clip.clipperUserId, {
    title: approve ? "Clip approved" : "Clip rejected",
    content: `${await personName(actor.id, "The creator")} ${approve ? "approved" : "rejected"} your clip ${clip.url}.`,
    kind: "clipping",
  });
}

export async function requestRemoval(actor: Actor, request: Request, clipId: string): Promise<void> {
  authorize(actor, "clipping", "use");
  const clip = await clipRow(clipId);
  authorize(actor, "clipping", "manageOwn", { ownerId: clip?.creatorUserId ?? null });
  if (!clip) throw notFound(M.clipNotFound);
  if (clip.status !== "approved") throw conflict(M.notApproved);
  await transition(
    actor,
    request,
    clip,
    ["approved"],
    { status: "removal_requested", removalRequestedAt: new Date().toISOString() },
    "clip_removal_requested",
    "medium",
    M.notApproved,
  );
  await notifyUser(clip.clipperUserId, {
    title: "Clip removal requested",
    content: `${await personName(actor.id, "The creator")} asks you to remove your clip ${clip.url}, as the Clipper Agreement provides. Mark it removed once it is down.`,
    kind: "clipping",
  });
}

export async function markRemoved(actor: Actor, request: Request, clipId: string): Promise<void> {
  authorize(actor, "clipping", "use");
  const clip = await clipRow(clipId);
  if (!clip || clip.clipperUserId !== actor.id) throw notFound(M.clipNotFound);
  await transition(actor, request, clip, ["removal_requested"], { status: "removed" }, "clip_removed", "low", M.clipNotFound);
  await notifyUser(clip.creatorUserId, {
    title: "Clip removed",
    content: `${await personName(actor.id, "The clipper")} removed the clip ${clip.url}.`,
    kind: "clipping",
  });
}

/**
 * An admin enters the views of a TikTok or Instagram Reels clip (YouTube's come from the provider):
 * the override pins them, so the daily views job leaves them (decision 0266); audited old → new.
 */
export async function setClipViews(actor: Actor, request: Request, input: { clipId: string; views: number }): Promise<void> {
  authorize(actor, "clipping", "setViews");
  const clip = await clipRow(input.clipId);
  if (!clip) throw notFound(M.clipNotFound);
  const at = new Date().toISOString();
  await db().batch([
    db().update(clips).set({ views: input.views, viewsUpdatedAt: at, viewsPinnedAt: at }).where(eq(clips.id, clip.id)),
    auditQuery({
      eventType: "clip_views_set",
      userId: actor.id,
      request,
      details: { clip_id: clip.id, views_before: clip.views, views: input.views, pinned: true },
    }),
  ]);
}

export type ClipItem = typeof clips.$inferSelect;

/**
 * Clips where `me` is the creator or the clipper, newest first: /clipping builds it once per isolate
 * over the session's user and reads it in the session lookup's batch (page.server.ts).
 */
export function clipsOfQuery(me: string | SQL<string | null>) {
  return db()
    .select()
    .from(clips)
    .where(or(eq(clips.creatorUserId, me), eq(clips.clipperUserId, me)))
    .orderBy(desc(clips.createdAt))
    .limit(500);
}

/** The ids of every clip where `me` is the creator or the clipper (an SQL subquery's select, for another statement's `in (…)`). */
export const clipIdsOf = (me: SQL<string | null>): SQL =>
  sql`select ${clips.id} from ${clips} where ${clips.creatorUserId} = ${me} or ${clips.clipperUserId} = ${me}`;

/** The creators of every clip where `me` is the creator or the clipper (an SQL subquery's select). */
export const clipCreatorsOf = (me: SQL<string | null>): SQL =>
  sql`select ${clips.creatorUserId} from ${clips} where ${clips.creatorUserId} = ${me} or ${clips.clipperUserId} = ${me}`;

/** The other side of every clip where `me` is the creator or the clipper (an SQL subquery's select). */
export const clipPeopleOf = (me: SQL<string | null>): SQL =>
  sql`select case when ${clips.creatorUserId} = ${me} then ${clips.clipperUserId} else ${clips.creatorUserId} end from ${clips} where ${clips.creatorUserId} = ${me} or ${clips.clipperUserId} = ${me}`;

/** For the admin: clips whose views are entered by hand (not YouTube), approved at some point. */
export function clipsNeedingViews(): Promise<ClipItem[]> {
  return db()
    .select()
    .from(clips)
    .where(and(inArray(clips.platform, ["tiktok", "instagram_reels"]), isNotNull(clips.approvedAt)))
    .orderBy(desc(clips.createdAt))
    .limit(100);
}

/**
 * The clips the revenue import names by video id (any platform), with their link: only clips the
 * creator approved at some point share revenue (docs/decisions/0150).
 */
export async function clipsByVideoIds(videoIds: readonly string[]) {
  const ids = [...new Set(videoIds)].filter(Boolean);
  if (ids.length === 0) return [];
  const out: { clipId: string; videoId: string; url: string; creatorUserId: string; clipperUserId: string; linkId: string | null }[] = [];
  for (let i = 0; i < ids.length; i += 90) {
    const rows = await db()
      .select({
        clipId: clips.id,
        videoId: clips.videoId,
        url: clips.url,
        creatorUserId: clips.creatorUserId,
        clipperUserId: clips.clipperUserId,
        linkId: clipperLinks.id,
      })
      .from(clips)
      .leftJoin(clipperLinks, and(eq(clipperLinks.creatorUserId, clips.creatorUserId), eq(clipperLinks.clipperUserId, clips.clipperUserId)))
      .where(and(inArray(clips.videoId, ids.slice(i, i + 90)), isNotNull(clips.approvedAt)));
    out.push(...rows);
  }
  return out;
}

/** Clips by id (the payments statement names a clip line's clip and both sides): url, video and the two people. */
const clipsByIdsQuery = builtOnce((slot) =>
  db()
    .select({ clipId: clips.id, url: clips.url, videoId: clips.videoId, creatorUserId: clips.creatorUserId, clipperUserId: clips.clipperUserId })
    .from(clips)
    .where(inJsonList(clips.id, slot("ids"))),
);

export async function clipsByIds(ids: readonly string[]): Promise<Map<string, { url: string; videoId: string; creatorUserId: string; clipperUserId: string }>> {
  const unique = [...new Set(ids)].filter(Boolean);
  if (unique.length === 0) return new Map();
  const rows = await clipsByIdsQuery({ ids: JSON.stringify(unique) }).all();
  return new Map(rows.map((r) => [r.clipId, r]));
}

// Clip views (docs/decisions/0154, 0266): read through the channels module's views provider (one
// function per platform; the stand-ins locally) when the creator approves a YouTube Short and by the
// daily job for every platform. A TikTok or Instagram Reels clip whose views an admin entered is
// pinned: the job leaves it. A failure of the provider (or a video it no longer has) keeps the last
// views: nothing is written for that clip (a YouTube video YouTube no longer has is flagged).

/** Clips the job refreshes per run, least recently refreshed first. */
export const CLIP_VIEWS_MAX = 400;
const CLIP_VIEWS_PARALLEL = 10;

type ViewsTarget = Pick<ClipItem, "id" | "videoId" | "platform" | "clipperUserId">;

const VIEWS_PLATFORM: Record<ClipPlatform, ViewsPlatform> = { youtube_shorts: "youtube", tiktok: "tiktok", instagram_reels: "instagram" };

/** What YouTube says of a video: its views, that it has no such video, or nothing (unreachable): the views provider's. */
const lookUpVideo = (request: Request, videoId: string) => VIEWS_PROVIDERS.youtube(request, videoId);

async function refreshViews(request: Request, targets: readonly ViewsTarget[]): Promise<{ updated: number; failed: number }> {
  let updated = 0;
  let failed = 0;
  // YouTube Shorts first, all at once: 50 ids per videos.list call with the API key (a clip is the
  // clipper's upload, not a linked channel's: decision 0303).
  const youtube = await youtubeViewsMany(
    request,
    targets.filter((c) => c.platform === "youtube_shorts").map((c) => ({ videoId: c.videoId, ownerUserId: null })),
  );
  for (let i = 0; i < targets.length; i += CLIP_VIEWS_PARALLEL) {
    const batch = targets.slice(i, i + CLIP_VIEWS_PARALLEL);
    const results = await Promise.all(
      batch.map((c) =>
        c.platform === "youtube_shorts"
          ? (youtube.get(c.videoId) ?? { kind: "unavailable" as const })
          : VIEWS_PROVIDERS[VIEWS_PLATFORM[c.platform]](request, c.videoId, c.clipperUserId),
      ),
    );
    const now = new Date().toISOString();
    const writes = results.flatMap((r, j) => {
      const clip = expectAt(batch, j, "view readings per clip");
      if (r.kind !== "found") {
        failed++;
        // A video YouTube no longer has keeps its last views, flagged to both sides.
        return r.kind === "not_found" && clip.platform === "youtube_shorts"
          ? [db().update(clips).set({ videoNotFoundAt: now }).where(eq(clips.id, clip.id))]
          : [];
      }
      updated++;
      // The pin is in the statement: an admin's entry made meanwhile is never overwritten.
      return [
        db()
          .update(clips)
          .set({ views: Math.min(r.views, Number.MAX_SAFE_INTEGER), viewsUpdatedAt: now, videoNotFoundAt: null })
          .where(and(eq(clips.id, clip.id), isNull(clips.viewsPinnedAt))),
      ];
    });
    if (writes.length > 0) await db().batch(writes as [(typeof writes)[number], ...typeof writes]);
  }
  return { updated, failed };
}

/** The daily job: the views of approved clips (approved, or asked to be removed but still up) on every platform, unless an admin pinned them. */
export async function refreshClipViews(opts: { limit?: number } = {}): Promise<{ total: number; updated: number; failed: number }> {
  const targets = await db()
    // The clipper posted it: TikTok / Instagram views are read with the clipper's linked account (0299, 0300).
    .select({ id: clips.id, videoId: clips.videoId, platform: clips.platform, clipperUserId: clips.clipperUserId })
    .from(clips)
    .where(and(inArray(clips.status, ["approved", "removal_requested"]), isNull(clips.viewsPinnedAt)))
    .orderBy(asc(sql`coalesce(${clips.viewsUpdatedAt}, '')`), asc(clips.id))
    .limit(opts.limit ?? CLIP_VIEWS_MAX);
  const { updated, failed } = await refreshViews(jobRequest("/__cron/clip-views"), targets);
  return { total: targets.length, updated, failed };
}
