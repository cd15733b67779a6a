import { Music } from "~/ui/icons";

/**
 * A track's cover: a placeholder tile, with the cover image over it when the track has one. The
 * image is decorative (the title is next to it), so a missing file shows the placeholder, not a
 * broken-image sign.
 */
export function LibraryCover({ src, size = "md" }: { src: string | null; size?: "md" | "lg" }) {
  const box = size === "lg" ? "h-16 w-16" : "h-11 w-11";
  return (
    <span
      className={`relative inline-flex ${box} shrink-0 items-center justify-center overflow-hidden rounded-md bg-gradient-to-br from-violet-200 to-sky-200`}
    >
      <Music className="h-5 w-5 text-slate-600" aria-hidden="true" />
      {src ? <img src={src} alt="" width={64} height={64} loading="lazy" decoding="async" className="absolute inset-0 h-full w-full object-cover" /> : null}
    </span>
  );
}
