import type { Browser, Page } from "@playwright/test";
import { expect, expectAccessible, fillCreatorChannel, fillNewAccount, signIn, test } from "./fixtures";

const PASSWORD = "Agency!2026pass";

async function newPage(browser: Browser, baseURL: string | undefined, clipboard = false) {
  const context = await browser.newContext({ baseURL });
  if (clipboard) await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
  return context.newPage();
}

async function confirmEmail(page: Page, email: string) {
  await page.goto(`/dev/mailbox?to=${encodeURIComponent(email)}`);
  const mail = page.getByRole("article", { name: /Confirm your Shortbeat e-mail address/ }).first();
  await mail.getByRole("link", { name: /verify-email/ }).click();
  await page.getByRole("button", { name: "Confirm my e-mail" }).click();
  await expect(page.getByText("Email confirmed")).toBeVisible();
}

test("an agency applies, an admin approves it, a creator joins through its link and appears in the roster", async ({
  page,
  browser,
  baseURL,
  visit,
  expectConsoleErrors,
}) => {
  // The unknown agency's sign-up address answers 404 on purpose (the end of the test).
  expectConsoleErrors(/status of 404 .*-nope\/signup\)$/);
  const stamp = Date.now().toString(36);
  const agencyName = `Lumen Creators ${stamp}`;
  const slug = `lumen-creators-${stamp}`;
  const managerEmail = `lumen-${stamp}@example.com`;

  // 1. The agency applies, signing up in the same form.
  await visit("/agency/signup");
  await expect(page.getByRole("heading", { name: "Apply as an agency" })).toBeVisible();
  await page.getByLabel("Agency name").fill(agencyName);
  await expect(page.getByLabel("Slug (your link)")).toHaveValue(slug);
  await expect(page.getByText(`${slug} is available.`)).toBeVisible();
  // The live check knows taken and reserved slugs.
  await page.getByLabel("Slug (your link)").fill("northwind");
  await expect(page.getByText("This slug is already taken. Please choose another.")).toBeVisible();
  await page.getByLabel("Slug (your link)").fill(slug);
  await expect(page.getByText(`${slug} is available.`)).toBeVisible();
  await page.getByLabel("Contact e-mail").fill(`team-${stamp}@example.com`);
  await page.getByLabel("Description").fill("We help Shorts creators grow.");
  await page.getByLabel("Full name").fill("Lu Lumen");
  await page.getByLabel("Email", { exact: true }).fill(managerEmail);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm password").fill(PASSWORD);
  await page.getByLabel(/I accept the Terms of Service/).check();
  await page.getByRole("button", { name: "Submit application" }).click();
  await expect(page.getByRole("heading", { name: "Application received" })).toBeVisible();
  await expectAccessible(page, "application received");

  await confirmEmail(page, managerEmail);
  await signIn(page, managerEmail, { password: PASSWORD });
  await visit("/agency-application-status");
  await expect(page.getByText("Your application is under review")).toBeVisible();
  await expect(page.getByText(agencyName)).toBeVisible();

  // 2. An admin approves it.
  const admin = await newPage(browser, baseURL);
  await signIn(admin, "admin@shortbeat.test");
  await admin.goto("/admin/agencies?status=pending");
  await expect(admin.getByRole("heading", { name: agencyName })).toBeVisible();
  await expectAccessible(admin, "/admin/agencies");
  await admin.getByRole("link", { name: `Approve ${agencyName}` }).click();
  const dialog = admin.getByRole("dialog", { name: `Approve: ${agencyName}` });
  await expect(dialog).toBeVisible();
  await expectAccessible(admin, "approve dialog");
  await dialog.getByRole("button", { name: "Confirm approve" }).click();
  await expect(admin.getByText(`${agencyName} is approved.`)).toBeVisible();

  // 3. The manager opens the dashboard and copies the creator signup link.
  const manager = await newPage(browser, baseURL, true);
  await signIn(manager, managerEmail, { password: PASSWORD });
  await manager.goto("/agency-dashboard");
  await manager.waitForLoadState("networkidle");
  await expect(manager.getByRole("heading", { name: agencyName })).toBeVisible();
  await expectAccessible(manager, "/agency-dashboard");
  await manager.getByRole("button", { name: "Copy creator signup link" }).click();
  await expect(manager.getByText("Link copied")).toBeVisible();
  const link = await manager.evaluate(() => navigator.clipboard.readText());
  expect(link).toBe(`${new URL(baseURL!).origin}/${slug}/signup`);

  // 4. A creator signs up through the link.
  const creatorEmail = `joiner-${stamp}@example.com`;
  const creator = await newPage(browser, baseURL);
  await creator.goto(link);
  await creator.waitForLoadState("networkidle");
  await expect(creator.getByRole("heading", { name: `Join ${agencyName}` })).toBeVisible();
  await expectAccessible(creator, "agency signup");
  await fillNewAccount(creator, { fullName: "Jamie Joiner", email: creatorEmail, password: PASSWORD });
  await fillCreatorChannel(creator, { url: "https://www.youtube.com/@jamiejoins", subscribers: "3100", monthlyViews: "120000" });
  await creator.getByRole("button", { name: "Create Account" }).click();
  await expect(creator.getByText("Account created!")).toBeVisible();

  // 5. …and appears in the agency's roster.
  await manager.reload();
  const roster = manager.getByRole("table", { name: `Creators who joined through ${agencyName}` });
  await expect(roster.getByText(creatorEmail)).toBeVisible();
  await expect(roster.getByRole("row", { name: /Jamie Joiner/ }).getByText("Pending")).toBeVisible();

  // Any other slug is the not-found page.
  const missing = await creator.goto(`/${slug}-nope/signup`);
  expect(missing?.status()).toBe(404);
  await expect(creator.getByRole("heading", { name: "Page not found" })).toBeVisible();
});

