import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

// The signed-in shell's layout comes from CSS at both widths (docs/decisions/0095): the server's
// HTML is already right, so hydration changes nothing in the sidebar or the toggle's state, and
// the slide-over under 768 px still opens, moves focus in, and closes by Escape and the backdrop.

/** Records every change React makes to the sidebar or the toggles after the HTML has arrived. */
async function watchShell(page: Page) {
  await page.addInitScript(() => {
    const changes: string[] = [];
    (window as unknown as { shellChanges: string[] }).shellChanges = changes;
    const observer = new MutationObserver((records) => {
      for (const r of records) {
        const el = r.target instanceof Element ? r.target : r.target.parentElement;
        if (!el?.closest("#app-sidebar") && !(el?.getAttribute("aria-label") === "Toggle sidebar" && r.attributeName === "aria-expanded")) continue;
        changes.push(`${r.type} ${r.attributeName ?? ""} on ${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}`);
      }
    });
    // From the end of the HTML's parsing (readyState "interactive"), before the deferred module scripts hydrate.
    document.addEventListener("readystatechange", () => {
      if (document.readyState === "interactive") observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    });
  });
}

const shellChanges = (page: Page) => page.evaluate(() => (window as unknown as { shellChanges: string[] }).shellChanges);

async function signIn(page: Page) {
  await page.goto("/auth");
  await page.getByLabel("Email").fill("admin@shortbeat.test");
  await page.getByLabel("Password").fill("Shortbeat#2026");
  await page.getByRole("button", { name: "Sign In" }).click();
  await page.waitForURL("**/dashboard");
}

test("at 1440 px the sidebar is expanded from the first paint, and hydration changes nothing in it", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  await watchShell(page);
  await page.goto("/dashboard");
  await page.waitForLoadState("networkidle");
  const sidebar = page.locator("#app-sidebar");
  await expect(sidebar).toHaveAttribute("data-state", "expanded");
  expect((await sidebar.boundingBox())?.width).toBe(256);
  await expect(sidebar.getByRole("link", { name: "Dashboard", exact: true })).toBeVisible();
  await expect(sidebar.getByRole("button", { name: "Close sidebar" })).toBeHidden();
  const toggle = page.getByRole("button", { name: "Toggle sidebar" });
  await expect(toggle).toHaveCount(1);
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  expect(await shellChanges(page)).toEqual([]);

  // Icon mode by the button and Ctrl+B, as before.
  await toggle.click();
  await expect(sidebar).toHaveAttribute("data-state", "collapsed");
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect.poll(async () => (await sidebar.boundingBox())?.width).toBe(48);
  await page.keyboard.press("Control+b");
  await expect(sidebar).toHaveAttribute("data-state", "expanded");
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
});

test("at 375 px the slide-over starts closed, opens by the button, closes by Escape and the backdrop", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await signIn(page);
  await watchShell(page);
  await page.goto("/dashboard");
  await page.waitForLoadState("networkidle");
  const sidebar = page.locator("#app-sidebar");
  const toggle = page.getByRole("button", { name: "Toggle sidebar" });
  await expect(toggle).toHaveCount(1);
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(sidebar).not.toBeInViewport();
  // Closed, its links are out of the tab order and the accessibility tree.
  await expect(sidebar.getByRole("link", { name: "Dashboard", exact: true })).toBeHidden();
  expect(await shellChanges(page)).toEqual([]);

  await toggle.click();
  await expect(sidebar).toBeInViewport();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await expect(sidebar.getByRole("link", { name: "Dashboard", exact: true })).toBeVisible();
  await expect(sidebar.getByRole("button", { name: "Close sidebar" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(sidebar).not.toBeInViewport();
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(toggle).toBeFocused();

  // Ctrl+B opens it too; a tap on the backdrop closes it; so does the close button.
  await page.keyboard.press("Control+b");
  await expect(sidebar).toBeInViewport();
  await page.mouse.click(360, 400);
  await expect(sidebar).not.toBeInViewport();
  await toggle.click();
  await sidebar.getByRole("button", { name: "Close sidebar" }).click();
  await expect(sidebar).not.toBeInViewport();
  await expect(toggle).toBeFocused();
});
