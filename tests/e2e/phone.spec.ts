import type { Page } from "@playwright/test";
import { expect, signIn, test } from "./fixtures";

// Issue 11, item 19: a user adds a phone number in Settings, reads the code in the development
// mailbox, verifies it, signs out and signs in with the number and the password.

const EMAIL = "creator@shortbeat.test";
const TYPED = "+44 7700 900123";
const E164 = "+447700900123";

async function shoot(page: Page, name: string) {
  const section = page.locator("section[aria-labelledby='phone-heading']");
  for (const width of [375, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await section.scrollIntoViewIfNeeded();
    await section.screenshot({ path: test.info().outputPath(`phone-${name}-${width}.png`) });
  }
}

test("add a phone number in Settings, verify it with the texted code, sign in with it", async ({ page, visit, expectConsoleErrors }) => {
  // On purpose: a number not in international format and a wrong code are refused (400).
  expectConsoleErrors(/status of 400 .*\/settings\.data\)$/);
  await signIn(page, EMAIL, { landing: "**/dashboard" });

  await visit("/settings");
  const section = page.locator("section[aria-labelledby='phone-heading']");
  await expect(section.getByRole("heading", { name: "Phone number" })).toBeVisible();

  // Not in international format: a clear message, nothing sent.
  await section.getByLabel("Phone number").fill("07700 900123");
  await section.getByRole("button", { name: "Send code" }).click();
  await expect(section.getByText(/Please enter a phone number in international format/)).toBeVisible();

  await section.getByLabel("Phone number").fill(TYPED);
  await section.getByLabel("Phone number").press("Enter");
  await expect(page.getByText(`We sent a 6-digit code to ${E164}.`)).toBeVisible();
  await expect(section.getByText("Not verified")).toBeVisible();
  await expect(section.getByLabel("Verification code")).toBeVisible();
  await shoot(page, "code-sent");

  // The text lands in the development mailbox.
  await visit(`/dev/mailbox?to=${encodeURIComponent(E164)}`);
  const text = await page
    .getByRole("article", { name: `Text message to ${E164}` })
    .first()
    .innerText();
  const code = /\b(\d{6})\b/.exec(text)?.[1];
  expect(code, text).toMatch(/^\d{6}$/);

  await visit("/settings");
  const wrong = code === "000000" ? "111111" : "000000";
  await section.getByLabel("Verification code").fill(wrong);
  await section.getByRole("button", { name: "Verify" }).click();
  await expect(section.getByText("That code is not right. 4 tries left.")).toBeVisible();
  await section.getByLabel("Verification code").fill(code ?? "");
  await section.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByText("You can now sign in with it and your password.")).toBeVisible();
  await expect(section.getByText("Verified", { exact: true })).toBeVisible();
  await expect(section.getByLabel("Verification code")).toHaveCount(0);
  await shoot(page, "verified");

  // Sign out, then in with the number (typed with spaces) and the password.
  await page.setViewportSize({ width: 1440, height: 900 });
  // The toasts sit below the header: the wrong code's error toast (it stays until closed, 0315) covers
  // neither the bell nor the account menu.
  const toasts = page.locator("[data-toast]");
  await expect(page.locator('[data-toast="error"]').first()).toBeVisible();
  const header = await page.locator("header").first().boundingBox();
  for (const box of await toasts.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().top))) {
    expect(box).toBeGreaterThanOrEqual((header?.y ?? 0) + (header?.height ?? 64));
  }
  // Close each toast, then none is left.
  for (let i = 0; i < 10 && (await toasts.count()) > 0; i++) {
    await toasts
      .first()
      .getByRole("button", { name: "Close toast" })
      .click({ force: true, timeout: 1_000 })
      .catch(() => undefined);
  }
  await page.mouse.move(0, 0);
  await expect(toasts).toHaveCount(0, { timeout: 15_000 });
  await page.getByRole("button", { name: "Account menu" }).click();
  await page.getByRole("dialog", { name: "Account" }).getByRole("button", { name: "Sign out", exact: true }).click(); // Settings lists a "Sign out" per session too
  await page.waitForURL("**/auth");
  await signIn(page, TYPED, { landing: "**/dashboard" });
  await expect(page.getByText("Welcome back!")).toBeVisible();
});

test("the sign-in page loads no phone library", async ({ page, visit }) => {
  const scripts: string[] = [];
  page.on("response", (res) => {
    if (res.request().resourceType() === "script") scripts.push(res.url());
  });
  await visit("/auth");
  await expect(page.getByLabel("Email or phone")).toBeVisible();
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((u) => /phone/i.test(u))).toEqual([]);
});
