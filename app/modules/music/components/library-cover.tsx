import { Music as MusicShape } from "lucide";
import { useMemo } from "react";
import { escapeXml } from "~/lib/public-pages";
import { iconHtml } from "./markup";

/**
 * A track's cover: a placeholder tile, with the cover image over it when the track has one. The
 * image is decorative (the title is next to it), so a missing file shows the placeholder, not a
 * broken-image sign. The tile's inside is one string (docs/decisions/0354): nothing in it reacts.
 */
export function LibraryCover({ src }: { src: string | null }) {
  // One object per address: React sets the inner HTML again whenever the object changes.
  const inner = useMemo(() => ({ __html: coverMarkup(src) }), [src]);
  return (
    <span
      className="relative inline-flex h-11 w-11 shrink-0 items-center justify-center overflow-hidden rounded-md bg-gradient-to-br from-violet-200 to-sky-200"
      // biome-ignore lint/security/noDangerouslySetInnerHtml: the placeholder icon (a constant) and the image's address, escaped (0354)
      dangerouslySetInnerHTML={inner}
    />
  );
}

/** What `<Music className="h-5 w-5 text-slate-600" aria-hidden="true" />` writes (app/ui/icons.ts). */
const PLACEHOLDER = iconHtml(MusicShape, "h-5 w-5 text-slate-600");

/** The tile's inner markup: the placeholder icon, and the image over it when there is one. */
export function coverMarkup(src: string | null): string {
  return src
    ? `${PLACEHOLDER}<img src="${escapeXml(src)}" alt="" width="64" height="64" loading="lazy" decoding="async" class="absolute inset-0 h-full w-full object-cover"/>`
    : PLACEHOLDER;
}
