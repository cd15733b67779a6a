// The thumbnail editor's two server-side image sources (decision 0184): a creator's linked
// channel's thumbnail (listed through the channels module, fetched only from the URL stored for
// that channel, never one from the client) and background generation (503 with the reason where
// no Workers AI binding is configured, as everywhere we can test).
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { issueCode, handleDevOAuthApi, STAND_IN_ACCOUNTS, standInThumbnailUrl } from "~/dev/dev-oauth.server";
import { fetchOwnChannel } from "~/modules/channels/provider.server";
import { THUMBNAIL_MESSAGES } from "~/modules/thumbnails/messages";
import { createUser, type TestUser } from "../../factories/users";
import { fetchApp, ORIGIN, withCookie } from "../helpers";
import { present } from "../../helpers/present";

let admin: TestUser;
let creator: TestUser;
const tag = crypto.randomUUID().slice(0, 8);
const channel = (suffix: string) => ({ id: crypto.randomUUID(), channelId: `UC${tag}${suffix}`, title: `Thumbsource ${tag} ${suffix}` });
const noThumb = channel("plain");
const offHost = channel("offhost");
const standIn = channel("standin");
const offPath = channel("offpath");
const plainHttp = channel("http");

beforeAll(async () => {
  [admin, creator] = await Promise.all([createUser("admin"), createUser("creator")]);
  const insert = env.DB.prepare("INSERT INTO youtube_channels (id, user_id, channel_id, channel_title, thumbnail_url) VALUES (?, ?, ?, ?, ?)");
  await env.DB.batch([
    insert.bind(noThumb.id, creator.id, noThumb.channelId, noThumb.title, null),
    // A stored URL that is not on YouTube's image hosts (e.g. the metadata service): never fetched.
    insert.bind(offHost.id, creator.id, offHost.channelId, offHost.title, "https://169.254.169.254/latest/meta-data"),
    // The local stand-in provider's image on our own origin (decision 0185), as a stand-in link stores it.
    insert.bind(standIn.id, creator.id, standIn.channelId, standIn.title, standInThumbnailUrl("channel", standIn.channelId)),
    // Our own origin but not the stand-in's images, and plain http: neither offered nor fetched.
    insert.bind(offPath.id, creator.id, offPath.channelId, offPath.title, "/dev/oauth/userinfo"),
    insert.bind(plainHttp.id, creator.id, plainHttp.channelId, plainHttp.title, "http://127.0.0.1/dev/oauth/youtube/thumbnails/channel/x.png"),
  ]);
  await fetchApp("/auth");
}, 180_000);

const API = "/ai-thumbnail-editor/api";

function post(user: TestUser | null, fields: Record<string, string>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  return fetchApp(API, withCookie(user?.cookie ?? null, { method: "POST", body: form, headers: { Origin: ORIGIN } }));
}

const errorOf = async (res: Response) => ((await res.json()) as { error: string }).error;

