import { and, desc, eq, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { clipperLinks, clipSplitRequests } from "~/db/schema";
import { conflict, invalid, notFound } from "~/lib/errors";
import { type Actor, authorize } from "~/lib/permissions";
import { notifyUser } from "~/modules/notifications/notifications.server";
import { formatBp } from "~/lib/split";
import { auditQuery } from "~/platform/audit.server";
import { builtOnce, db, inJsonList } from "~/platform/db.server";
import { isPreconditionFailure, precondition, previousStatementChanged } from "~/platform/precondition.server";
import { personName } from "./names.server";
import { CLIPPING_MESSAGES as M } from "./messages";
import type { SplitChange } from "./split-days";

// Clipper links: who may use a creator's folder, revocation, and the split requests
// (docs/decisions/0150-0152). A link is made only when the creator approves a clipper who accepted
// one of their invitations (invitations.server.ts, docs/decisions/0205).

/** "This user clips for at least one creator", for a WHERE over another table's user id column. */
export function isActiveClipper(userId: SQLiteColumn | SQL): SQL {
  return sql`exists (select 1 from ${clipperLinks} where ${and(eq(clipperLinks.clipperUserId, userId), eq(clipperLinks.status, "active"))})`;
}

export function linkBetween(creatorUserId: string, clipperUserId: string) {
  return db()
    .select()
    .from(clipperLinks)
    .where(and(eq(clipperLinks.creatorUserId, creatorUserId), eq(clipperLinks.clipperUserId, clipperUserId)))
    .get();
}

/**
 * Whether `userId` may use `creatorUserId`'s folder now ("yes": the creator, or a clipper with an
 * active link), and why not: "revoked" for a clipper whose access the creator revoked, else "none".
 */
export async function folderAccess(creatorUserId: string, userId: string): Promise<"yes" | "revoked" | "none"> {
  if (creatorUserId === userId) return "yes";
  const link = await linkBetween(creatorUserId, userId);
  return link?.status === "active" ? "yes" : link?.status === "revoked" ? "revoked" : "none";
}

// ---------------------------------------------------------------------------------------------
// Revoke
// ---------------------------------------------------------------------------------------------

export async function revokeClipper(actor: Actor, request: Request, linkId: string): Promise<void> {
  authorize(actor, "clipping", "use");
  const link = await db().select().from(clipperLinks).where(eq(clipperLinks.id, linkId)).get();
  authorize(actor, "clipping", "manageOwn", { ownerId: link?.creatorUserId ?? null });
  if (!link) throw notFound(M.notLinked);
  try {
    await db().batch([
      db()
        .update(clipperLinks)
        .set({ status: "revoked", revokedAt: new Date().toISOString() })
        .where(and(eq(clipperLinks.id, linkId), eq(clipperLinks.status, "active"))),
      precondition(previousStatementChanged()),
      // An open split request ends with the access.
      db()
        .update(clipSplitRequests)
        .set({ status: "declined", decidedAt: new Date().toISOString(), decidedBy: actor.id })
        .where(and(eq(clipSplitRequests.linkId, linkId), eq(clipSplitRequests.status, "pending"))),
      auditQuery({
        eventType: "clipper_access_revoked",
        severity: "medium",
        userId: actor.id,
        targetUserId: link.clipperUserId,
        request,
        details: { link_id: linkId },
      }),
    ]);
  } catch (error) {
    if (isPreconditionFailure(error)) throw conflict(M.alreadyRevoked);
    throw error;
  }
  await notifyUser(link.clipperUserId, {
    title: "Clipping access revoked",
    content: `${await personName(actor.id, "A creator")} revoked your access to their source folder. Stop using their videos and remove clips if they ask.`,
    kind: "clipping",
  });
}

// ---------------------------------------------------------------------------------------------
// Splits
// ---------------------------------------------------------------------------------------------

export async function requestSplit(actor: Actor, request: Request, input: { linkId: string; sharePercent: number }): Promise<void> {
  authorize(actor, "clipping", "use");
  const bps = input.sharePercent;
  if (!Number.isInteger(bps) || bps < 0 || bps > 10_000) throw invalid(M.shareRange, { fieldErrors: { sharePercent: M.shareRange } });
  const link = await db().select().from(clipperLinks).where(eq(clipperLinks.id, input.linkId)).get();
  if (!link || link.clipperUserId !== actor.id) throw notFound(M.notYourCreator);
  if (link.status !== "active") throw conflict(M.revoked);
  if (bps <= link.clipperShareBps) {
    const message = M.shareNotHigher(formatBp(link.clipperShareBps));
    throw invalid(message, { fieldErrors: { sharePercent: message } });
  }
  const id = crypto.randomUUID();
  const [inserted] = await db().batch([
    db()
      .insert(clipSplitRequests)
      .values({ id, linkId: link.id, fromBps: link.clipperShareBps, shareBps: bps })
      .onConflictDoNothing()
      .returning({ id: clipSplitRequests.id }),
    auditQuery({
      eventType: "clip_split_requested",
      userId: actor.id,
      targetUserId: link.creatorUserId,
      request,
      details: { link_id: link.id, share_bps: bps },
    }),
  ]);
  if (inserted.length === 0) throw conflict(M.requestOpen);
  await notifyUser(link.creatorUserId, {
    title: "Split request",
    content: `${await personName(actor.id, "A clipper")} asks for ${formatBp(bps)} of clip revenue (now ${formatBp(link.clipperShareBps)}). Approve or decline it on Clipping.`,
    kind: "clipping",
  });
}

/** The creator approves or declines; an approval is the split from this moment on (one winner of two answers). */
export async function answerSplit(actor: Actor, request: Request, input: { requestId: string; decision: "approve" | "decline" }): Promise<void> {
  authorize(actor, "clipping", "use");
  const row = await db()
    .select({ req: clipSplitRequests, link: clipperLinks })
    .from(clipSplitRequests)
    .innerJoin(clipperLinks, eq(clipperLinks.id, clipSplitRequests.linkId))
    .where(eq(clipSplitRequests.id, input.requestId))
    .get();
  authorize(actor, "clipping", "manageOwn", { ownerId: row?.link.creatorUserId ?? null });
  if (!row) throw notFound(M.requestGone);
  const approve = input.decision === "approve";
  const now = new Date().toISOString();
  try {
    await db().batch([
      db()
        .update(clipSplitRequests)
        .set({ status: approve ? "approved" : "declined", decidedAt: now, decidedBy: actor.id })
        .where(and(eq(clipSplitRequests.id, row.req.id), eq(clipSplitRequests.status, "pending"))),
      precondition(previousStatementChanged()),
      ...(approve
        ? [
            db()
              .update(clipperLinks)
              .set({ clipperShareBps: row.req.shareBps })
              .where(and(eq(clipperLinks.id, row.link.id), eq(clipperLinks.status, "active"))),
            precondition(previousStatementChanged()),
          ]
        : []),
      auditQuery({
        eventType: approve ? "clip_split_approved" : "clip_split_declined",
        severity: approve ? "medium" : "low",
        userId: actor.id,
        targetUserId: row.link.clipperUserId,
        request,
        details: { request_id: row.req.id, link_id: row.link.id, from_bps: row.req.fromBps, share_bps: row.req.shareBps, effective_at: approve ? now : null },
      }),
    ]);
  } catch (error) {
    if (isPreconditionFailure(error)) throw conflict(M.requestGone);
    throw error;
  }
  await notifyUser(row.link.clipperUserId, {
    title: approve ? "Split approved" : "Split declined",
    content: approve
      ? `${await personName(actor.id, "The creator")} approved: your share of clip revenue is ${formatBp(row.req.shareBps)} from ${now.slice(0, 16).replace("T", " ")} UTC on.`
      : `${await personName(actor.id, "The creator")} declined your request for ${formatBp(row.req.shareBps)}; the split stays ${formatBp(row.req.fromBps)}.`,
    kind: "clipping",
  });
}

/** The approved split changes of these links, oldest first, as one statement (to run alone or in a batch; `splitChangesFrom` reads its rows). */
export function splitChangesQuery(linkIds: readonly string[]) {
  return splitChangesStatement({ linkIds: JSON.stringify(linkIds) });
}

const splitChangesStatement = builtOnce((slot) =>
  db()
    .select({ linkId: clipSplitRequests.linkId, at: clipSplitRequests.decidedAt, bps: clipSplitRequests.shareBps })
    .from(clipSplitRequests)
    .where(and(inJsonList(clipSplitRequests.linkId, slot("linkIds")), eq(clipSplitRequests.status, "approved")))
    .orderBy(clipSplitRequests.decidedAt),
);

/** The ids of the links where `me` is the creator or the clipper (an SQL subquery's select, for another statement's `in (…)`). */
export const linkIdsOf = (me: SQL<string | null>): SQL =>
  sql`select ${clipperLinks.id} from ${clipperLinks} where ${clipperLinks.creatorUserId} = ${me} or ${clipperLinks.clipperUserId} = ${me}`;

/** The other side of every link where `me` is the creator or the clipper (an SQL subquery's select). */
export const linkPeopleOf = (me: SQL<string | null>): SQL =>
  sql`select case when ${clipperLinks.creatorUserId} = ${me} then ${clipperLinks.clipperUserId} else ${clipperLinks.creatorUserId} end from ${clipperLinks} where ${clipperLinks.creatorUserId} = ${me} or ${clipperLinks.clipperUserId} = ${me}`;

/** The creators `me` clips for now (active links), an SQL subquery's select. */
export const activeCreatorsOf = (me: SQL<string | null>): SQL =>
  sql`select ${clipperLinks.creatorUserId} from ${clipperLinks} where ${clipperLinks.clipperUserId} = ${me} and ${clipperLinks.status} = 'active'`;

/** splitChangesQuery's select for the links of an SQL subquery (e.g. linkIdsOf over the session's user), to build once. */
export function splitChangesAmong(linkIds: SQL) {
  return db()
    .select({ linkId: clipSplitRequests.linkId, at: clipSplitRequests.decidedAt, bps: clipSplitRequests.shareBps })
    .from(clipSplitRequests)
    .where(and(sql`${clipSplitRequests.linkId} in (${linkIds})`, eq(clipSplitRequests.status, "approved")))
    .orderBy(clipSplitRequests.decidedAt);
}

/** splitHistoryStatement's select for the links of an SQL subquery, to build once. */
export function splitHistoryAmong(linkIds: SQL) {
  return db().select().from(clipSplitRequests).where(sql`${clipSplitRequests.linkId} in (${linkIds})`).orderBy(desc(clipSplitRequests.createdAt)).limit(200);
}

/** Approved split changes per link (the moment of confirmation and the new share), oldest first, from splitChangesQuery's rows. */
export function splitChangesFrom(rows: readonly { linkId: string; at: string | null; bps: number }[]): Map<string, SplitChange[]> {
  const out = new Map<string, SplitChange[]>();
  for (const r of rows) {
    if (!r.at) continue;
    const list = out.get(r.linkId) ?? [];
    list.push({ at: r.at, bps: r.bps });
    out.set(r.linkId, list);
  }
  return out;
}

/** Approved split changes per link (the moment of confirmation and the new share), oldest first. */
export async function splitChangesByLink(linkIds: readonly string[]): Promise<Map<string, SplitChange[]>> {
  if (linkIds.length === 0) return new Map();
  return splitChangesFrom(await splitChangesQuery(linkIds).all());
}

/** Every split request of these links, newest first (the history the page shows), as one statement for the page's batch. */
export function splitHistoryStatement(linkIds: readonly string[]) {
  return splitHistoryQuery({ linkIds: JSON.stringify([...new Set(linkIds)]) });
}

const splitHistoryQuery = builtOnce((slot) =>
  db()
    .select()
    .from(clipSplitRequests)
    .where(inJsonList(clipSplitRequests.linkId, slot("linkIds")))
    .orderBy(desc(clipSplitRequests.createdAt))
    .limit(200),
);
