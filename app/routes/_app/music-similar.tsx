import { Link } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { actorOf } from "~/modules/accounts/accounts.server";
import { requireApprovedUser } from "~/modules/accounts/guards.server";
import { FavoriteButton } from "~/modules/music/components/favorite-button";
import { LibraryResults } from "~/modules/music/components/library-results";
import { usePlayer } from "~/modules/music/components/player-provider";
import { SimilarLink } from "~/modules/music/components/similar-link";
import { UseTrackButton } from "~/modules/music/components/use-track-button";
import { startLicenceChannelChoices, similarTracks } from "~/modules/music/music.server";
import { EMPTY_LIBRARY_QUERY } from "~/modules/music/library";
import { domainLoader } from "~/platform/http.server";
import { PageHeader } from "~/ui/page-header";
import type { Route } from "./+types/music-similar";

// "Similar tracks" (issue 30 §1): the published tracks most like one track, by genre, mood, tempo
// and artist (docs/decisions/0242). Approved users, like /music; an unknown or unpublished track is 404.

export const meta = ({ loaderData }: Route.MetaArgs) => [
  { title: loaderData ? `Similar to ${loaderData.track.title} | Shortbeat` : "Similar tracks | Shortbeat" },
];

export const loader = domainLoader(async (args: Route.LoaderArgs) => {
  // The licence's channel choices ride in the session lookup (as on /music).
  const channelChoices = startLicenceChannelChoices(args);
  const user = await requireApprovedUser(args);
  const [similar, channels] = await Promise.all([similarTracks(actorOf(user), args.params.id), channelChoices(actorOf(user))]);
  return { ...similar, channels };
});

export default function MusicSimilar({ loaderData }: Route.ComponentProps) {
  const { track, tracks, channels } = loaderData;
  const player = usePlayer();
  const facts = [track.artist, track.genre, track.mood, track.bpm ? `${track.bpm} BPM` : null].filter(Boolean).join(" · ");
  return (
    <>
      <PageHeader
        title={`Similar to “${track.title}”`}
        description={`${facts}. Tracks with the same genre, mood, tempo or artist.`}
        actions={
          <Link to="/music" className="text-sm font-semibold text-brand-700 underline-offset-2 hover:underline">
            Back to the library
          </Link>
        }
      />
      <LibraryResults
        tracks={tracks}
        query={EMPTY_LIBRARY_QUERY}
        total={tracks.length}
        page={1}
        pageCount={1}
        onPlay={(t) => player.toggle(t)}
        playingId={player.playing ? (player.current?.id ?? null) : null}
        actionsFor={(t) => (
          <>
            <SimilarLink track={t} />
            <FavoriteButton trackId={t.id} title={t.title} />
            <UseTrackButton track={t} channels={channels} />
          </>
        )}
        emptyTitle="No similar tracks yet"
        emptyText="No other track shares enough of this one's genre, mood, tempo and artist. Browse the library instead."
      />
    </>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
