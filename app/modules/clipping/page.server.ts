import { desc, eq, or, type SQL } from "drizzle-orm";
import { clipperLinks } from "~/db/schema";
import { type Actor, authorize } from "~/lib/permissions";
import { alongsideSession, peopleByIdsStatement, peopleMap, sessionUserOf } from "~/modules/accounts/accounts.server";
import { batch, builtOnce, db } from "~/platform/db.server";
import { type ClipItem, clipsNeedingViews, clipsOfQuery } from "./clips.server";
import type { InvitationLookup } from "./invitation-codes.server";
import { invitationPeople, invitationRowsQuery, invitationViews, waitingRowsQuery, waitingViews } from "./invitation-lists.server";
import { pendingInvite } from "./invite-cookie.server";
import { splitHistoryStatement } from "./links.server";
import { SOURCE_QUOTA_BYTES } from "./messages";
import { folderUsageOf, sourcesFrom, sourcesStatement } from "./sources.server";
import type { ClippingPage, ClipRow, LinkRow, SourceRow, SplitRow } from "./types";

// What /clipping shows: the creator's side (invitations, clippers, folder, clips to review, split
// requests) and the clipper's side (creators, their folders, own clips, splits) for the same person.

type LinkItem = typeof clipperLinks.$inferSelect;
type WaitingRow = { id: string; creatorUserId: string; acceptedAt: string | null };

function clipRow(c: ClipItem, names: Map<string, string>, linkIds: Map<string, string>): ClipRow {
  return {
    id: c.id,
    platform: c.platform,
    url: c.url,
    status: c.status,
    views: c.views,
    videoNotFound: c.videoNotFoundAt !== null,
    sourceName: c.sourceName,
    createdAt: c.createdAt,
    creatorUserId: c.creatorUserId,
    clipperUserId: c.clipperUserId,
    linkId: linkIds.get(`${c.creatorUserId}:${c.clipperUserId}`) ?? null,
    creatorName: names.get(c.creatorUserId) ?? "",
    clipperName: names.get(c.clipperUserId) ?? "",
  };
}

type Me = SQL<string | null>;

/** The links where `me` is the creator or the clipper, newest first. */
const linksOf = (me: Me) =>
  db()
    .select()
    .from(clipperLinks)
    .where(or(eq(clipperLinks.creatorUserId, me), eq(clipperLinks.clipperUserId, me)))
    .orderBy(desc(clipperLinks.createdAt));

// The page's own rows, each built once per isolate over the session's user (db.server builtOnce,
// docs/decisions/0285), to ride in the session lookup's batch.
const linksOfSession = builtOnce((slot) => linksOf(sessionUserOf(slot)));
const clipsOfSession = builtOnce((slot) => clipsOfQuery(sessionUserOf(slot)));
const folderUsageOfSession = builtOnce((slot) => folderUsageOf(sessionUserOf(slot)));
const invitationRowsOfSession = builtOnce((slot) => invitationRowsQuery(sessionUserOf(slot)));
const waitingRowsOfSession = builtOnce((slot) => waitingRowsQuery(sessionUserOf(slot)));

type Args = Parameters<typeof alongsideSession>[0];

/**
 * Starts reading /clipping's own rows (links, clips, folder usage, invitations, waiting requests)
 * in the session lookup's batch (docs/decisions/0083): call it before the guard, and hand the
 * guard's actor to the function it returns. The rows are the session's user's own; only then are
 * they used. Then one round trip for the people they name, the folders and the split history.
 */
export function startClippingPage(args: Args): (actor: Actor) => Promise<ClippingPage> {
  const rows = Promise.all([
    alongsideSession(args, linksOfSession),
    alongsideSession(args, clipsOfSession),
    alongsideSession(args, folderUsageOfSession),
    alongsideSession(args, invitationRowsOfSession),
    alongsideSession(args, waitingRowsOfSession),
  ]);
  // The guard is awaited before the rows: a failure here must not surface as an unhandled rejection.
  rows.catch(() => undefined);
  return (actor) => clippingPage(actor, args.request, rows);
}

async function clippingPage(
  actor: Actor,
  request: Request,
  ownRows: Promise<[LinkItem[], ClipItem[], { used: number }[], InvitationLookup[], WaitingRow[]]>,
): Promise<ClippingPage> {
  authorize(actor, "clipping", "use");
  const [[links, clipList, usageRows, invitationRows, waitingRows], invite, needingViews] = await Promise.all([
    ownRows,
    pendingInvite(actor, request),
    actor.isAdmin ? clipsNeedingViews() : Promise.resolve([]),
  ]);
  const usage = usageRows[0]?.used ?? 0;
  const mine = links.filter((l) => l.creatorUserId === actor.id);
  const theirs = links.filter((l) => l.clipperUserId === actor.id);
  const activeCreators = theirs.filter((l) => l.status === "active").map((l) => l.creatorUserId);
  const [personRows, sourceRows, history] = await batch([
    peopleByIdsStatement([
      actor.id,
      ...links.flatMap((l) => [l.creatorUserId, l.clipperUserId]),
      ...[...clipList, ...needingViews].flatMap((c) => [c.creatorUserId, c.clipperUserId]),
      ...invitationPeople(invitationRows),
      ...waitingRows.map((r) => r.creatorUserId),
    ]),
    sourcesStatement([actor.id, ...activeCreators]),
    splitHistoryStatement(links.map((l) => l.id)),
  ]);
  const people = peopleMap(personRows);
  const folders = sourcesFrom(sourceRows, actor.id);
  const invitations = invitationViews(invitationRows, people);
  const waitingRequests = waitingViews(waitingRows, people);
  const names = new Map([...people.entries()].map(([id, p]) => [id, p.fullName || p.email]));

  const splitRows = (linkId: string): SplitRow[] =>
    history
      .filter((h) => h.linkId === linkId)
      .map((h) => ({ id: h.id, fromBps: h.fromBps, shareBps: h.shareBps, status: h.status, createdAt: h.createdAt, decidedAt: h.decidedAt }));
  const linkRow = (l: (typeof links)[number], otherId: string): LinkRow => {
    const own = clipList.filter((c) => c.creatorUserId === l.creatorUserId && c.clipperUserId === l.clipperUserId);
    return {
      id: l.id,
      personId: otherId,
      personName: names.get(otherId) ?? "",
      status: l.status,
      shareBps: l.clipperShareBps,
      createdAt: l.createdAt,
      revokedAt: l.revokedAt,
      clipCount: own.length,
      views: own.reduce((s, c) => s + c.views, 0),
      splits: splitRows(l.id),
    };
  };
  const sourceList = (id: string): SourceRow[] => folders.get(id) ?? [];
  const linkIds = new Map(links.map((l) => [`${l.creatorUserId}:${l.clipperUserId}`, l.id]));
  return {
    invitations,
    waitingRequests,
    pendingInvite: invite,
    clippers: mine.map((l) => linkRow(l, l.clipperUserId)),
    creators: theirs.map((l) => ({ ...linkRow(l, l.creatorUserId), sources: l.status === "active" ? sourceList(l.creatorUserId) : [] })),
    sources: sourceList(actor.id),
    usage: { usedBytes: usage, quotaBytes: SOURCE_QUOTA_BYTES },
    clipsToReview: clipList.filter((c) => c.creatorUserId === actor.id).map((c) => clipRow(c, names, linkIds)),
    myClips: clipList.filter((c) => c.clipperUserId === actor.id).map((c) => clipRow(c, names, linkIds)),
    viewsToEnter: needingViews.map((c) => clipRow(c, names, linkIds)),
  };
}
