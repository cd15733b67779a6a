import type { Page } from "@playwright/test";
import { expect, signIn, test } from "./fixtures";

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

test("at 1440 px the sidebar is expanded from the first paint, and hydration changes nothing in it", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, "admin@shortbeat.test", { landing: "**/dashboard" });
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
  await signIn(page, "admin@shortbeat.test", { landing: "**/dashboard" });
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

test("moving between app and admin pages keeps the same shell: focus stays on the followed link, the socket stays open", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  // Counts the notification sockets the page opens (a rebuilt shell would open another).
  await page.addInitScript(() => {
    const w = window as unknown as { socketsOpened: number };
    w.socketsOpened = 0;
    const Native = window.WebSocket;
    window.WebSocket = class extends Native {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols);
        if (String(url).includes("/api/notifications")) w.socketsOpened++;
      }
    };
  });
  await signIn(page, "admin@shortbeat.test", { landing: "**/dashboard" });
  const sidebar = page.locator("#app-sidebar");
  await expect(sidebar.getByRole("link", { name: "Dashboard", exact: true })).toHaveAttribute("aria-current", "page");
  await expect.poll(() => page.evaluate(() => (window as unknown as { socketsOpened: number }).socketsOpened)).toBe(1);
  // Marks the shell's DOM node: a shell built again would not carry the mark.
  await sidebar.evaluate((el) => el.setAttribute("data-probe", "first"));

  const hops = [
    { name: "Admin", url: "**/admin", heading: "Admin" },
    { name: "Music Library", url: "**/music", heading: "Music Library" },
    { name: "Chat Management", url: "**/chat-management", heading: "Chat Management" },
  ];
  for (const hop of hops) {
    const link = sidebar.getByRole("link", { name: hop.name, exact: true });
    await link.focus();
    await page.keyboard.press("Enter");
    await page.waitForURL(hop.url);
    await expect(link).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("heading", { level: 1 })).toContainText(hop.heading);
    await expect(sidebar).toHaveAttribute("data-probe", "first");
    await expect(link).toBeFocused();
  }
  expect(await page.evaluate(() => (window as unknown as { socketsOpened: number }).socketsOpened)).toBe(1);
});

test("the plain links of rows, cards and the admin tabs (0346) move inside the same shell, by keyboard too", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, "admin@shortbeat.test", { landing: "**/dashboard" });
  const sidebar = page.locator("#app-sidebar");
  // Marks the shell's DOM node: a document load would build it again without the mark.
  await sidebar.evaluate((el) => el.setAttribute("data-probe", "first"));

  // A dashboard card, by Enter.
  const card = page.getByRole("link", { name: /Explore Library/ });
  await card.focus();
  await page.keyboard.press("Enter");
  await page.waitForURL("**/music");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Music Library");
  await expect(sidebar).toHaveAttribute("data-probe", "first");

  // A library row's 'Similar tracks', by click.
  const similar = page.getByRole("link", { name: /^Similar tracks to / }).first();
  const href = await similar.getAttribute("href");
  await similar.click();
  await page.waitForURL(`**${href}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Similar to");
  await expect(sidebar).toHaveAttribute("data-probe", "first");

  // The admin console's tabs mark the current one, as the NavLinks did.
  await sidebar.getByRole("link", { name: "Admin", exact: true }).click();
  await page.waitForURL("**/admin");
  const tabs = page.getByRole("navigation", { name: "Admin console" });
  await expect(tabs.getByRole("link", { name: "Users" })).toHaveAttribute("aria-current", "page");
  await tabs.getByRole("link", { name: "Audit log" }).click();
  await page.waitForURL("**/admin/audit-log");
  await expect(tabs.getByRole("link", { name: "Audit log" })).toHaveAttribute("aria-current", "page");
  await expect(tabs.getByRole("link", { name: "Users" })).not.toHaveAttribute("aria-current", "page");
  await expect(sidebar).toHaveAttribute("data-probe", "first");

  // A user row's 'Manage' opens the panel in place (client-side, the scroll kept).
  await tabs.getByRole("link", { name: "Users" }).click();
  await page.waitForURL("**/admin");
  await page.setViewportSize({ width: 1440, height: 500 });
  const manage = page.getByRole("link", { name: /^Manage / }).last();
  await manage.scrollIntoViewIfNeeded();
  const before = await page.evaluate(() => window.scrollY);
  expect(before).toBeGreaterThan(0);
  await manage.click();
  await page.waitForURL(/\/admin\?user=/);
  await expect(sidebar).toHaveAttribute("data-probe", "first");
  // Not scrolled to the top (preventScrollReset): the panel opens above the list and the browser's
  // scroll anchoring keeps the row where it was, as with the <Link preventScrollReset> before.
  await expect(manage).toBeInViewport();
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThanOrEqual(before);
  // A modified click is the browser's (a new tab), not a navigation of this page.
  const url = page.url();
  await page
    .getByRole("link", { name: /Manage / })
    .first()
    .click({ modifiers: ["Control"] });
  await expect.poll(() => page.url()).toBe(url);
});
