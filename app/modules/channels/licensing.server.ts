import { and, asc, eq, type SQL } from "drizzle-orm";
import { manualChannelSubmissions, youtubeChannels } from "~/db/schema";
import { type Actor, authorize } from "~/lib/permissions";
import { alongsideSession, sessionUserOf } from "~/modules/accounts/accounts.server";
import { builtOnce, db } from "~/platform/db.server";

// The channels a music licence covers (the music module's 'Use this track'): the actor's linked
// YouTube channels and their manual submissions that an admin verified. Pending or rejected
// submissions do not count.

export type LicensableChannel = {
  kind: "youtube" | "manual";
  /** The YouTube channel id, or the manual submission's id. */
  ref: string;
  title: string;
  url: string | null;
};

type Me = SQL<string | null> | string;

/** The actor's linked YouTube channels and verified manual submissions: two statements, not run. */
function licensableStatements(me: Me) {
  return [
    db()
      .select({ channelId: youtubeChannels.channelId, title: youtubeChannels.channelTitle, handle: youtubeChannels.channelHandle })
      .from(youtubeChannels)
      .where(eq(youtubeChannels.userId, me))
      .orderBy(asc(youtubeChannels.channelTitle)),
    db()
      .select({ id: manualChannelSubmissions.id, title: manualChannelSubmissions.channelName, url: manualChannelSubmissions.channelUrl })
      .from(manualChannelSubmissions)
      .where(and(eq(manualChannelSubmissions.userId, me), eq(manualChannelSubmissions.status, "verified")))
      .orderBy(asc(manualChannelSubmissions.channelName)),
  ] as const;
}

/** Both statements for the session's user (slot `sessionId`), each built once per isolate (docs/decisions/0285). */
const linkedOfSession = builtOnce((slot) => licensableStatements(sessionUserOf(slot))[0]);
const verifiedOfSession = builtOnce((slot) => licensableStatements(sessionUserOf(slot))[1]);

type LinkedRow = { channelId: string; title: string };
type VerifiedRow = { id: string; title: string; url: string | null };

function licensableOf(linked: LinkedRow[], verified: VerifiedRow[]): LicensableChannel[] {
  return [
    ...linked.map((c) => ({
      kind: "youtube" as const,
      ref: c.channelId,
      title: c.title,
      url: `https://www.youtube.com/channel/${encodeURIComponent(c.channelId)}`,
    })),
    ...verified.map((c) => ({ kind: "manual" as const, ref: c.id, title: c.title, url: c.url })),
  ];
}

/**
 * The same list riding in this request's session lookup (one round trip for a page that shows it,
 * docs/decisions/0083). Call before the guard; the returned function takes the guard's actor.
 */
export function startLicensableChannels(args: Parameters<typeof alongsideSession>[0]): (actor: Actor) => Promise<LicensableChannel[]> {
  const linked = alongsideSession(args, linkedOfSession);
  const verified = alongsideSession(args, verifiedOfSession);
  return async (actor) => {
    authorize(actor, "channel", "list");
    return licensableOf(await linked, await verified);
  };
}

/** The actor's linked and verified channels, linked ones first; empty when there is none. */
export async function licensableChannels(actor: Actor): Promise<LicensableChannel[]> {
  authorize(actor, "channel", "list");
  const [linked, verified] = await db().batch(licensableStatements(actor.id));
  return licensableOf(linked, verified);
}
