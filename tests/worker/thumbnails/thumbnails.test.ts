// The thumbnail editor's server side (issue 19): admin-only page and API (with the spec's
// unauthorized-access audit), project save/load with images in MEDIA and optimistic versions,
// exports at the format's exact size with signed downloads, sending an export to a creator once,
// bad input refused with nothing stored, and the server-AI path answering 503 where no binding is.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { THUMBNAIL_MESSAGES } from "~/modules/thumbnails/messages";
import { type TestUser, userBeforeAll } from "../../factories/users";
import { count, fetchApp, ORIGIN, outcome, withCookie } from "../helpers";
import { pngHeader } from "../../factories/images";
import { present } from "../../helpers/present";

const admin = userBeforeAll("admin");
const creator = userBeforeAll("creator");

beforeAll(async () => {
  await fetchApp("/auth");
}, 180_000);

const API = "/ai-thumbnail-editor/api";

const png = pngHeader;

function post(user: TestUser | null, fields: Record<string, string>, files: Record<string, File> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  for (const [k, f] of Object.entries(files)) form.set(k, f);
  return fetchApp(API, withCookie(user?.cookie ?? null, { method: "POST", body: form, headers: { Origin: ORIGIN } }));
}

const doc = (assetId: string, text = "HELLO") =>
  JSON.stringify({
    format: "landscape",
    background: "transparent",
    adjust: { brightness: 100, contrast: 100, saturation: 100 },
    layers: [
      { id: "img1", kind: "image", name: "Image", assetId, x: 640, y: 360, width: 1280, height: 720, rotation: 0, hidden: false },
      {
        id: "txt1",
        kind: "text",
        name: "Text",
        text,
        font: "Anton",
        size: 120,
        color: "#ffffff",
        outlineColor: "#000000",
        outlineWidth: 6,
        shadow: true,
        x: 640,
        y: 180,
        width: 600,
        height: 150,
        rotation: 0,
        hidden: false,
      },
    ],
  });

async function saveNew(name = "Project") {
  const res = await post(
    admin,
    { intent: "save-project", name, document: doc("local1") },
    { "asset:local1": new File([png(1600, 900) as BlobPart], "photo.png") },
  );
  expect(res.status).toBe(200);
  return (await res.json()) as { ok: true; id: string; version: number };
}

