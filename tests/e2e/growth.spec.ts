import type { Page } from "@playwright/test";
import { expect, fillCreatorChannel, fillNewAccount, signIn, test } from "./fixtures";

// Issue 18: a creator shares their referral link → a new person signs up with it → the referrer
// sees them on /referrals (name and status, never the e-mail); the admin sees the sign-up in this
// week's cohort and in the funnel on /user-retention, with a table view of every chart.
//   flock /tmp/e2e.lock env E2E_PORT=4305 SB_STATE_DIR=.state-e2e-growth npx playwright test tests/e2e/growth.spec.ts

async function signOut(page: Page) {
  await page.context().clearCookies();
}

test.use({ viewport: { width: 1440, height: 900 } });

test("share the link, a new creator signs up with it, the referrer sees them, the admin sees the sign-up this week", async ({ page, visit }) => {
  // 0. This week's cohort before: its size on /user-retention.
  await signIn(page, "admin@shortbeat.test", { landing: "**/dashboard" });
  await page.goto("/user-retention");
  // What the daily job does, now: the snapshot every panel reads.
  await page.getByRole("button", { name: "Refresh figures now" }).click();
  await expect(page.getByText("Figures refreshed")).toBeVisible();
  const cohortSize = () =>
    page
      .getByRole("table", { name: /Cohort retention/ })
      .getByRole("row")
      .last()
      .getByRole("cell")
      .nth(1);
  const sizeBefore = Number(await cohortSize().textContent());
  await signOut(page);

  // 1. The demo creator opens /referrals: link with the code, copy button, QR code to download.
  await signIn(page, "creator@shortbeat.test", { landing: "**/dashboard" });
  await visit("/referrals");
  await expect(page.getByRole("heading", { name: "Referrals", level: 1 })).toBeVisible();
  const link = await page.getByLabel("Referral link", { exact: true }).inputValue();
  expect(link).toMatch(/\/auth\?ref=[A-Z0-9_-]+$/);
  const code = new URL(link).searchParams.get("ref") ?? "";
  await expect(page.getByRole("button", { name: "Copy referral link" })).toBeVisible();
  await expect(page.getByRole("img", { name: /QR code of your referral link/ })).toBeVisible();
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download QR code (SVG)" }).click();
  expect((await download).suggestedFilename()).toBe(`shortbeat-referral-${code}.svg`);
  const before = Number(await page.getByTestId("count-signed-up").textContent());
  await signOut(page);

  // 2. A new person opens the link and signs up.
  const email = `referred-${Date.now()}@example.com`;
  const name = `Riley Referred ${Date.now() % 10_000}`;
  await visit(`${new URL(link).pathname}${new URL(link).search}&mode=signup`);
  await expect(page.getByText("You've been invited to join").first()).toBeVisible();
  await fillNewAccount(page, { fullName: name, email, password: "Referred!2026pass" });
  await fillCreatorChannel(page, { url: "https://www.youtube.com/@rileyref", subscribers: "300", monthlyViews: "5000" });
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByText("Account created!")).toBeVisible();

  // 3. The referrer sees them: name and status, never the e-mail.
  await signIn(page, "creator@shortbeat.test", { landing: "**/dashboard" });
  await visit("/referrals");
  await expect(page.getByTestId("count-signed-up")).toHaveText(String(before + 1));
  const row = page.getByRole("row", { name: new RegExp(name) });
  await expect(row).toBeVisible();
  await expect(row.getByText("Pending approval")).toBeVisible();
  await expect(page.getByText(email)).toHaveCount(0);
  await page.screenshot({ path: "/tmp/growth-referrals-1440.png", fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: "/tmp/growth-referrals-375.png", fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  await signOut(page);

  // 4. The admin sees the sign-up in this week's cohort and in the funnel.
  await signIn(page, "admin@shortbeat.test", { landing: "**/dashboard" });
  await visit("/user-retention");
  await expect(page.getByRole("heading", { name: "User Retention", level: 1 })).toBeVisible();
  // Every panel reads one snapshot (decision 0250): the sign-up shows once the figures are computed again.
  await page.getByRole("button", { name: "Refresh figures now" }).click();
  await expect(page.getByText("Figures refreshed")).toBeVisible();
  await expect(page.getByTestId("retention-computed-at")).toContainText("Figures computed at");
  await expect(cohortSize()).toHaveText(String(sizeBefore + 1));
  const signedUp = page.getByTestId("funnel-signed_up");
  await expect(signedUp).toBeVisible();
  expect(Number(await signedUp.getByRole("cell").nth(1).textContent())).toBeGreaterThan(0);
  // Referral source filter: the new person counts there.
  await page.getByLabel("Source", { exact: true }).selectOption("referral");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await page.waitForURL(/source=referral/);
  await expect(page.getByRole("heading", { name: "Funnel" })).toBeVisible();
  expect(Number(await page.getByTestId("funnel-signed_up").getByRole("cell").nth(1).textContent())).toBeGreaterThan(0);
  // Every chart has a table view.
  const toggles = page.getByRole("button", { name: "Show data table" });
  expect(await toggles.count()).toBeGreaterThanOrEqual(3);
  await toggles.first().click();
  await expect(page.getByRole("region", { name: "Sign-ups per week, data table" })).toBeVisible();
  await page.screenshot({ path: "/tmp/growth-retention-1440.png", fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(page.getByRole("heading", { name: "Cohorts" })).toBeVisible();
  await page.screenshot({ path: "/tmp/growth-retention-375.png", fullPage: true });
});

test("the referrer's open /referrals counts a sign-up through their link without a reload (issue 31 §4)", async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  // The referrer: /referrals open, its notification socket connected.
  const referrerContext = await browser.newContext({ baseURL, viewport: { width: 1440, height: 900 } });
  const referrer = await referrerContext.newPage();
  await signIn(referrer, "creator@shortbeat.test", { landing: "**/dashboard" });
  await referrer.goto("/referrals");
  await expect(referrer.locator("[data-socket]")).toHaveAttribute("data-socket", "open", { timeout: 20_000 });
  const link = await referrer.getByLabel("Referral link", { exact: true }).inputValue();
  const count = referrer.getByTestId("count-signed-up");
  const before = Number(await count.textContent());
  // A mark on this document: a reload (or a navigation) would lose it.
  await referrer.evaluate(() => {
    (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
  });

  // Someone else, in another browser, signs up with the link.
  const stamp = Date.now().toString(36);
  const name = `Lee Live ${stamp}`;
  const otherContext = await browser.newContext({ baseURL });
  const other = await otherContext.newPage();
  await other.goto(`${new URL(link).pathname}${new URL(link).search}&mode=signup`);
  await expect(other.getByText("You've been invited to join").first()).toBeVisible();
  await fillNewAccount(other, { fullName: name, email: `live-${stamp}@example.com`, password: "Referred!2026pass" });
  await fillCreatorChannel(other, { url: `https://www.youtube.com/@live${stamp}`, subscribers: "10", monthlyViews: "100" });
  await other.getByRole("button", { name: "Create Account" }).click();
  await expect(other.getByText("Account created!")).toBeVisible();

  // The referrer's page follows: the count and the list, in the same document.
  await expect(count).toHaveText(String(before + 1), { timeout: 20_000 });
  await expect(referrer.getByRole("row", { name: new RegExp(name) })).toBeVisible();
  expect(await referrer.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  await otherContext.close();
  await referrerContext.close();
});
