import { Link } from "react-router";
import { ListMusic } from "~/ui/icons";

// 'Similar tracks' on a library row: a link to /music/similar/{id}, the tracks most like this one
// (same genre, mood, tempo, artist; docs/decisions/0242).

export const similarHref = (trackId: string) => `/music/similar/${encodeURIComponent(trackId)}`;

export function SimilarLink({ track }: { track: { id: string; title: string } }) {
  return (
    <Link
      to={similarHref(track.id)}
      aria-label={`Similar tracks to ${track.title}`}
      title="Similar tracks"
      className="inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-full border border-slate-200 bg-white text-slate-600 hover:bg-slate-100"
    >
      <ListMusic className="h-4 w-4" aria-hidden="true" />
    </Link>
  );
}
