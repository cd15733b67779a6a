import { useNavigation } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { PageHeader } from "~/ui/page-header";
import { actorOf } from "~/modules/accounts/accounts.server";
import { requireApprovedUser } from "~/modules/accounts/guards.server";
import { LibraryFilters } from "~/modules/music/components/library-filters";
import { LibraryResults } from "~/modules/music/components/library-results";
import { FavoriteButton, FavoritesToggle, NO_FAVORITES } from "~/modules/music/components/favorite-button";
import { usePlayer } from "~/modules/music/components/player-provider";
import { SimilarLink } from "~/modules/music/components/similar-link";
import { MyLicencesLink, UseTrackButton } from "~/modules/music/components/use-track-button";
import { startLicenceChannelChoices, startLibraryPage } from "~/modules/music/music.server";
import { parseLibraryQuery } from "~/modules/music/schema";
import { domainLoader } from "~/platform/http.server";
import type { Route } from "./+types/music";

export const meta = () => [{ title: "Music Library | Shortbeat" }];

// The music library (approved users): the URL is the whole state (search, filters, sort, page);
// the page is a GET form that works without JavaScript. docs/decisions/0101-library-url-state.md.
// The page's statements ride in the session lookup's batch (one D1 round trip); the guard decides
// before any row is used.
export const loader = domainLoader(async (args: Route.LoaderArgs) => {
  const query = parseLibraryQuery(new URL(args.request.url).searchParams);
  const libraryPage = startLibraryPage(args, query);
  const channelChoices = startLicenceChannelChoices(args);
  const user = await requireApprovedUser(args);
  const [page, channels] = await Promise.all([libraryPage(actorOf(user)), channelChoices(actorOf(user))]);
  return { ...page, channels, query: { ...query, page: page.page } };
});

export default function MusicLibrary({ loaderData }: Route.ComponentProps) {
  const { tracks, total, page, pageCount, query, correctedQ, channels } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "loading" && navigation.location?.pathname === "/music";
  const resultsLabel = total === 1 ? "1 track" : `${total} tracks`;
  // The shell's player and this browser's favorites (docs/decisions/0106, 0107).
  const player = usePlayer();
  const favoritesView = query.ids.length > 0;
  return (
    <>
      <PageHeader
        title="Music Library"
        description="Royalty-free tracks licensed for your Shorts."
        actions={
          <>
            <FavoritesToggle />
            <MyLicencesLink />
          </>
        }
      />
      <LibraryFilters query={query} resultsLabel={resultsLabel} />
      <LibraryResults
        tracks={tracks}
        query={query}
        total={total}
        page={page}
        pageCount={pageCount}
        busy={busy}
        correctedQ={correctedQ}
        onPlay={(track) => player.toggle(track)}
        playingId={player.playing ? (player.current?.id ?? null) : null}
        actionsFor={(track) => (
          <>
            <SimilarLink track={track} />
            <FavoriteButton trackId={track.id} title={track.title} />
            <UseTrackButton track={track} channels={channels} />
          </>
        )}
        {...(favoritesView
          ? {
              emptyTitle: "No favorites yet",
              emptyText: query.ids[0] === NO_FAVORITES ? "Tap the heart on a track to save it here." : "None of your favorites is in the library right now.",
            }
          : {})}
      />
    </>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