describe("admin only", () => {
  it("the page: admins open it, others are refused, and a creator's visit is audited", async () => {
    expect(await outcome(await fetchApp("/ai-thumbnail-editor"))).toBe("→/auth");
    const before = await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'admin_access_denied' AND user_id = ?", creator.id);
    expect(await outcome(await fetchApp("/ai-thumbnail-editor", withCookie(creator.cookie)))).toBe("→/dashboard");
    expect(await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'admin_access_denied' AND user_id = ?", creator.id)).toBeGreaterThan(
      before,
    );
    const res = await fetchApp("/ai-thumbnail-editor", withCookie(admin.cookie));
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("AI Thumbnail Editor");
    expect(html).toContain(THUMBNAIL_MESSAGES.aiUnavailable.replace(/'/g, "&#x27;"));
  });

  it("the CSP is loosened on this page only: a worker from our own origin", async () => {
    const page = await fetchApp("/ai-thumbnail-editor", withCookie(admin.cookie));
    expect(page.headers.get("Content-Security-Policy")).toContain("worker-src 'self'");
    expect(page.headers.get("Content-Security-Policy")).not.toContain("unsafe-eval");
    const other = await fetchApp("/admin", withCookie(admin.cookie));
    expect(other.headers.get("Content-Security-Policy")).not.toContain("worker-src");
  });

  it("the API: 401 signed out, 403 for non-admins, nothing stored", async () => {
    const rows = await count("SELECT count(*) AS n FROM thumbnail_projects");
    expect((await post(null, { intent: "save-project", name: "x", document: doc("a") })).status).toBe(401);
    expect((await post(creator, { intent: "save-project", name: "x", document: doc("a") })).status).toBe(403);
    expect((await fetchApp(`${API}?project=${crypto.randomUUID()}`, withCookie(creator.cookie))).status).toBe(403);
    expect(await count("SELECT count(*) AS n FROM thumbnail_projects")).toBe(rows);
  });
});

describe("projects", () => {
  it("saves layers and images (in MEDIA) and opens them again with signed image URLs", async () => {
    const saved = await saveNew("Save and load");
    expect(saved.version).toBe(1);
    const asset = await env.DB.prepare("SELECT id, storage_key, width, height FROM thumbnail_assets WHERE project_id = ?")
      .bind(saved.id)
      .first<{ id: string; storage_key: string; width: number; height: number }>();
    expect(asset).toMatchObject({ width: 1600, height: 900 });
    expect(asset?.storage_key).toMatch(/^thumbnails\/assets\/[0-9a-f-]+\.png$/);
    expect(await env.MEDIA.head(asset?.storage_key ?? "")).not.toBeNull();

    const res = await fetchApp(`${API}?project=${saved.id}`, withCookie(admin.cookie));
    expect(res.status).toBe(200);
    const project = (await res.json()) as { name: string; document: { layers: { assetId?: string; text?: string }[] }; assets: Record<string, string> };
    expect(project.name).toBe("Save and load");
    expect(present(project.document.layers[0], "the image layer").assetId).toBe(asset?.id);
    expect(present(project.document.layers[1], "the text layer").text).toBe("HELLO");
    const url = present(project.assets[asset?.id ?? ""], "the asset's URL");
    expect(url).toMatch(/^\/media\/signed\/thumbnails\/assets\//);
    const image = await fetchApp(url);
    expect(image.status).toBe(200);
    expect(image.headers.get("Content-Type")).toBe("image/png");
  });

  it("a save from a stale version is refused (409) and parallel saves store exactly one", async () => {
    const saved = await saveNew("Versions");
    const assetId = (await env.DB.prepare("SELECT id FROM thumbnail_assets WHERE project_id = ?").bind(saved.id).first<{ id: string }>())?.id ?? "";
    const update = (text: string, version: number) =>
      post(admin, { intent: "save-project", projectId: saved.id, version: String(version), name: "Versions", document: doc(assetId, text) });
    const results = await Promise.all([update("A", 1), update("B", 1), update("C", 1)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const refused = (await results.find((r) => r.status === 409)?.json()) as { error: string };
    expect(refused.error).toBe(THUMBNAIL_MESSAGES.conflict);
    const row = await env.DB.prepare("SELECT version, document FROM thumbnail_projects WHERE id = ?")
      .bind(saved.id)
      .first<{ version: number; document: string }>();
    expect(row?.version).toBe(2);
    expect((await update("D", 1)).status).toBe(409);
    expect((await update("D", 2)).status).toBe(200);
  });

  it("bad input: not an image by its bytes, too many pixels, unknown image, broken JSON, not a form — nothing stored", async () => {
    const projects = await count("SELECT count(*) AS n FROM thumbnail_projects");
    const assets = await count("SELECT count(*) AS n FROM thumbnail_assets");
    const notImage = await post(
      admin,
      { intent: "save-project", name: "Bad", document: doc("l1") },
      { "asset:l1": new File(["GIF? no, text"], "x.png", { type: "image/png" }) },
    );
    expect(notImage.status).toBe(400);
    expect(((await notImage.json()) as { error: string }).error).toBe(THUMBNAIL_MESSAGES.notImage);
    const huge = await post(
      admin,
      { intent: "save-project", name: "Bad", document: doc("l1") },
      { "asset:l1": new File([png(8001, 100) as BlobPart], "x.png") },
    );
    expect(huge.status).toBe(400);
    expect(((await huge.json()) as { error: string }).error).toBe(THUMBNAIL_MESSAGES.tooManyPixels);
    const unknown = await post(admin, { intent: "save-project", name: "Bad", document: doc("nobody") });
    expect(unknown.status).toBe(400);
    const broken = await post(admin, { intent: "save-project", name: "Bad", document: "{not json" });
    expect(broken.status).toBe(400);
    const json = await fetchApp(API, withCookie(admin.cookie, { method: "POST", body: "{}", headers: { Origin: ORIGIN, "Content-Type": "application/json" } }));
    expect(json.status).toBe(415);
    expect(await count("SELECT count(*) AS n FROM thumbnail_projects")).toBe(projects);
    expect(await count("SELECT count(*) AS n FROM thumbnail_assets")).toBe(assets);
  });

  it("an image over 20 MB is refused with the clear message", async () => {
    const big = new Uint8Array(20 * 1024 * 1024 + 10);
    big.set(png(100, 100));
    const res = await post(admin, { intent: "save-project", name: "Big", document: doc("l1") }, { "asset:l1": new File([big as BlobPart], "big.png") });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe(THUMBNAIL_MESSAGES.tooLarge);
  });
});

describe("exports", () => {
  const exportPng = (width: number, height: number, format = "landscape") =>
    post(admin, { intent: "export", name: "My export", format }, { file: new File([png(width, height) as BlobPart], "thumb.png") });

  it("stores a PNG of the format's exact size privately and lists it with a signed URL", async () => {
    const res = await exportPng(1280, 720);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { export: { id: string; url: string; width: number; height: number } };
    expect(body.export).toMatchObject({ width: 1280, height: 720 });
    expect(body.export.url).toMatch(/^\/media\/signed\/thumbnails\/exports\/[0-9a-f-]+\.png\?exp=\d+&sig=[0-9a-f]{64}$/);
    const file = await fetchApp(body.export.url);
    expect(file.status).toBe(200);
    expect(new Uint8Array(await file.arrayBuffer()).slice(0, 4)).toEqual(png(1, 1).slice(0, 4));
    // Unsigned, the key is not reachable.
    expect((await fetchApp(present(body.export.url.split("?")[0], "the export's path"))).status).toBe(403);
    const page = await (await fetchApp("/ai-thumbnail-editor", withCookie(admin.cookie))).text();
    expect(page).toContain(body.export.id);
  });

  it("refuses the wrong size, a GIF, and a portrait export of landscape size", async () => {
    const rows = await count("SELECT count(*) AS n FROM thumbnail_exports");
    const wrong = await exportPng(1000, 720);
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { error: string }).error).toBe("An export of this format is 1280×720 pixels.");
    expect((await exportPng(1280, 720, "portrait")).status).toBe(400);
    const gif = new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x00, 0x05, 0xd0, 0x02, 0, 0]);
    expect((await post(admin, { intent: "export", name: "g", format: "landscape" }, { file: new File([gif], "g.gif") })).status).toBe(400);
    expect(await count("SELECT count(*) AS n FROM thumbnail_exports")).toBe(rows);
  });

  it("sends an export to a creator once: public image copy, bell notification, audit", async () => {
    const stored = ((await (await exportPng(1280, 720)).json()) as { export: { id: string } }).export;
    const send = () => post(admin, { intent: "send-export", exportId: stored.id, email: creator.email });
    const results = await Promise.all([send(), send(), send()]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const n = await env.DB.prepare(
      "SELECT n.image_url AS image FROM user_notifications u JOIN notifications n ON n.id = u.notification_id WHERE u.user_id = ? AND n.kind = 'thumbnail'",
    )
      .bind(creator.id)
      .all<{ image: string }>();
    expect(n.results).toHaveLength(1);
    const image = present(n.results[0], "the notification").image;
    expect(image).toMatch(/^notifications\/[0-9a-f-]+\.png$/);
    expect(await env.AVATARS.head(image)).not.toBeNull();
    expect(await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'thumbnail_sent' AND target_user_id = ?", creator.id)).toBe(1);
    // The creator sees it in the bell feed with a public image URL.
    const feed = await (await fetchApp("/api/notifications", withCookie(creator.cookie))).text();
    expect(feed).toContain("/media/avatars/notifications/");
  });

  it("an unknown creator e-mail is a field error, nothing sent", async () => {
    const stored = ((await (await exportPng(1280, 720)).json()) as { export: { id: string } }).export;
    const res = await post(admin, { intent: "send-export", exportId: stored.id, email: "nobody-here@example.com" });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe(THUMBNAIL_MESSAGES.noCreator);
    expect(await count("SELECT count(*) AS n FROM thumbnail_exports WHERE id = ? AND sent_at IS NOT NULL", stored.id)).toBe(0);
  });
});

describe("server AI", () => {
  it("without a Workers AI binding, caption ideas answer 503 with the reason", async () => {
    const res = await post(admin, { intent: "caption-ideas", title: "I tried the spiciest noodles" });
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: string }).error).toBe(THUMBNAIL_MESSAGES.aiUnavailable);
  });
});
