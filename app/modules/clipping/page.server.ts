import { desc, eq, or, type SQL, sql } from "drizzle-orm";
import { clipperInvitations, clipperLinks } from "~/db/schema";
import { type Actor, authorize } from "~/lib/permissions";
import { alongsideSession, peopleByIds, peopleMap, peopleWhereIdIn, sessionUserOf } from "~/modules/accounts/accounts.server";
import { builtOnce, db } from "~/platform/db.server";
import { type ClipItem, clipPeopleOf, clipsNeedingViews, clipsOfQuery } from "./clips.server";
import { invitationRowsQuery, invitationViews, waitingRowsQuery, waitingViews } from "./invitation-lists.server";
import { pendingInvite } from "./invite-cookie.server";
import { activeCreatorsOf, linkIdsOf, linkPeopleOf, splitHistoryAmong } from "./links.server";
import { SOURCE_QUOTA_BYTES } from "./messages";
import { folderUsageOf, sourcesAmong, sourcesFrom } from "./sources.server";
import type { ClippingPage, ClipRow, LinkRow, SourceRow, SplitRow } from "./types";

// What /clipping shows: the creator's side (invitations, clippers, folder, clips to review, split
// requests) and the clipper's side (creators, their folders, own clips, splits) for the same person.

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

/**
 * Everyone the page's rows can name, as subqueries over the session's user: the user, the other side
 * of their links and clips, who used their invitations, the creators whose invitations they used.
 * A superset of the people named by the rows above (no list's limit), never anyone else.
 */
const peopleOfMe = (me: Me): SQL[] => [
  sql`select ${me}`,
  linkPeopleOf(me),
  clipPeopleOf(me),
  sql`select ${clipperInvitations.acceptedBy} from ${clipperInvitations} where ${clipperInvitations.creatorUserId} = ${me} and ${clipperInvitations.acceptedBy} is not null`,
  sql`select ${clipperInvitations.creatorUserId} from ${clipperInvitations} where ${clipperInvitations.acceptedBy} = ${me}`,
];
const peopleOfSession = builtOnce((slot) => peopleWhereIdIn(peopleOfMe(sessionUserOf(slot))));
/** The user's own folder and those of the creators they clip for now (active links). */
const sourcesOfSession = builtOnce((slot) => {
  const me = sessionUserOf(slot);
  return sourcesAmong(sql`select ${me} union ${activeCreatorsOf(me)}`);
});
const splitHistoryOfSession = builtOnce((slot) => splitHistoryAmong(linkIdsOf(sessionUserOf(slot))));

type Args = Parameters<typeof alongsideSession>[0];

/**
 * Starts reading /clipping's rows (links, clips, folder usage, invitations, waiting requests, the
 * people they name, the folders, the split history) in the session lookup's batch
 * (docs/decisions/0083, 0347): call it before the guard, and hand the guard's actor to the function
 * it returns. Every statement is over the session's user, so the rows are that user's own; only
 * after the guard are they used. One round trip (an admin's views-to-enter list has its own).
 */
export function startClippingPage(args: Args): (actor: Actor) => Promise<ClippingPage> {
  const rows = ownRowsOf(args);
  // The guard is awaited before the rows: a failure here must not surface as an unhandled rejection.
  rows.catch(() => undefined);
  return (actor) => clippingPage(actor, args.request, rows);
}

/** Every row of the page, each statement alongside the session lookup: one round trip. */
function ownRowsOf(args: Args) {
  return Promise.all([
    alongsideSession(args, linksOfSession),
    alongsideSession(args, clipsOfSession),
    alongsideSession(args, folderUsageOfSession),
    alongsideSession(args, invitationRowsOfSession),
    alongsideSession(args, waitingRowsOfSession),
    alongsideSession(args, peopleOfSession),
    alongsideSession(args, sourcesOfSession),
    alongsideSession(args, splitHistoryOfSession),
  ]);
}

async function clippingPage(actor: Actor, request: Request, ownRows: ReturnType<typeof ownRowsOf>): Promise<ClippingPage> {
  authorize(actor, "clipping", "use");
  const [[links, clipList, usageRows, invitationRows, waitingRows, personRows, sourceRows, history], invite, needingViews] = await Promise.all([
    ownRows,
    pendingInvite(actor, request),
    actor.isAdmin ? clipsNeedingViews() : Promise.resolve([]),
  ]);
  const usage = usageRows[0]?.used ?? 0;
  const mine = links.filter((l) => l.creatorUserId === actor.id);
  const theirs = links.filter((l) => l.clipperUserId === actor.id);
  const people = peopleMap(personRows);
  // The admin's clips to enter views for can name anyone: those people are looked up apart.
  const others = needingViews.flatMap((c) => [c.creatorUserId, c.clipperUserId]).filter((id) => !people.has(id));
  if (others.length > 0) for (const [id, p] of await peopleByIds(others)) people.set(id, p);
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
