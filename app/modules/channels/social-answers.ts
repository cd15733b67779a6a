// What Instagram's and TikTok's APIs answer, read into our types (decisions 0299, 0300). Pure, so the
// unit tests read the providers' documented examples (tests/fixtures/providers/) through the same code.
// An answer of another shape is null, never a guess.

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | null => (v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : null);
const str = (v: unknown): string | null => (typeof v === "string" && v ? v : null);
/** A count: a non-negative safe integer (a number or a string of digits). */
export const countOf = (v: unknown): number | null => {
  const n = typeof v === "number" ? v : typeof v === "string" && /^\d+$/.test(v) ? Number(v) : Number.NaN;
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
};

export type ProviderToken = {
  accessToken: string;
  expiresIn: number | null;
  refreshToken: string | null;
  refreshExpiresIn: number | null;
  scope: string | null;
};

// ---- Instagram (https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login) ----

/** The code exchange's and the long-lived exchange's answer: {access_token, expires_in?}. Business Login may wrap it in data[0]. */
export function instagramToken(body: unknown): ProviderToken | null {
  const b = obj(body);
  const t = obj(Array.isArray(b?.data) ? b.data[0] : b);
  const accessToken = str(t?.access_token);
  if (!accessToken) return null;
  return { accessToken, expiresIn: countOf(t?.expires_in), refreshToken: null, refreshExpiresIn: null, scope: str(t?.permissions) };
}

/** GET /me?fields=user_id,username: the professional account's id (a string) and username. */
export function instagramProfile(body: unknown): { userId: string; username: string | null } | null {
  const b = obj(body);
  const userId = str(b?.user_id) ?? str(b?.id);
  return userId ? { userId, username: str(b?.username) } : null;
}

export type InstagramMedia = { id: string; shortcode: string | null; permalink: string | null; productType: string | null };

/** GET /me/media: one page of the account's media, and the next page's URL. */
export function instagramMediaPage(body: unknown): { media: InstagramMedia[]; next: string | null } | null {
  const b = obj(body);
  if (!b || !Array.isArray(b.data)) return null;
  const media = b.data.flatMap((m): InstagramMedia[] => {
    const o = obj(m);
    const id = str(o?.id);
    return id ? [{ id, shortcode: str(o?.shortcode), permalink: str(o?.permalink), productType: str(o?.media_product_type) }] : [];
  });
  return { media, next: str(obj(b.paging)?.next) };
}

/** A reel's shortcode from its permalink (https://www.instagram.com/reel/<code>/ or /p/<code>/). */
export function shortcodeOf(media: InstagramMedia): string | null {
  if (media.shortcode) return media.shortcode;
  return /instagram\.com\/(?:[A-Za-z0-9._]+\/)?(?:reel|reels|p|tv)\/([A-Za-z0-9_-]+)/.exec(media.permalink ?? "")?.[1] ?? null;
}

/** GET /<media-id>/insights?metric=views: the lifetime views, or null (no data yet is an empty list). */
export function instagramViews(body: unknown): number | null {
  const b = obj(body);
  if (!b || !Array.isArray(b.data)) return null;
  const metric = b.data.map(obj).find((m) => m?.name === "views");
  const values = metric?.values;
  if (Array.isArray(values) && values.length > 0) return countOf(obj(values[values.length - 1])?.value);
  return countOf(metric?.total_value && obj(metric.total_value)?.value);
}

// ---- TikTok (https://developers.tiktok.com/doc/login-kit-web, …/tiktok-api-v2-video-query) ----------

/** POST /v2/oauth/token/ (code or refresh_token): the user's tokens and the account's open_id. */
export function tiktokToken(body: unknown): (ProviderToken & { openId: string | null }) | null {
  const b = obj(body);
  const accessToken = str(b?.access_token);
  if (!accessToken) return null;
  return {
    accessToken,
    expiresIn: countOf(b?.expires_in),
    refreshToken: str(b?.refresh_token),
    refreshExpiresIn: countOf(b?.refresh_expires_in),
    scope: str(b?.scope),
    openId: str(b?.open_id),
  };
}

/** GET /v2/user/info/: the account's open_id and display name. */
export function tiktokUser(body: unknown): { openId: string; displayName: string | null } | null {
  const user = obj(obj(obj(body)?.data)?.user);
  const openId = str(user?.open_id);
  return openId ? { openId, displayName: str(user?.display_name) } : null;
}

/**
 * POST /v2/video/query/: the videos TikTok returned (only the token owner's: TikTok checks that the
 * asked ids are the user's), id → views. Ids stay strings (int64); a numeric id is refused as unsafe.
 */
export function tiktokVideos(body: unknown): Map<string, number | null> | null {
  const b = obj(body);
  const code = str(obj(b?.error)?.code);
  if (code && code !== "ok") return null;
  const videos = obj(b?.data)?.videos;
  if (videos !== undefined && !Array.isArray(videos)) return null;
  const out = new Map<string, number | null>();
  for (const v of (videos ?? []) as unknown[]) {
    const id = str(obj(v)?.id);
    if (id) out.set(id, countOf(obj(v)?.view_count));
  }
  return out;
}
