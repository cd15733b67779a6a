import { Loader2, Pause, Play } from "~/ui/icons";
import { useEffect, useState } from "react";
import type { PlayerTrack } from "../player";
import { usePlayer } from "./player-provider";

// The play/pause button of a track (library rows, the review queue): starts the track in the
// shell's player, or pauses/resumes it when it is already the current one. Disabled until the
// page is hydrated (without JavaScript there is no player to start).

export function PlayButton({ track, className = "" }: { track: PlayerTrack; className?: string }) {
  const player = usePlayer();
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const isCurrent = player.current?.id === track.id;
  const playing = isCurrent && player.playing;
  const Icon = isCurrent && player.loading && player.playing ? Loader2 : playing ? Pause : Play;
  return (
    <button
      type="button"
      disabled={!hydrated}
      onClick={() => player.toggle(track)}
      aria-label={`${playing ? "Pause" : "Play"} ${track.title} by ${track.artist}`}
      data-playing={playing || undefined}
      className={`inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-full ${
        isCurrent ? "bg-brand-600 text-white hover:bg-brand-700" : "bg-slate-900 text-white hover:bg-slate-700"
      } disabled:opacity-50 ${className}`.trim()}
    >
      <Icon
        className={`h-4 w-4 ${Icon === Loader2 ? "animate-spin motion-reduce:animate-none" : ""} ${Icon === Play ? "translate-x-px" : ""}`}
        aria-hidden="true"
      />
    </button>
  );
}