describe("a creator's channel thumbnail", () => {
  it("admins list linked channels by title and by the creator's e-mail; others are refused", async () => {
    const byTitle = await fetchApp(`${API}?channels=${encodeURIComponent(`Thumbsource ${tag}`)}`, withCookie(admin.cookie));
    expect(byTitle.status).toBe(200);
    const titles = ((await byTitle.json()) as { channels: { id: string; title: string; hasThumbnail: boolean }[] }).channels;
    const all = [noThumb.id, offHost.id, standIn.id, offPath.id, plainHttp.id].sort();
    expect(titles.map((c) => c.id).sort()).toEqual(all);
    // A stored URL that is not https is never offered; this one is https (its host is checked on fetch).
    expect(titles.find((c) => c.id === noThumb.id)?.hasThumbnail).toBe(false);
    expect(titles.find((c) => c.id === standIn.id)?.hasThumbnail).toBe(true);
    expect(titles.find((c) => c.id === offPath.id)?.hasThumbnail).toBe(false);
    expect(titles.find((c) => c.id === plainHttp.id)?.hasThumbnail).toBe(false);

    const byEmail = await fetchApp(`${API}?channels=${encodeURIComponent(creator.email)}`, withCookie(admin.cookie));
    expect(((await byEmail.json()) as { channels: { id: string }[] }).channels.map((c) => c.id).sort()).toEqual(all);

    expect((await fetchApp(`${API}?channels=x`, withCookie(creator.cookie))).status).toBe(403);
    expect((await fetchApp(`${API}?channels=x`)).status).toBe(401);
    expect((await post(creator, { intent: "channel-thumbnail", channelId: noThumb.id })).status).toBe(403);
  });

  it("a channel without a stored thumbnail: a clear message", async () => {
    const res = await post(admin, { intent: "channel-thumbnail", channelId: noThumb.id });
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toBe(THUMBNAIL_MESSAGES.noChannelThumbnail);
  });

  it("opens the stand-in provider's thumbnail of a channel (development build): a 240×240 PNG from our own origin", async () => {
    const res = await post(admin, { intent: "channel-thumbnail", channelId: standIn.id });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("image/png");
    const png = new DataView(await res.arrayBuffer());
    expect([png.getUint32(16), png.getUint32(20)]).toEqual([240, 240]);
    for (const other of [offPath, plainHttp]) {
      const refused = await post(admin, { intent: "channel-thumbnail", channelId: other.id });
      expect(refused.status).toBe(400);
      expect(await errorOf(refused)).toBe(THUMBNAIL_MESSAGES.noChannelThumbnail);
    }
  });

  it("the stand-in answers its channel's thumbnail URL, which a link stores; it serves channel and video images, nothing else", async () => {
    const verifier = "v".repeat(43);
    const challenge = btoa(String.fromCharCode(...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)))))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");
    const params = new URLSearchParams({ code_challenge: challenge, code_challenge_method: "S256", redirect_uri: `${ORIGIN}/channels`, client_id: "x" });
    params.set("scope", "openid https://www.googleapis.com/auth/youtube.readonly");
    const code = await issueCode(params, present(STAND_IN_ACCOUNTS[0], "the first stand-in account"));
    const token = await handleDevOAuthApi(
      new Request(`${ORIGIN}/dev/oauth/token`, {
        method: "POST",
        body: new URLSearchParams({ grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: `${ORIGIN}/channels` }),
      }),
    );
    const { access_token } = (await token.json()) as { access_token: string };
    const own = await fetchOwnChannel(new Request(`${ORIGIN}/channels`), access_token);
    expect(own.thumbnailUrl).toBe(standInThumbnailUrl("channel", own.id));

    const image = await fetchApp(own.thumbnailUrl as string);
    expect(image.status).toBe(200);
    expect(image.headers.get("Content-Type")).toBe("image/png");
    const video = new DataView(await (await fetchApp(standInThumbnailUrl("video", "samShorts01"))).arrayBuffer());
    expect([video.getUint32(16), video.getUint32(20)]).toEqual([320, 180]);
    expect((await fetchApp("/dev/oauth/youtube/thumbnails/channel/a.b.png")).status).toBe(404);
    expect((await fetchApp("/dev/oauth/youtube/thumbnails/other/x.png")).status).toBe(404);
  });

  it("a stored URL off YouTube's image hosts is not fetched, and a URL from the client is ignored", async () => {
    const res = await post(admin, { intent: "channel-thumbnail", channelId: offHost.id, url: "https://example.com/a.png" });
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toBe(THUMBNAIL_MESSAGES.noChannelThumbnail);
    const unknown = await post(admin, { intent: "channel-thumbnail", channelId: crypto.randomUUID(), url: "https://example.com/a.png" });
    expect(unknown.status).toBe(404);
    expect((await post(admin, { intent: "channel-thumbnail", channelId: "" })).status).toBe(400);
  });
});

describe("background generation", () => {
  it("without a Workers AI binding answers 503 with the reason; admins only; a prompt is needed", async () => {
    const res = await post(admin, { intent: "generate-background", prompt: "Neon city at night" });
    expect(res.status).toBe(503);
    expect(await errorOf(res)).toBe(THUMBNAIL_MESSAGES.aiUnavailable);
    expect((await post(admin, { intent: "generate-background", prompt: " " })).status).toBe(400);
    expect((await post(creator, { intent: "generate-background", prompt: "Neon city" })).status).toBe(403);
  });
});
