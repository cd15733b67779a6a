import { LocalTime } from "~/ui/local-time";

// What the admin console says of YouTube (decision 0303): the views job and the submission check
// read videos.list, which Google answers only with an OAuth token or an API key, within a daily quota.

export function YouTubeApiNotice({ apiKey, pausedUntil }: { apiKey: boolean; pausedUntil: string | null }) {
  if (apiKey && !pausedUntil) return null;
  return (
    <div role="status" className="mb-6 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950">
      <p className="font-semibold">YouTube</p>
      <ul className="mt-1 list-disc pl-5">
        {pausedUntil ? (
          <li>
            YouTube calls are paused: the daily quota is used up. They resume at <LocalTime iso={pausedUntil} withTime /> (midnight Pacific Time). Views are not
            read and YouTube submissions cannot be checked until then.
          </li>
        ) : null}
        {apiKey ? null : (
          <li>
            YOUTUBE_API_KEY is not set: clip views are not read from YouTube, and submissions are checked only with the creator's own linked channel. Set it
            with <code>wrangler secret put YOUTUBE_API_KEY</code> (docs/providers.md, "Google sign-in and YouTube").
          </li>
        )}
      </ul>
    </div>
  );
}