test("an admin bans a user with a reason and finds it in the security audit log", async ({ page, browser, baseURL, visit }) => {
  const stamp = Date.now().toString(36);
  const email = `to-ban-${stamp}@example.com`;

  // Someone signs up (as a music partner).
  const visitor = await newPage(browser, baseURL);
  await visitor.goto("/music-signup");
  await expectAccessible(visitor, "/music-signup");
  await fillNewAccount(visitor, { fullName: "Bo Banned", email, password: PASSWORD });
  await visitor.getByLabel("Artist or label name").fill("Bo & Co");
  await visitor.getByLabel("Catalogue link").fill("https://bandcamp.example/bo");
  await visitor.getByLabel(/I accept the Music Partner Terms/).check();
  await visitor.getByRole("button", { name: "Create music partner account" }).click();
  await expect(visitor.getByText("Account created!")).toBeVisible();

  await signIn(page, "admin@shortbeat.test");
  await visit(`/admin?q=${encodeURIComponent(email)}`);
  await page.getByRole("link", { name: "Manage Bo Banned" }).click();
  await expect(page.getByRole("heading", { name: "Bo Banned" })).toBeVisible();
  await expect(page.getByText("Music partner").first()).toBeVisible();
  await page.getByRole("link", { name: "Ban", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Ban: Bo Banned" });
  await expect(dialog).toBeVisible();
  await expectAccessible(page, "ban dialog");
  // The reason is required.
  await dialog.getByLabel("Reason (the user sees it)").fill("Uploading music they do not own.");
  await dialog.getByRole("button", { name: "Confirm ban" }).click();
  await expect(page.getByText("Bo Banned is banned and signed out everywhere.")).toBeVisible();
  await expect(page.getByText("Uploading music they do not own.")).toBeVisible();

  await visit("/admin/audit-log");
  await page.getByLabel("Event type").selectOption("user_banned");
  await page.getByLabel("User e-mail").fill(email);
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/type=user_banned/);
  const events = page.getByRole("list", { name: "Audit events" });
  await expect(events.getByRole("listitem")).toHaveCount(1);
  await expect(events.getByText("user_banned")).toBeVisible();
  await expect(events.getByText(email)).toBeVisible();
  await expect(events.getByText("high")).toBeVisible();
  await expectAccessible(page, "/admin/audit-log filtered");
});
