import { expect, signIn, test } from "./fixtures";

// Issue 42 §2 (docs/decisions/0313): offline, a sidebar link keeps the person in the signed-in shell.
// A page never visited (its code not in the browser yet) and one visited before (its code loaded,
// its data not) both show "You're offline — this page needs a connection" inside the shell, with the
// sidebar and the Offline pill, and load by themselves when the network is back.

const OFFLINE_MESSAGE = "You're offline — this page needs a connection";

test("offline, a sidebar link shows the offline message inside the shell and loads when the network is back", async ({ page }) => {
  await signIn(page, "creator@shortbeat.test");
  await page.goto("/dashboard");
  const sidebar = page.getByRole("navigation", { name: "Main" });
  // Visit Payments once, so its code is in the browser; then back to the dashboard.
  await sidebar.getByRole("link", { name: "Payments" }).click();
  await expect(page).toHaveURL(/\/payments$/);
  await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
  await sidebar.getByRole("link", { name: "Dashboard" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.waitForLoadState("networkidle");

  await page.context().setOffline(true);

  // A page never visited.
  await sidebar.getByRole("link", { name: "Referrals" }).click();
  await expect(page.getByRole("heading", { name: OFFLINE_MESSAGE })).toBeVisible();
  await expect(sidebar).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Offline" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Something went wrong" })).toHaveCount(0);

  // A page visited before.
  await sidebar.getByRole("link", { name: "Payments" }).click();
  await expect(page.getByRole("heading", { name: OFFLINE_MESSAGE })).toBeVisible();
  await expect(sidebar).toBeVisible();
  await expect(page.getByRole("heading", { name: "Something went wrong" })).toHaveCount(0);

  // Back online: the page the person asked for loads by itself.
  await page.context().setOffline(false);
  await expect(page).toHaveURL(/\/payments$/);
  await expect(page.getByRole("heading", { name: OFFLINE_MESSAGE })).toHaveCount(0, { timeout: 15_000 });
  await expect(page.getByRole("heading", { name: "Payments" }).first()).toBeVisible();
});

test("at 375 px, a link tapped offline in the slide-over closes it and shows the offline message and the Offline pill", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await signIn(page, "creator@shortbeat.test");
  await page.goto("/dashboard");
  await page.waitForLoadState("networkidle");
  const sidebar = page.locator("#app-sidebar");
  await page.context().setOffline(true);

  await page.getByRole("button", { name: "Toggle sidebar" }).click();
  await expect(sidebar).toBeInViewport();
  await sidebar.getByRole("link", { name: "Referrals" }).click();
  await expect(page.getByRole("heading", { name: OFFLINE_MESSAGE })).toBeVisible();
  // The slide-over is closed: it covered the message and the header's Offline pill.
  await expect(sidebar).not.toBeInViewport();
  await expect(page.getByRole("status").filter({ hasText: "Offline" })).toBeVisible();
  const pill = page.locator("header").getByText("Offline", { exact: true });
  const covered = await pill.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !(top && (el.contains(top) || top.contains(el)));
  });
  expect(covered, "the Offline pill is covered").toBe(false);

  await page.context().setOffline(false);
  await expect(page).toHaveURL(/\/referrals$/);
  await expect(page.getByRole("heading", { name: OFFLINE_MESSAGE })).toHaveCount(0, { timeout: 15_000 });
});
