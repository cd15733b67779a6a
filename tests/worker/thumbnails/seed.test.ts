// The thumbnail editor's demo data (app/dev/thumbnails-seed.ts, decision 0185): a saved project
// that opens (its document passes the editor's schema, its image is served), an export in the
// recent list (a 1280×720 PNG through its signed URL), the demo channel's stand-in thumbnail that
// the editor's panel opens; run twice, nothing doubles.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { THUMBNAILS_SEED, thumbnailsSeed } from "~/dev/thumbnails-seed";
import { addDays, dayOf } from "~/modules/payments/calendar";
import { documentSchema } from "~/modules/thumbnails/schema";
import { createUser, type TestUser } from "../../factories/users";
import { count, fetchApp, ORIGIN, withCookie } from "../helpers";
import { present } from "../../helpers/present";

let admin: TestUser;
let creator: TestUser;
const channelRowId = crypto.randomUUID();
const channelId = `UCseed${crypto.randomUUID().slice(0, 8)}`;
const API = "/ai-thumbnail-editor/api";

beforeAll(async () => {
  [admin, creator] = await Promise.all([createUser("admin"), createUser("creator")]);
  await env.DB.prepare("INSERT INTO youtube_channels (id, user_id, channel_id, channel_title) VALUES (?, ?, ?, ?)")
    .bind(channelRowId, creator.id, channelId, `Seeded ${channelId}`)
    .run();
  for (let i = 0; i < 2; i++) await env.DB.batch(await thumbnailsSeed({ db: env.DB, media: env.MEDIA, adminId: admin.id, channelRowId, channelId }));
  await fetchApp("/auth");
}, 180_000);

const pngSize = (bytes: ArrayBuffer) => [new DataView(bytes).getUint32(16), new DataView(bytes).getUint32(20)];

describe("the thumbnail editor's seed", () => {
  it("is idempotent", async () => {
    expect(await count("SELECT count(*) AS n FROM thumbnail_projects WHERE id = ?", THUMBNAILS_SEED.projectId)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM thumbnail_assets WHERE project_id = ?", THUMBNAILS_SEED.projectId)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM thumbnail_exports WHERE id = ?", THUMBNAILS_SEED.exportId)).toBe(1);
  });

  it("dates the project and its export five days before today, the export after the project", async () => {
    const project = await env.DB.prepare("SELECT created_at FROM thumbnail_projects WHERE id = ?")
      .bind(THUMBNAILS_SEED.projectId)
      .first<{ created_at: string }>();
    const exported = await env.DB.prepare("SELECT created_at FROM thumbnail_exports WHERE id = ?")
      .bind(THUMBNAILS_SEED.exportId)
      .first<{ created_at: string }>();
    const fiveDaysAgo = addDays(dayOf(new Date()), -5);
    expect(project?.created_at.slice(0, 10)).toBe(fiveDaysAgo);
    expect(exported?.created_at.slice(0, 10)).toBe(fiveDaysAgo);
    expect(String(exported?.created_at) > String(project?.created_at)).toBe(true);
  });

  it("lists the project and the export on the page, and the project opens with its image", async () => {
    const page = await fetchApp("/ai-thumbnail-editor", withCookie(admin.cookie));
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain(THUMBNAILS_SEED.name);
    expect(html).toContain(`Open ${THUMBNAILS_SEED.name}`);

    const opened = await fetchApp(`${API}?project=${THUMBNAILS_SEED.projectId}`, withCookie(admin.cookie));
    expect(opened.status).toBe(200);
    const project = (await opened.json()) as { document: unknown; assets: Record<string, string> };
    const doc = documentSchema.parse(project.document);
    expect(doc.layers.map((l) => l.kind)).toEqual(["image", "shape", "text"]);
    const image = await fetchApp(present(project.assets[THUMBNAILS_SEED.assetId], "the seeded asset's URL"), withCookie(admin.cookie));
    expect(image.status).toBe(200);
    expect(pngSize(await image.arrayBuffer())).toEqual([1280, 720]);
  });

  it("the export downloads as a 1280×720 PNG", async () => {
    const html = await (await fetchApp("/ai-thumbnail-editor", withCookie(admin.cookie))).text();
    const href = new RegExp(`/media/signed/${THUMBNAILS_SEED.exportKey}\\?exp=\\d+&amp;sig=[0-9a-f]{64}`).exec(html)?.[0];
    expect(href).toBeTruthy();
    const res = await fetchApp((href as string).replace(/&amp;/g, "&"), withCookie(admin.cookie));
    expect(res.status).toBe(200);
    expect(pngSize(await res.arrayBuffer())).toEqual([1280, 720]);
  });

  it("gives the demo channel the stand-in's thumbnail, which the editor's panel opens", async () => {
    const list = await fetchApp(`${API}?channels=${channelId}`, withCookie(admin.cookie));
    expect(((await list.json()) as { channels: { id: string; hasThumbnail: boolean }[] }).channels).toEqual([
      expect.objectContaining({ id: channelRowId, hasThumbnail: true }),
    ]);
    const form = new FormData();
    form.set("intent", "channel-thumbnail");
    form.set("channelId", channelRowId);
    const res = await fetchApp(API, withCookie(admin.cookie, { method: "POST", body: form, headers: { Origin: ORIGIN } }));
    expect(res.status).toBe(200);
    expect(pngSize(await res.arrayBuffer())).toEqual([240, 240]);
  });
});
