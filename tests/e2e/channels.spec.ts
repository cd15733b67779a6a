import type { Browser, Page } from "@playwright/test";
import { expect, expectAccessible, signIn, test } from "./fixtures";

// The channels journey: connect a YouTube channel through the stand-in provider, see it listed
// and counted, refresh it, submit a manual channel for verification, an admin verifies it, the
// count rises, analytics shows a chart, disconnect.

async function connectedCount(page: Page): Promise<number> {
  await page.goto("/dashboard");
  const card = page.getByRole("region", { name: "Connected Channels" });
  await expect(card).toBeVisible();
  return Number(((await card.locator("p").first().textContent()) ?? "").trim());
}

async function asAdmin(browser: Browser, fn: (page: Page) => Promise<void>) {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await signIn(page, "admin@shortbeat.test");
    await fn(page);
  } finally {
    await context.close();
  }
}

test("connect, refresh, submit for verification, admin verifies, analytics, disconnect", async ({ page, browser, visit, expectConsoleErrors }) => {
  // The expected errors: the browser logs the 400 answer to the invalid submission and the 409 to the duplicate.
  expectConsoleErrors(/status of 40[09]/);
  test.setTimeout(120_000); // the longest journey: two users, the provider, the admin queue, analytics
  const stamp = Date.now().toString(36);
  const email = `yt${stamp}@example.com`;
  const channelTitle = `Tester ${stamp}'s Channel`;
  const manualName = `Manual ${stamp}`;

  await signIn(page, "creator@shortbeat.test");
  const before = await connectedCount(page);

  // Connect through the stand-in provider (the consent screen), back to /channels with a toast.
  await visit("/channels");
  await page.getByRole("button", { name: "Connect YouTube channel" }).click();
  await expect(page.getByRole("heading", { name: "Choose an account" })).toBeVisible();
  await expect(page.getByText("youtube.readonly")).toBeVisible();
  await page.getByLabel("Name").fill(`Tester ${stamp}`);
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.waitForURL((u) => u.pathname === "/channels" && u.search === "");
  await expect(page.getByText("Channel connected!")).toBeVisible();
  await expect(page.getByText(`Successfully connected ${channelTitle}`)).toBeVisible();
  const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: channelTitle }) });
  await expect(card).toBeVisible();
  await expect(card.getByText("Linked", { exact: true })).toBeVisible();
  await expectAccessible(page, "/channels after connecting");

  // Counted on the dashboard.
  expect(await connectedCount(page)).toBe(before + 1);

  // Refresh.
  await visit("/channels");
  await card.getByRole("button", { name: /Refresh/ }).click();
  await expect(page.getByText("Channel updated")).toBeVisible();
  await expect(page.getByText("Channel data has been refreshed")).toBeVisible();

  // A manual submission: a validation failure first, then the real one, then send it for verification.
  await page.getByLabel("Channel name").fill(manualName);
  await page.getByLabel("Channel URL (optional)").fill("not a url");
  await page.getByRole("button", { name: "Submit channel" }).click();
  await expect(page.getByText("Submit failed")).toBeVisible();
  await expect(page.getByText("Please enter a valid channel URL.").first()).toBeVisible();
  await page.getByLabel("Channel URL (optional)").fill("");
  await page.getByLabel("Subscriber count").fill("2500");
  await page.getByLabel("Avg monthly views").fill("40000");
  await page.getByRole("button", { name: "Submit channel" }).click();
  await expect(page.getByText("Your channel has been submitted.")).toBeVisible();
  // The form is cleared after a success, and the same channel again is refused (issue 11, item 21).
  await expect(page.getByLabel("Channel name")).toHaveValue("");
  await expect(page.getByLabel("Subscriber count")).toHaveValue("");
  await page.getByLabel("Channel name").fill(manualName);
  await page.getByRole("button", { name: "Submit channel" }).click();
  await expect(page.getByText("You have already submitted this channel. It is listed under Your submissions.").first()).toBeVisible();
  await expect(page.getByLabel("Channel name")).toHaveValue(manualName);
  if (process.env.CHANNELS_SHOT) await page.screenshot({ path: process.env.CHANNELS_SHOT, fullPage: true });
  const submission = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: manualName }) });
  await expect(submission.getByText("Pending")).toBeVisible();
  await expect(submission.getByText("No URL given")).toBeVisible();
  await submission.getByRole("button", { name: /Submit for verification/ }).click();
  await expect(page.getByText("Submitted for verification")).toBeVisible();
  await expect(page.getByText("We will review shortly.")).toBeVisible();
  await expect(submission.getByText("Under review")).toBeVisible();

  // An admin verifies it in the queue.
  await asAdmin(browser, async (admin) => {
    await admin.goto("/admin/verifications");
    await admin.waitForLoadState("networkidle");
    await expectAccessible(admin, "/admin/verifications");
    const item = admin.getByRole("listitem").filter({ has: admin.getByRole("heading", { name: manualName }) });
    await item.getByRole("link", { name: /Verify/ }).click();
    const dialog = admin.getByRole("dialog", { name: "Verify this channel?" });
    await expect(dialog).toBeVisible();
    await expectAccessible(admin, "verify dialog");
    await dialog.getByRole("button", { name: "Verify channel" }).click();
    await expect(admin.getByText("Channel verified", { exact: true })).toBeVisible();
    await expect(admin.getByRole("listitem").filter({ has: admin.getByRole("heading", { name: manualName }) })).toHaveCount(0);
  });

  // The count rises.
  expect(await connectedCount(page)).toBe(before + 2);
  await visit("/channels");
  await expect(
    page
      .getByRole("listitem")
      .filter({ has: page.getByRole("heading", { name: manualName }) })
      .getByText("Verified"),
  ).toBeVisible();

  // Analytics shows a chart (and its table for screen readers), per channel and in total.
  await visit("/analytics?range=7");
  await expect(page.getByRole("link", { name: "7 days" })).toHaveAttribute("aria-current", "page");
  const chart = page.getByTestId("chart-subscribers");
  await expect(chart.locator(".recharts-wrapper > svg.recharts-surface")).toBeVisible();
  await expect(chart.locator(".recharts-line").first()).toBeVisible();
  await expect(page.getByRole("table", { name: /Subscribers over the last 7 days/ })).toBeAttached();
  await expect(page.getByRole("rowheader", { name: channelTitle })).toBeVisible();
  await page.getByRole("button", { name: "Show data table" }).first().click();
  await expect(page.getByRole("table", { name: /Subscribers over the last 7 days/ })).toBeVisible();
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export CSV" }).click();
  expect((await download).suggestedFilename()).toMatch(/^shortbeat-analytics-7d-\d{4}-\d{2}-\d{2}\.csv$/);

  // Disconnect, confirmed.
  await visit("/channels");
  await card.getByRole("link", { name: /Disconnect/ }).click();
  const confirm = page.getByRole("dialog", { name: "Disconnect channel?" });
  await expect(confirm).toBeVisible();
  await confirm.getByRole("button", { name: "Disconnect channel" }).click();
  await expect(page.getByText("Channel disconnected")).toBeVisible();
  await expect(page.getByText("YouTube channel has been removed from your account")).toBeVisible();
  await expect(page.getByRole("heading", { name: channelTitle })).toHaveCount(0);
  expect(await connectedCount(page)).toBe(before + 1);
});

test("cancelling at the provider shows 'Authorization failed' and clears the address", async ({ page }) => {
  await signIn(page, "creator@shortbeat.test");
  await page.goto("/channels");
  await page.getByRole("button", { name: "Connect YouTube channel" }).click();
  await page.getByRole("button", { name: "Cancel" }).click();
  await page.waitForURL((u) => u.pathname === "/channels" && u.search === "");
  await expect(page.getByText("Authorization failed")).toBeVisible();
  await expect(page.getByText("YouTube authorization was cancelled or failed")).toBeVisible();
});

test("analytics at 375px: chart, growth figures, no horizontal scroll", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await signIn(page, "creator@shortbeat.test");
  await page.goto("/analytics?range=30");
  await page.waitForLoadState("networkidle");
  await expect(page.getByTestId("chart-views").locator(".recharts-wrapper > svg.recharts-surface")).toBeVisible();
  await expect(page.getByText(/\+[\d,]+ \(\+\d+\.\d%\)/).first()).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await expectAccessible(page, "/analytics at 375px");
});
