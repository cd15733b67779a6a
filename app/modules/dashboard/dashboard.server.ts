import { alongsideSession, NoSessionError } from "~/modules/accounts/accounts.server";
import { connectedChannelCountQuery } from "~/modules/channels/channels.server";
import { publishedTrackCountQuery } from "~/modules/music/music.server";

// The dashboard shows other domains' numbers; it owns no table. Each domain builds its count as
// a query, and both ride in the session lookup's D1 batch: a signed-in /dashboard is one round
// trip (docs/decisions/0083).

export type DashboardCounts = { trackCount: number; connectedChannels: number };

type Args = Parameters<typeof alongsideSession>[0];

/**
 * Published tracks in the library, and the user's connected channels. Call it before the guard
 * (so it joins the session's batch) and await it after the guard has passed.
 */
export function dashboardCounts(args: Args): Promise<DashboardCounts> {
  const tracks = alongsideSession(args, () => publishedTrackCountQuery());
  const channels = alongsideSession(args, (me) => connectedChannelCountQuery(me));
  return Promise.all([tracks, channels]).then(
    ([t, c]) => ({ trackCount: t[0]?.n ?? 0, connectedChannels: c[0]?.n ?? 0 }),
    (error) => {
      // The track count shows 0 on failure (spec); so does the channel count. Without a session
      // the guard answers (a redirect) and these numbers are never shown.
      if (!(error instanceof NoSessionError)) console.error("dashboard counts failed", error);
      return { trackCount: 0, connectedChannels: 0 };
    },
  );
}
