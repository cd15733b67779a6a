import { desc, eq, or } from "drizzle-orm";
import { clipperLinks } from "~/db/schema";
import { type Actor, authorize } from "~/lib/permissions";
import { peopleByIds } from "~/modules/accounts/accounts.server";
import { db } from "~/platform/db.server";
import { type ClipItem, clipsNeedingViews, clipsOfUser } from "./clips.server";
import { invitationPeople, invitationRowsOf, invitationViews, pendingInvite, waitingRowsOf, waitingViews } from "./invitations.server";
import { splitHistoryOf } from "./links.server";
import { SOURCE_QUOTA_BYTES } from "./messages";
import { folderUsageQuery, sourcesOf } from "./sources.server";
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

export async function clippingPage(actor: Actor, request: Request): Promise<ClippingPage> {
  authorize(actor, "clipping", "use");
  // One round trip for the page's own rows, then one for the people they name (and the folders and splits).
  const [[links, clipList, usageRows, invitationRows, waitingRows], invite, needingViews] = await Promise.all([
    db().batch([
      db()
        .select()
        .from(clipperLinks)
        .where(or(eq(clipperLinks.creatorUserId, actor.id), eq(clipperLinks.clipperUserId, actor.id)))
        .orderBy(desc(clipperLinks.createdAt)),
      clipsOfUser(actor.id),
      folderUsageQuery(actor.id),
      invitationRowsOf(actor.id),
      waitingRowsOf(actor.id),
    ]),
    pendingInvite(actor, request),
    actor.isAdmin ? clipsNeedingViews() : Promise.resolve([]),
  ]);
  const usage = usageRows[0]?.used ?? 0;
  const mine = links.filter((l) => l.creatorUserId === actor.id);
  const theirs = links.filter((l) => l.clipperUserId === actor.id);
  const activeCreators = theirs.filter((l) => l.status === "active").map((l) => l.creatorUserId);
  const [people, folders, history] = await Promise.all([
    peopleByIds([
      actor.id,
      ...links.flatMap((l) => [l.creatorUserId, l.clipperUserId]),
      ...[...clipList, ...needingViews].flatMap((c) => [c.creatorUserId, c.clipperUserId]),
      ...invitationPeople(invitationRows),
      ...waitingRows.map((r) => r.creatorUserId),
    ]),
    sourcesOf([actor.id, ...activeCreators], actor.id),
    splitHistoryOf(links.map((l) => l.id)),
  ]);
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
