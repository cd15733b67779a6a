import { readText } from "~/platform/body.server";
import { env } from "~/platform/env.server";

// The built-in stand-in for TikTok and Instagram (decisions 0265, 0266), answered in-process by
// outboundFetch under /dev/social/ so everything runs offline. Deterministic:
// - TikTok oEmbed (/dev/social/tiktok/oembed?url=…): the author is the link's @handle, as for any
//   video TikTok has; 404 for a video id registered as missing, 503 for one registered "unavailable",
//   and the registered author for one registered with another author (a re-posted link).
// - Instagram oEmbed (/dev/social/instagram/oembed?url=…&access_token=…): the registered author, else
//   the account a link names (instagram.com/<handle>/reel/<id>); 404 for a bare /reel/<id> nobody
//   registered; 400 without a token, as the Graph API answers.
// - Views: TikTok's Research API shape (POST /dev/social/tiktok/token, /dev/social/tiktok/video-query)
//   and /dev/social/instagram/views?shortcode=…: the registered views, else a stable number from the id.
// Tests and demos register videos with registerStandInPost (KV devsocial:<platform>:<id>).

type Platform = "tiktok" | "instagram";
type StandInPost = { author?: string; missing?: boolean; unavailable?: boolean; views?: number | "unavailable" };

const kv = () => env.RATE_LIMITS;
const key = (platform: Platform, id: string) => `devsocial:${platform}:${id}`;

export async function registerStandInPost(platform: Platform, id: string, post: StandInPost): Promise<void> {
  await kv().put(key(platform, id), JSON.stringify(post), { expirationTtl: 60 * 60 * 24 * 30 });
}

async function postOf(platform: Platform, id: string): Promise<StandInPost | null> {
  const raw = await kv().get(key(platform, id));
  return raw ? (JSON.parse(raw) as StandInPost) : null;
}

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

function standInViews(id: string): number {
  let n = 0;
  for (const ch of id) n = (n * 31 + ch.charCodeAt(0)) % 100_000;
  return 2_000 + n;
}

export async function handleStandInSocial(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const path = url.pathname.replace(/^\/dev\/social\//, "");
  if (path === "tiktok/oembed") {
    const m = /tiktok\.com\/@([A-Za-z0-9._]{1,40})\/video\/(\d{5,25})/.exec(url.searchParams.get("url") ?? "");
    if (!m) return json({ code: 400, message: "Something went wrong" }, 400);
    const post = await postOf("tiktok", m[2]);
    if (post?.unavailable) return json({ message: "Service unavailable" }, 503);
    if (post?.missing) return json({ code: 404, message: "Video not found" }, 404);
    const author = post?.author ?? m[1];
    return json({
      version: "1.0",
      type: "video",
      title: `Stand-in TikTok ${m[2]}`,
      author_unique_id: author,
      author_url: `https://www.tiktok.com/@${author}`,
      provider_name: "TikTok",
    });
  }
  if (path === "instagram/oembed") {
    if (!url.searchParams.get("access_token")) return json({ error: { message: "An access token is required", code: 104 } }, 400);
    const m = /instagram\.com\/(?:([A-Za-z0-9._]{1,40})\/)?(?:reel|p)\/([A-Za-z0-9_-]{5,40})/.exec(url.searchParams.get("url") ?? "");
    const post = m ? await postOf("instagram", m[2]) : null;
    if (post?.unavailable) return json({ error: { message: "Service temporarily unavailable", code: 2 } }, 503);
    const author = post?.author ?? m?.[1];
    if (!author || post?.missing) return json({ error: { message: "No media found", code: 24 } }, 404);
    return json({ version: "1.0", type: "rich", author_name: author, provider_name: "Instagram" });
  }
  if (path === "tiktok/token" && request.method === "POST") {
    const form = new URLSearchParams(await readText(request, 16_384));
    if (form.get("grant_type") !== "client_credentials" || !form.get("client_key")) return json({ error: "invalid_request" }, 400);
    return json({ access_token: "clt.standin", expires_in: 7200, token_type: "Bearer" });
  }
  if (path === "tiktok/video-query" && request.method === "POST") {
    if (request.headers.get("Authorization") !== "Bearer clt.standin") return json({ error: { code: "access_token_invalid" } }, 401);
    let body: { query?: { and?: { field_values?: string[] }[] } } | null = null;
    try {
      body = JSON.parse(await readText(request, 16_384));
    } catch {
      body = null;
    }
    const id = body?.query?.and?.[0]?.field_values?.[0] ?? "";
    const post = await postOf("tiktok", id);
    if (post?.views === "unavailable" || post?.unavailable) return json({ error: { code: "internal_error" } }, 503);
    const videos = post?.missing || !id ? [] : [{ id, view_count: post?.views ?? standInViews(id) }];
    return json({ data: { videos, has_more: false }, error: { code: "ok" } });
  }
  if (path === "instagram/views") {
    const id = url.searchParams.get("shortcode") ?? "";
    const post = await postOf("instagram", id);
    if (post?.views === "unavailable" || post?.unavailable) return json({ error: { message: "unavailable" } }, 503);
    if (post?.missing) return json({ error: { message: "No media found" } }, 404);
    return json({ id, view_count: post?.views ?? standInViews(id) });
  }
  return json({ error: "not_found" }, 404);
}
