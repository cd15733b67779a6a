import { env } from "~/platform/env.server";
import { handleStandInSocialLogin, indexStandInPost } from "./dev-social-login.server";

// The built-in stand-in for TikTok and Instagram, answered in-process by outboundFetch under
// /dev/social/ so everything runs offline. Deterministic:
// - Instagram Login and TikTok Login Kit + Display API (decisions 0299, 0300): dev-social-login.server.ts.
// - TikTok oEmbed (/dev/social/tiktok/oembed?url=…): the author is the link's @handle, as for any
//   video TikTok has; 404 for a video id registered as missing, 503 for one registered "unavailable",
//   and the registered author for one registered with another author (a re-posted link). Shortbeat no
//   longer asks it (0300); kept as TikTok answers, for embedding.
// - Instagram oEmbed (/dev/social/instagram/oembed?url=…&access_token=…): what Meta answers since
//   November 3, 2025 — no author_name, no author_url (https://developers.facebook.com/docs/instagram-platform/oembed);
//   404 for a reel registered missing, 400 without a token.
// Tests and demos register videos with registerStandInPost (KV devsocial:<platform>:<id>); one with an
// `author` is that stand-in account's post (its /me/media, its video query).

type Platform = "tiktok" | "instagram";
type StandInPost = { author?: string; missing?: boolean; unavailable?: boolean; views?: number | "unavailable" };

const kv = () => env.RATE_LIMITS;
const key = (platform: Platform, id: string) => `devsocial:${platform}:${id}`;

export async function registerStandInPost(platform: Platform, id: string, post: StandInPost): Promise<void> {
  await kv().put(key(platform, id), JSON.stringify(post), { expirationTtl: 60 * 60 * 24 * 30 });
  if (post.author) await indexStandInPost(platform, id, post.author);
}

async function postOf(platform: Platform, id: string): Promise<StandInPost | null> {
  const raw = await kv().get(key(platform, id));
  return raw ? (JSON.parse(raw) as StandInPost) : null;
}

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

export async function handleStandInSocial(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const path = url.pathname.replace(/^\/dev\/social\//, "");
  if (path === "tiktok/oembed") {
    const [, handle, videoId] = /tiktok\.com\/@([A-Za-z0-9._]{1,40})\/video\/(\d{5,25})/.exec(url.searchParams.get("url") ?? "") ?? [];
    if (!handle || !videoId) return json({ code: 400, message: "Something went wrong" }, 400);
    const post = await postOf("tiktok", videoId);
    if (post?.unavailable) return json({ message: "Service unavailable" }, 503);
    if (post?.missing) return json({ code: 404, message: "Video not found" }, 404);
    const author = post?.author ?? handle;
    return json({
      version: "1.0",
      type: "video",
      title: `Stand-in TikTok ${videoId}`,
      author_unique_id: author,
      author_url: `https://www.tiktok.com/@${author}`,
      provider_name: "TikTok",
    });
  }
  if (path === "instagram/oembed") {
    if (!url.searchParams.get("access_token")) return json({ error: { message: "An access token is required", code: 104 } }, 400);
    const postId = /instagram\.com\/(?:([A-Za-z0-9._]{1,40})\/)?(?:reel|p)\/([A-Za-z0-9_-]{5,40})/.exec(url.searchParams.get("url") ?? "")?.[2];
    const post = postId ? await postOf("instagram", postId) : null;
    if (post?.unavailable) return json({ error: { message: "Service temporarily unavailable", code: 2 } }, 503);
    if (!postId || post?.missing) return json({ error: { message: "No media found", code: 24 } }, 404);
    // The documented answer today: the embed, never who posted it (tests/fixtures/providers/instagram.json).
    return json({
      version: "1.0",
      provider_name: "Instagram",
      provider_url: "https://www.instagram.com/",
      type: "rich",
      width: 658,
      html: `<blockquote class="instagram-media" data-instgrm-permalink="https://www.instagram.com/reel/${postId}/"></blockquote>`,
      thumbnail_width: 640,
      thumbnail_height: 640,
    });
  }
  const login = await handleStandInSocialLogin(request, path);
  if (login) return login;
  return json({ error: "not_found" }, 404);
}
