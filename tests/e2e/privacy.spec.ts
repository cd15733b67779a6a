import type { APIRequestContext, Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import { expect, fillCreatorChannel, fillNewAccount, signIn, test } from "./fixtures";

// Issue 28: the privacy policy's promises as a person meets them — download a copy of one's data
// from Settings, delete the account (every session ends), sign in during the 30-day grace period
// and keep it, delete it again, and once the deletion is carried out the account is gone.

const PASSWORD = "Privacy!2026pass";

async function factory(request: APIRequestContext, baseURL: string, intent: string, email: string) {
  const res = await request.post("/dev/factory", { form: { intent, email }, headers: { Origin: baseURL } });
  expect(res.status(), await res.text()).toBe(200);
}

async function shoot(page: Page, name: string, locator = page.locator("main")) {
  for (const width of [375, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await locator.first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath(`privacy-${name}-${width}.png`), fullPage: false });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

async function deleteAccount(page: Page) {
  const section = page.locator("section[aria-labelledby='delete-heading']");
  await section.getByLabel("Password").fill(PASSWORD);
  await section.getByLabel(/I understand: my account will be deleted in 30 days/).check();
  await section.getByRole("button", { name: "Delete my account" }).click();
  await page.waitForURL("**/auth");
  await expect(page.getByText("Account scheduled for deletion")).toBeVisible();
}

test("download my data, delete my account, keep it in the grace period, delete it for good", async ({ page, request, baseURL, visit, expectConsoleErrors }) => {
  // On purpose: deleting with a wrong password (400), and signing in once the account is gone (400).
  expectConsoleErrors(/status of 400 .*\/(settings|auth)\.data\)$/);
  test.setTimeout(240_000);
  const email = `privacy-${Date.now()}@example.com`;
  await visit("/auth?mode=signup");
  await fillNewAccount(page, { fullName: "Pia Privacy", email, password: PASSWORD });
  await fillCreatorChannel(page, { url: "https://www.youtube.com/@piaprivacy", subscribers: "120", monthlyViews: "4000" });
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByText("Account created!")).toBeVisible();

  // The verification e-mail left through the EMAIL binding: the mailbox shows it sent.
  await visit(`/dev/mailbox?to=${encodeURIComponent(email)}`);
  const mail = page.getByRole("article", { name: /Confirm your Shortbeat e-mail address/ }).first();
  await expect(async () => {
    await page.reload();
    await expect(mail.locator("[data-status='sent']")).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 60_000 });

  await factory(request, baseURL ?? "", "verify-email", email);
  await factory(request, baseURL ?? "", "approve", email);
  await signIn(page, email, { password: PASSWORD, landing: "**/dashboard" });

  // A copy of my data.
  await visit("/settings");
  await expect(page.getByRole("heading", { name: "Your data" })).toBeVisible();
  await shoot(page, "settings-data", page.getByRole("heading", { name: "Your data" }));
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download my data" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^shortbeat-data-\d{4}-\d{2}-\d{2}-[0-9a-f]{8}\.json$/);
  const data = JSON.parse(readFileSync((await download.path()) ?? "", "utf8"));
  expect(data.profile.email).toBe(email);
  expect(data.profile.fullName).toBe("Pia Privacy");
  expect(data.profile.signUpDetails.youtube_channel_url).toBe("https://www.youtube.com/@piaprivacy");
  expect(JSON.stringify(data)).not.toContain("$argon2");

  // Delete the account: a wrong password changes nothing.
  const section = page.locator("section[aria-labelledby='delete-heading']");
  await shoot(page, "settings-delete", section);
  await section.getByLabel("Password").fill("Wrong-password1!");
  await section.getByLabel(/I understand/).check();
  await section.getByRole("button", { name: "Delete my account" }).click();
  await expect(section.getByText("The password you entered is incorrect.")).toBeVisible();
  await deleteAccount(page);

  // Every session ended: the dashboard asks to sign in.
  await page.goto("/dashboard");
  await page.waitForURL("**/auth**");

  // Signing in during the grace period offers to keep the account.
  await signIn(page, email, { password: PASSWORD, landing: "**/account-deletion" });
  await expect(page.getByRole("heading", { name: "Your account is scheduled for deletion" })).toBeVisible();
  await visit("/account-deletion");
  await shoot(page, "grace");
  await page.goto("/settings");
  await page.waitForURL("**/account-deletion");
  await page.getByRole("button", { name: "Keep my account" }).click();
  await page.waitForURL("**/dashboard");
  await expect(page.getByText("Your account is kept")).toBeVisible();

  // Delete it again, and this time let it be carried out.
  await visit("/settings");
  await deleteAccount(page);
  await factory(request, baseURL ?? "", "run-deletions-now", email);

  await signIn(page, email, { password: PASSWORD, landing: null });
  await expect(page.getByText("Invalid login credentials").first()).toBeVisible();
  // The address is free again: the sign-up form answers as for a new account.
  await visit("/auth?mode=signup");
  await fillNewAccount(page, { fullName: "Pia Again", email, password: PASSWORD });
  await fillCreatorChannel(page, { url: "https://www.youtube.com/@piaagain", subscribers: "1", monthlyViews: "1" });
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByText("Account created!")).toBeVisible();
  await visit(`/dev/mailbox?to=${encodeURIComponent(email)}`);
  // The old e-mails went with the account; the new sign-up's verification e-mail is there.
  await expect(page.getByRole("article", { name: /Confirm your Shortbeat e-mail address/ })).toHaveCount(1);
  await expect(page.getByRole("article", { name: /will be deleted on/ })).toHaveCount(0);
});
