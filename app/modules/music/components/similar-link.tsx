import { ListMusic as ListMusicShape } from "lucide";
import { iconHtml } from "./markup";

// 'Similar tracks' on a library row: a link to /music/similar/{id}, the tracks most like this one
// (same genre, mood, tempo, artist; docs/decisions/0242). A plain anchor (the markup of a <Link to>), one
// on each of a page's rows: LibraryResults marks its rows for the shell's one listener, which follows
// it client-side (app/ui/in-app-links.ts, 0346).

export const similarHref = (trackId: string) => `/music/similar/${encodeURIComponent(trackId)}`;

/** The link's inside: its icon, a constant given to React whole (docs/decisions/0354). */
const ICON = { __html: iconHtml(ListMusicShape, "h-4 w-4") };

export function SimilarLink({ track }: { track: { id: string; title: string } }) {
  return (
    <a
      aria-label={`Similar tracks to ${track.title}`}
      title="Similar tracks"
      className="inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-full border border-slate-200 bg-white text-slate-600 hover:bg-slate-100"
      href={similarHref(track.id)}
      data-discover="true"
      // biome-ignore lint/security/noDangerouslySetInnerHtml: a constant icon (0354)
      dangerouslySetInnerHTML={ICON}
    />
  );
}
