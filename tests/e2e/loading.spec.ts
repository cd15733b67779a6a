import { join } from "node:path";
import type { Page, Route } from "@playwright/test";
import { expect, expectAccessible, signIn, test } from "./fixtures";
import { present } from "../helpers/present";

// Spec section 2: pages load on demand behind a 'Loading...' spinner, with 'Taking longer than
// usual?' and 'Reset Session' after 10 s; the header shows a skeleton circle in place of the avatar
// while it loads.

const CREATOR = "creator@shortbeat.test";
// A valid 1×1 PNG.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

/** Holds every request matching `pattern` until `release()` (then lets them, and later ones, through). */
async function hold(page: Page, pattern: (url: URL) => boolean) {
  const held: Route[] = [];
  let open = false;
  await page.route(pattern, (route) => (open ? route.continue() : void held.push(route)));
  return {
    count: () => held.length,
    release: async () => {
      open = true;
      for (const route of held.splice(0)) await route.continue();
    },
  };
}

test("a slow navigation shows 'Loading...', then after 10 s 'Reset Session', which ends the session and clears storage", async ({ page, request }) => {
  await signIn(page, CREATOR, { landing: "**/dashboard" });
  const [found] = (await page.context().cookies()).filter((c) => c.name.endsWith("sb_session"));
  expect(found).toBeTruthy();
  const session = present(found, "the sb_session cookie");
  // The old session works before the reset.
  const before = await request.get("/dashboard", { headers: { Cookie: `${session.name}=${session.value}` }, maxRedirects: 0 });
  expect(before.status()).toBe(200);

  await page.clock.install();
  await page.goto("/dashboard");
  await page.evaluate(() => {
    localStorage.setItem("shortbeat_favorites_x", '["a"]');
    sessionStorage.setItem("draft", "kept?");
  });

  // The page's clock stands still unless the test moves it (the machine's speed does not matter).
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);

  // The channels page's data never arrives.
  const channelsData = await hold(page, (url) => url.pathname === "/channels.data");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Channels" }).click();
  await expect.poll(channelsData.count).toBeGreaterThan(0);

  // A fast navigation shows nothing: no spinner before the short delay.
  const status = page.getByRole("status").filter({ hasText: "Loading..." });
  await page.clock.runFor(100);
  await expect(status).toHaveCount(0);
  await page.clock.runFor(300);
  await expect(status).toBeVisible();
  await expect(page.getByText("Taking longer than usual?")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Reset Session" })).toHaveCount(0);

  await page.clock.runFor(10_000);
  await expect(status.getByText("Taking longer than usual?")).toBeVisible();
  const reset = page.getByRole("button", { name: "Reset Session" });
  await expect(reset).toBeVisible();
  await page.clock.resume(); // axe-core needs its timers
  await expectAccessible(page, "loading screen");
  for (const width of [1440, 375]) {
    await page.setViewportSize({ width, height: 800 });
    await expect(reset).toBeInViewport();
    // SHOTS_DIR keeps them out of test-results/, which the next Playwright run empties.
    await page.screenshot({ path: join(process.env.SHOTS_DIR ?? test.info().outputPath(), `loading-screen-${width}.png`) });
  }

  // By keyboard: the button takes focus and Enter submits it.
  await reset.focus();
  await page.keyboard.press("Enter");
  await page.waitForURL("**/auth");
  await page.clock.runFor(100); // the toast is shown one tick after load
  await expect(page.getByText("You have been signed out.")).toBeVisible();
  // Nothing left behind, not even the router's scroll positions saved as the page went.
  expect(await page.evaluate(() => [...Object.keys(localStorage), ...Object.keys(sessionStorage)])).toEqual([]);

  // The old session cookie no longer opens anything: /dashboard sends it to /auth.
  const after = await request.get("/dashboard", { headers: { Cookie: `${session.name}=${session.value}` }, maxRedirects: 0 });
  expect(after.status()).toBeGreaterThanOrEqual(300);
  expect(after.status()).toBeLessThan(400);
  expect(new URL(after.headers().location ?? "", "http://x").pathname).toBe("/auth");
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/auth/);
  await channelsData.release();
});

test("a navigation that answers quickly never shows the loading screen", async ({ page }) => {
  await signIn(page, CREATOR, { landing: "**/dashboard" });
  await page.clock.install();
  await page.goto("/dashboard");
  let shown = false;
  await page.exposeFunction("loadingShown", () => {
    shown = true;
  });
  await page.evaluate(() => {
    new MutationObserver(() => {
      if (document.querySelector("[data-loading-screen]")) (window as unknown as { loadingShown: () => void }).loadingShown();
    }).observe(document.body, { childList: true, subtree: true });
  });
  // The clock stands still while the navigation runs over the real network: its 300 ms timer has not
  // fired when the page arrives, and must be cancelled then, not fire later.
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Channels" }).click();
  await page.waitForURL("**/channels");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await page.clock.runFor(1_000);
  expect(shown).toBe(false);
});

test("the header shows a skeleton circle in place of the avatar until the picture arrives", async ({ page }) => {
  await signIn(page, CREATOR, { landing: "**/dashboard" });
  await page.goto("/profile");
  const accountMenu = page.getByRole("banner").getByRole("button", { name: "Account menu" });
  const skeleton = page.getByRole("banner").getByTestId("avatar-skeleton");

  // A new picture: the shell re-reads the profile, and the header waits for the new image.
  let avatars = await hold(page, (url) => url.pathname.startsWith("/media/avatars/"));
  await page.getByLabel("Upload a new picture").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: PNG });
  await page.getByRole("button", { name: "Upload picture" }).click();
  await expect(skeleton).toBeVisible();
  await expect(accountMenu).toHaveAttribute("aria-busy", "true");
  await expectAccessible(page, "header with avatar loading");
  await avatars.release();
  await expect(skeleton).toHaveCount(0);
  await expect(accountMenu).not.toHaveAttribute("aria-busy", "true");
  const img = accountMenu.locator("img");
  await expect(img).toBeVisible();
  expect(await img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBeGreaterThan(0);

  // A fresh page load: the server's HTML already has the skeleton; it goes when the image loads.
  await page.unrouteAll();
  avatars = await hold(page, (url) => url.pathname.startsWith("/media/avatars/"));
  await page.goto("/dashboard", { waitUntil: "domcontentloaded" }); // "load" would wait for the held image
  await expect(skeleton).toBeVisible();
  await avatars.release();
  await expect(skeleton).toHaveCount(0);
  await expect(accountMenu.locator("img")).toBeVisible();
});
