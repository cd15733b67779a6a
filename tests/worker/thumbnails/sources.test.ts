// The thumbnail editor's two server-side image sources (decision 0184): a creator's linked
// channel's thumbnail (listed through the channels module, fetched only from the URL stored for
// that channel, never one from the client) and background generation (503 with the reason where
// no Workers AI binding is configured, as everywhere we can test).
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { THUMBNAIL_MESSAGES } from "~/modules/thumbnails/messages";
import { createUser, type TestUser } from "../../factories/users";
import { fetchApp, ORIGIN, withCookie } from "../helpers";

let admin: TestUser;
let creator: TestUser;
const tag = crypto.randomUUID().slice(0, 8);
const channel = (suffix: string) => ({ id: crypto.randomUUID(), channelId: `UC${tag}${suffix}`, title: `Thumbsource ${tag} ${suffix}` });
const noThumb = channel("plain");
const offHost = channel("offhost");

beforeAll(async () => {
  [admin, creator] = await Promise.all([createUser("admin"), createUser("creator")]);
  const insert = env.DB.prepare("INSERT INTO youtube_channels (id, user_id, channel_id, channel_title, thumbnail_url) VALUES (?, ?, ?, ?, ?)");
  await env.DB.batch([
    insert.bind(noThumb.id, creator.id, noThumb.channelId, noThumb.title, null),
    // A stored URL that is not on YouTube's image hosts (e.g. the metadata service): never fetched.
    insert.bind(offHost.id, creator.id, offHost.channelId, offHost.title, "https://169.254.169.254/latest/meta-data"),
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
    expect(titles.map((c) => c.id).sort()).toEqual([noThumb.id, offHost.id].sort());
    // A stored URL that is not https is never offered; this one is https (its host is checked on fetch).
    expect(titles.find((c) => c.id === noThumb.id)?.hasThumbnail).toBe(false);

    const byEmail = await fetchApp(`${API}?channels=${encodeURIComponent(creator.email)}`, withCookie(admin.cookie));
    expect(((await byEmail.json()) as { channels: { id: string }[] }).channels.map((c) => c.id).sort()).toEqual([noThumb.id, offHost.id].sort());

    expect((await fetchApp(`${API}?channels=x`, withCookie(creator.cookie))).status).toBe(403);
    expect((await fetchApp(`${API}?channels=x`)).status).toBe(401);
    expect((await post(creator, { intent: "channel-thumbnail", channelId: noThumb.id })).status).toBe(403);
  });

  it("a channel without a stored thumbnail: a clear message", async () => {
    const res = await post(admin, { intent: "channel-thumbnail", channelId: noThumb.id });
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toBe(THUMBNAIL_MESSAGES.noChannelThumbnail);
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
