import { expect, expectAccessible, test } from "./fixtures";

// Issue 19: the admin's thumbnail editor. Opens an image, adds text with an outline, crops 9:16,
// removes the background with the in-browser model (Web Worker, files from our own origin),
// exports a PNG and checks its size and that its corners are transparent; bad files get a clear
// message; the server-AI buttons are disabled with their reason.
//
// The test image is a synthetic figure (head and shoulders drawn on a canvas by this test), not a
// photograph: no licence is involved. See tests/e2e/thumbnail-editor.README.md.

/** A 1280×720 PNG of a drawn person (skin-tone head, dark torso) on a green backdrop. */
async function syntheticPerson(page: import("@playwright/test").Page): Promise<Buffer> {
  const dataUrl = await page.evaluate(() => {
    const c = document.createElement("canvas");
    c.width = 1280;
    c.height = 720;
    const g = c.getContext("2d") as CanvasRenderingContext2D;
    g.fillStyle = "#33aa77";
    g.fillRect(0, 0, 1280, 720);
    g.fillStyle = "#e0b090";
    g.beginPath();
    g.arc(640, 260, 90, 0, Math.PI * 2);
    g.fill();
    g.fillStyle = "#222244";
    g.fillRect(520, 360, 240, 360);
    return c.toDataURL("image/png");
  });
  return Buffer.from(dataUrl.split(",")[1], "base64");
}

test("an admin makes a 9:16 thumbnail with a cut-out subject and exports it as PNG", async ({ page, visit, consoleErrors }) => {
  test.setTimeout(180_000);
  await page.goto("/auth");
  await page.getByLabel("Email").fill("admin@shortbeat.test");
  await page.getByLabel("Password").fill("Shortbeat#2026");
  await page.getByRole("button", { name: "Sign In" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/auth"));

  await visit("/ai-thumbnail-editor");
  await expect(page.getByRole("heading", { name: "AI Thumbnail Editor", level: 1 })).toBeVisible();
  // The model is not loaded before an AI action asks for it.
  const modelRequests: string[] = [];
  page.on("request", (r) => {
    if (/\.(wasm|tflite)(\?|$)/.test(r.url()) || /segment/.test(r.url())) modelRequests.push(r.url());
  });

  // Server AI: disabled, with the reason.
  await expect(page.getByRole("button", { name: "Caption ideas" })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Generate background" })).toBeDisabled();
  await expect(page.getByText("Needs the Workers AI binding (AI), which is not configured on this deployment.")).toBeVisible();

  // Bad input: a text file named .png.
  await page.locator("#thumb-file").setInputFiles({ name: "fake.png", mimeType: "image/png", buffer: Buffer.from("this is not an image at all") });
  await expect(page.locator("#main p[role=alert]")).toHaveText("This file is not an image. Choose a PNG, JPEG, WebP or GIF file.");

  // Open the test image, add text with an outline.
  await page.locator("#thumb-file").setInputFiles({ name: "person.png", mimeType: "image/png", buffer: await syntheticPerson(page) });
  await expect(page.getByRole("button", { name: "Image", exact: true })).toBeVisible();
  expect(modelRequests).toEqual([]);
  await page.getByRole("button", { name: "Add text" }).click();
  await page.getByLabel("Text", { exact: true }).fill("WATCH THIS");
  await page.getByLabel("Outline width").fill("10");
  await expect(page.getByRole("button", { name: "Text: WATCH THIS" })).toBeVisible();

  // Crop 9:16.
  await page.getByRole("button", { name: "9:16" }).click();
  await expect(page.getByRole("button", { name: "Export 1080×1920" })).toBeVisible();

  // Remove the background (select the image first).
  await page.getByRole("button", { name: "Image", exact: true }).click();
  await page.getByRole("button", { name: "Remove background" }).click();
  await expect(page.getByText(/Loading the model|Finding the subject|Cutting out/).first()).toBeVisible();
  await expect(page.getByText("Background removed")).toBeVisible({ timeout: 90_000 });
  await expect(page.getByRole("button", { name: "Cut-out", exact: true })).toBeVisible();
  const segmentMs = await page.evaluate(() => document.documentElement.dataset.segmentMs);
  console.log(`background removal (model run, 1280x720): ${segmentMs} ms`);
  // Every model file came from our own origin.
  expect(modelRequests.length).toBeGreaterThan(0);
  for (const url of modelRequests) expect(new URL(url).host).toBe(new URL(page.url()).host);

  // Undo and redo the cut-out.
  await page.getByRole("button", { name: "Undo" }).click();
  await expect(page.getByRole("button", { name: "Image", exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Redo" }).click();
  await expect(page.getByRole("button", { name: "Cut-out", exact: true })).toBeVisible();

  // Export a PNG.
  await page.getByLabel("Name", { exact: true }).fill("Journey thumbnail");
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export 1080×1920" }).click();
  await expect(page.getByText("Thumbnail exported")).toBeVisible({ timeout: 30_000 });
  await download;
  const href = await page.getByTestId("last-export").getByRole("link").getAttribute("href");
  expect(href).toMatch(/^\/media\/signed\/thumbnails\/exports\/[0-9a-f-]+\.png\?exp=\d+&sig=[0-9a-f]{64}$/);
  const stored = await page.request.get(href as string);
  expect(stored.status()).toBe(200);
  const png = await stored.body();
  expect(png.readUInt32BE(16)).toBe(1080);
  expect(png.readUInt32BE(20)).toBe(1920);
  const pixels = await page.evaluate(async (url) => {
    const bmp = await createImageBitmap(await (await fetch(url)).blob());
    const c = new OffscreenCanvas(bmp.width, bmp.height);
    const g = c.getContext("2d") as OffscreenCanvasRenderingContext2D;
    g.drawImage(bmp, 0, 0);
    const at = (x: number, y: number) => Array.from(g.getImageData(x, y, 1, 1).data);
    return { corners: [at(0, 0), at(bmp.width - 1, 0), at(0, bmp.height - 1), at(bmp.width - 1, bmp.height - 1)], centre: at(540, 960) };
  }, href as string);
  for (const c of pixels.corners) expect(c[3]).toBe(0);
  // The subject is still there (the torso at the centre is opaque).
  expect(pixels.centre[3]).toBeGreaterThan(200);

  // A tampered signature is refused.
  const tampered = await page.request.get((href as string).replace(/sig=[0-9a-f]/, (m) => (m.endsWith("0") ? `${m.slice(0, -1)}1` : `${m.slice(0, -1)}0`)));
  expect(tampered.status()).toBe(403);

  // Save the project, reload, reopen it.
  await page.getByRole("button", { name: "Save project" }).click();
  await expect(page.getByText("Project saved")).toBeVisible({ timeout: 30_000 });
  await page.reload();
  await expect(page.getByRole("heading", { name: "Recent exports" })).toBeVisible();
  await expect(page.getByRole("img", { name: "Journey thumbnail thumbnail" })).toBeVisible();
  await page.getByRole("button", { name: "Open Journey thumbnail" }).click();
  await expect(page.getByRole("button", { name: "Text: WATCH THIS" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Cut-out", exact: true })).toBeVisible();
  await expectAccessible(page, "/ai-thumbnail-editor (editing)");

  await page.screenshot({ path: "/tmp/thumbnail-editor-1440.png", fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await expectAccessible(page, "/ai-thumbnail-editor at 375 px");
  await page.screenshot({ path: "/tmp/thumbnail-editor-375.png", fullPage: true });
  expect(consoleErrors.filter((e) => /Content Security Policy|Refused/i.test(e))).toEqual([]);
});
