import { env, setting } from "~/platform/env.server";
import { recordFailure, setQuotaPaused } from "~/platform/service-status.server";
import { nextPacificMidnight } from "./youtube-api";

// The YouTube Data API's daily quota (decision 0303): 10,000 units a project, reset at midnight
// Pacific Time (https://developers.google.com/youtube/v3/determine_quota_cost). When YouTube answers
// 403 quotaExceeded every further call that day is refused too (and still costs a unit), so the
// "paused until" instant is kept in KV, expiring at the reset: the daily jobs skip YouTube until
// then, submissions answer 503 saying so, and the admin console shows it. KV stays what the callers
// read (one read per job run, expiring by itself); the pause is mirrored into service_status so the
// System status page and `npm run doctor` show it as YouTube's quota state (docs/decisions/0326).

const PAUSE_KEY = "settings:youtube-quota-paused-until";

/** Pauses YouTube calls until the next midnight Pacific Time; returns that instant (ISO). */
export async function pauseYouTubeUntilReset(now = new Date()): Promise<string> {
  const until = nextPacificMidnight(now);
  // KV wants an expiration at least 60 s ahead.
  const expiration = Math.max(Math.ceil(until.getTime() / 1000), Math.ceil(now.getTime() / 1000) + 60);
  await env.RATE_LIMITS.put(PAUSE_KEY, until.toISOString(), { expiration });
  await setQuotaPaused("youtube", until.toISOString());
  await recordFailure("youtube", "quotaExceeded", "YouTube's daily quota is used up (403 quotaExceeded).");
  return until.toISOString();
}

/** When YouTube calls resume, or null when they are not paused. */
export async function youtubePausedUntil(now = new Date()): Promise<string | null> {
  const until = await env.RATE_LIMITS.get(PAUSE_KEY);
  return until && Date.parse(until) > now.getTime() ? until : null;
}

/** What the admin console says of YouTube: whether the API key is set, and a quota pause. */
export async function youtubeApiStatus(): Promise<{ apiKey: boolean; pausedUntil: string | null }> {
  return { apiKey: setting("YOUTUBE_API_KEY") !== null, pausedUntil: await youtubePausedUntil() };
}
