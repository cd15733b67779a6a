import { resolve } from "node:path";
import type { Page } from "@playwright/test";
import { expect, signIn, test } from "./fixtures";

// Issue 26: the signed-in app survives the network dropping. The shell re-reads the profile every
// 30 s and the chat its rooms every minute; a re-read that fails used to replace the page with the
// error screen ("Something went wrong / Failed to fetch"), taking the chat draft and the editor's
// canvas with it. Now background re-reads wait while the server is out of reach, the header says
// "Offline", and everything is as it was when the network returns.
//
// The page's clock is Playwright's (page.clock): a minute offline passes in an instant and runs every
// timer that would have fired in it (two profile re-reads, one chat re-read).

const PERSON = resolve(import.meta.dirname, "fixtures/person-eileen-collins.jpg");
const offlineBadge = (page: Page) => page.getByRole("status").filter({ hasText: "Offline" });

async function aMinuteOffline(page: Page) {
  await page.context().setOffline(true);
  await page.clock.runFor(61_000);
  await expect(page.getByRole("heading", { name: "Something went wrong" })).toHaveCount(0);
  await expect(offlineBadge(page)).toBeVisible();
  await page.context().setOffline(false);
  await expect(offlineBadge(page)).toHaveCount(0);
}

test("a chat left offline for a minute keeps its draft and sends it when the network is back", async ({ page, expectConsoleErrors }) => {
  // On purpose: what the page asks for while the context is offline fails (its send, its socket's reconnects).
  expectConsoleErrors(/net::ERR_INTERNET_DISCONNECTED/);
  await page.clock.install();
  await signIn(page, "creator@shortbeat.test");
  await page.goto("/community-chat");
  const box = page.getByRole("combobox", { name: "Message #general" });
  await expect(page.getByRole("status").filter({ hasText: "Live" })).toBeVisible();
  const draft = `Back online ${Date.now()}`;
  await box.fill(draft);

  await aMinuteOffline(page);

  await expect(page.getByRole("heading", { name: "#general" })).toBeVisible();
  await expect(box).toHaveValue(draft);
  await expect(page.getByRole("status").filter({ hasText: "Live" })).toBeVisible({ timeout: 20_000 });
  await box.press("Enter");
  // The sent message replaces its pending copy; for a moment both can be in the log.
  const log = page.getByRole("log", { name: "Messages in #general" });
  await expect(log.getByTestId("pending-message")).toHaveCount(0);
  await expect(log.getByText(draft)).toBeVisible();
});

test("the thumbnail editor left offline for a minute keeps its canvas", async ({ page }) => {
  await page.clock.install();
  await signIn(page, "admin@shortbeat.test");
  await page.goto("/ai-thumbnail-editor");
  await page.locator("#thumb-file").setInputFiles(PERSON);
  await page.getByRole("button", { name: "Add text" }).click();
  await page.getByLabel("Text", { exact: true }).fill("STILL HERE");
  await expect(page.getByRole("button", { name: "Text: STILL HERE" })).toBeVisible();

  await aMinuteOffline(page);

  await expect(page.getByRole("button", { name: "Image", exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Text: STILL HERE" })).toBeVisible();
  // The page works on: a navigation after the network is back loads normally.
  await page.getByRole("link", { name: "Dashboard" }).first().click();
  await expect(page).toHaveURL(/\/dashboard$/);
});
