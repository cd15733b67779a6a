// Pure pieces of the YouTube Data API v3 contract (client-safe, unit-tested against the
// @googleapis/youtube types, tests/unit/channels/youtube-contract.test.ts): the videos.list answer,
// Google's error envelope, and when the daily quota resets. Decision 0303.

/** videos.list takes at most 50 ids per call (https://developers.google.com/youtube/v3/docs/videos/list, `id`). */
export const VIDEOS_PER_CALL = 50;

/** A public YouTube video: the channel it is on and its views (null when YouTube hides them). */
export type ProviderVideo = { id: string; channelId: string; viewCount: number | null };

/**
 * Google's error envelope (https://developers.google.com/youtube/v3/docs/errors): `error.code` is
 * the HTTP status, `error.errors[0].reason` the error detail (quotaExceeded, forbidden, keyInvalid…).
 * The discovery types of @googleapis/youtube do not describe it, so it is typed here.
 */
export type GoogleErrorBody = {
  error: {
    code: number;
    message: string;
    errors: { message: string; domain: string; reason: string }[];
    status?: string;
  };
};

export function toCount(value: unknown): number {
  const n = typeof value === "number" ? value : typeof value === "string" && /^\d+$/.test(value) ? Number(value) : 0;
  return Number.isSafeInteger(n) && n >= 0 ? n : 0;
}

/** The first error reason of a Google error body (`error.errors[0].reason`), or null. */
export function errorReasonOf(body: unknown): string | null {
  const errors = (body as { error?: { errors?: unknown } } | null)?.error?.errors;
  const first = Array.isArray(errors) ? (errors[0] as { reason?: unknown } | undefined) : undefined;
  return typeof first?.reason === "string" ? first.reason : null;
}

/**
 * The videos of a videos.list answer by id (snippet.channelId, statistics.viewCount). A video the
 * answer does not list is one YouTube has not got (or not public): absent from the map. Null when
 * the body is not a list answer at all.
 */
export function parseVideoList(body: unknown): Map<string, ProviderVideo> | null {
  const items = (body as { items?: unknown } | null)?.items;
  if (!Array.isArray(items)) return null;
  const out = new Map<string, ProviderVideo>();
  for (const raw of items) {
    const item = raw as { id?: unknown; snippet?: { channelId?: unknown } | null; statistics?: { viewCount?: unknown } | null } | null;
    const id = item?.id;
    const channelId = item?.snippet?.channelId;
    if (typeof id !== "string" || !id || typeof channelId !== "string" || !channelId) continue;
    const views = item?.statistics?.viewCount;
    out.set(id, { id, channelId, viewCount: views === undefined || views === null ? null : toCount(views) });
  }
  return out;
}

const pacificParts = new Intl.DateTimeFormat("en-US", {
  timeZone: "America/Los_Angeles",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  hourCycle: "h23",
});

function pacific(at: Date): { y: number; m: number; d: number; h: number } {
  const parts = Object.fromEntries(pacificParts.formatToParts(at).map((p) => [p.type, p.value]));
  return { y: Number(parts.year), m: Number(parts.month), d: Number(parts.day), h: Number(parts.hour) };
}

/**
 * The next midnight Pacific Time after `now`, when the daily quota resets ("Daily quotas reset at
 * midnight Pacific Time (PT)", https://developers.google.com/youtube/v3/determine_quota_cost).
 * Pacific midnight is 07:00 or 08:00 UTC (daylight saving time or not): the one whose Pacific hour is 0.
 */
export function nextPacificMidnight(now: Date): Date {
  const { y, m, d } = pacific(now);
  for (const utcHour of [7, 8]) {
    const candidate = new Date(Date.UTC(y, m - 1, d + 1, utcHour));
    const p = pacific(candidate);
    if (p.h === 0 && candidate > now) return candidate;
  }
  return new Date(Date.UTC(y, m - 1, d + 1, 8));
}
