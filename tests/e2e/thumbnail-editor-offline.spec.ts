import { resolve } from "node:path";
import type { Page } from "@playwright/test";
import { expect, expectAccessible, signIn, test } from "./fixtures";

// Issue 31 §2: the editor offline in any tab. Before, background removal worked offline only in a
// tab that had already loaded the model; a new tab offline could not even open the page. Now the
// editor's service worker (public/ai-thumbnail-editor-sw.js, decision 0251) keeps the page, its
// files and, once used, the model: after one background removal online, a NEW tab of the same
// browser, offline, opens the editor and removes a background.

const PERSON = resolve(import.meta.dirname, "fixtures/person-eileen-collins.jpg");

/** What the editor's service worker has kept (paths), read from the page's Cache Storage. */
const kept = (page: Page) =>
  page.evaluate(async () => {
    const cache = await caches.open("thumbnail-editor-offline-v1");
    return (await cache.keys()).map((r) => new URL(r.url).pathname);
  });

test("after one background removal online, a new tab offline opens the editor and removes the background", async ({
  page,
  context,
  visit,
  expectConsoleErrors,
}) => {
  // On purpose: what the tabs ask the network for while the context is offline fails (the bell, its socket, images).
  expectConsoleErrors(/net::ERR_INTERNET_DISCONNECTED/);
  test.setTimeout(240_000);
  await signIn(page, "admin@shortbeat.test");
  await visit("/ai-thumbnail-editor");

  // One background removal online.
  await page.locator("#thumb-file").setInputFiles(PERSON);
  await page.getByRole("button", { name: "Remove background" }).click();
  await expect(page.getByText("Background removed")).toBeVisible({ timeout: 90_000 });
  await expect(page.getByRole("button", { name: "Cut-out", exact: true })).toBeVisible();
  // The service worker has kept the page and the model's files (it works in the background).
  await expect
    .poll(
      async () => {
        const paths = await kept(page);
        return ["/ai-thumbnail-editor", ".wasm", ".tflite", "/ai-thumbnail-editor/offline/segment.worker"].filter((p) => !paths.some((k) => k.includes(p)));
      },
      { timeout: 60_000 },
    )
    .toEqual([]);

  // A new tab, offline.
  await context.setOffline(true);
  const tab = await context.newPage();
  const errors: string[] = [];
  tab.on("pageerror", (e) => errors.push(e.message));
  const answer = await tab.goto("/ai-thumbnail-editor");
  // The kept copy answered (not the network: the service worker's own fetch failed too).
  expect(answer?.status()).toBe(200);
  expect(answer?.headers()["x-kept-at"]).toMatch(/^\d+$/);
  await expect(tab.getByRole("heading", { name: "AI Thumbnail Editor", level: 1 })).toBeVisible();
  // The draft of the first tab comes back (IndexedDB), and a new photo is cut out offline.
  await expect(tab.getByText("Draft restored")).toBeVisible();
  await tab.locator("#thumb-file").setInputFiles(PERSON);
  await expect(tab.getByRole("button", { name: "Image", exact: true })).toBeVisible();
  await tab.getByRole("button", { name: "Image", exact: true }).click();
  await tab.getByRole("button", { name: "Remove background" }).click();
  await expect(tab.getByText("Background removed")).toBeVisible({ timeout: 90_000 });
  await expect(tab.getByRole("button", { name: "Cut-out", exact: true })).toHaveCount(2);
  await expect(tab.locator("#main p[role=alert]")).toHaveCount(0);
  await expectAccessible(tab, "/ai-thumbnail-editor offline");
  await tab.screenshot({ path: "/tmp/thumbnail-editor-offline-tab.png", fullPage: true });
  expect(errors).toEqual([]);
  await context.setOffline(false);
});

test("signing out deletes the editor page kept for offline use", async ({ page, visit }) => {
  await signIn(page, "admin@shortbeat.test");
  await visit("/ai-thumbnail-editor");
  await expect.poll(async () => (await kept(page)).includes("/ai-thumbnail-editor"), { timeout: 30_000 }).toBe(true);
  // Online, the page still comes from the server (network first), through the service worker now.
  const online = await page.reload();
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toMatch(/\/ai-thumbnail-editor-sw\.js$/);
  expect(online?.headers()["x-kept-at"]).toBeUndefined();
  await expect(page.getByRole("heading", { name: "AI Thumbnail Editor", level: 1 })).toBeVisible();
  await page.getByRole("button", { name: "Account menu" }).click();
  await page.getByRole("dialog", { name: "Account" }).getByRole("button", { name: "Sign out", exact: true }).click();
  await page.waitForURL(/\/auth$/);
  await expect.poll(async () => (await kept(page)).length, { timeout: 10_000 }).toBe(0);
  expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0);
});

test("offline, Export saves the file to the device and Save waits for the connection, then saves", async ({ page, context, visit, expectConsoleErrors }) => {
  // On purpose: the export's and the save's requests (and the bell's) fail while the context is offline.
  expectConsoleErrors(/net::ERR_INTERNET_DISCONNECTED/);
  test.setTimeout(120_000);
  await signIn(page, "admin@shortbeat.test");
  await visit("/ai-thumbnail-editor");
  await page.getByRole("button", { name: "Add text" }).click();
  await page.getByLabel("Text", { exact: true }).fill("OFFLINE TITLE");
  await page.getByLabel("Name", { exact: true }).fill("Made offline");

  await context.setOffline(true);
  // Export: drawn in the browser, downloaded, not stored (no Recent exports entry offline).
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: /^Export \d+×\d+$/ }).click();
  expect((await download).suggestedFilename()).toMatch(/\.png$/);
  await expect(page.getByText("Thumbnail exported to this device")).toBeVisible();
  await expect(page.getByText("Export failed")).toHaveCount(0);

  // Save: waits, says so, and saves once the connection is back.
  await page.getByRole("button", { name: "Save project" }).click();
  await expect(page.getByText("Save waiting for the connection")).toBeVisible();
  await expect(page.getByText("Project not saved")).toHaveCount(0);
  await context.setOffline(false);
  await expect(page.getByText("Project saved")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole("button", { name: "Open Made offline" })).toBeVisible({ timeout: 15_000 });
});
