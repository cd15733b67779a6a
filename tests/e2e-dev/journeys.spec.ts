import { resolve } from "node:path";
import type { Page } from "@playwright/test";
import { expect, signIn, test } from "../e2e/fixtures";

// What the README's first command serves (issue 26): `npm run dev`, started by this project's
// webServer from nothing (scripts/e2e-dev-server.mjs), walked by one journey per role. The main
// end-to-end suite serves the production build; this one catches what only the dev server does
// (React's StrictMode, Vite's module workers and its proxy in front of workerd).

const PERSON = resolve(import.meta.dirname, "../e2e/fixtures/person-eileen-collins.jpg");

/** The dev server's answers must never be its own 500 (Vite's proxy) or React's error screen. */
async function expectPage(page: Page, path: string, heading: string | RegExp) {
  const res = await page.goto(path);
  expect(res?.status(), path).toBe(200);
  await expect(page.getByRole("heading", { name: heading, level: 1 }).first()).toBeVisible();
}

test("admin: a confirm dialog stays open and is confirmed; the background of a photo is removed", async ({ page }) => {
  test.setTimeout(240_000);
  await signIn(page, "admin@shortbeat.test");

  // The pages where a dev session once showed hydration mismatches or React's script-tag warning
  // (issue 42 §4): the fixture fails the test on any console error.
  await expectPage(page, "/admin", "Admin");
  await expectPage(page, "/chat-management", "Chat Management");
  await expectPage(page, "/music", "Music Library");

  // The seeded track in review (app/dev/music-seed.ts), approved through its confirm dialog.
  await expectPage(page, "/admin/music", "Music review");
  const card = page.getByTestId("review-item").filter({ hasText: "Paper Moon" });
  await card.getByRole("link", { name: "Approve Paper Moon" }).click();
  const dialog = page.getByRole("dialog", { name: "Publish this track?" });
  await expect(dialog).toBeVisible();
  // StrictMode mounts the dialog twice on the dev server; it used to close itself half a second in.
  await page.waitForTimeout(1500);
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Approve and publish" }).click();
  await expect(page.getByText("Track published")).toBeVisible();
  await expect(page.getByTestId("review-item").filter({ hasText: "Paper Moon" })).toHaveCount(0);

  // Background removal in the editor's module worker (the dev server serves it as an ES module).
  await expectPage(page, "/ai-thumbnail-editor", "AI Thumbnail Editor");
  await page.locator("#thumb-file").setInputFiles(PERSON);
  await page.getByRole("button", { name: "Image", exact: true }).click();
  await page.getByRole("button", { name: "Remove background" }).click();
  await expect(page.getByText("Background removed")).toBeVisible({ timeout: 120_000 });
  await expect(page.getByRole("button", { name: "Cut-out", exact: true })).toBeVisible();
});

test("creator: the dashboard, links on the dev server's own port, a dialog that stays until cancelled", async ({ page, baseURL }) => {
  await signIn(page, "creator@shortbeat.test");
  await expectPage(page, "/dashboard", /Welcome back/);
  await expectPage(page, "/referrals", "Referrals");
  // The dev server's origin, whatever port it serves (the configured APP_ORIGIN says :5173).
  await expect(page.getByRole("textbox", { name: "Referral link" })).toHaveValue(`${baseURL}/auth?ref=CASEY123`);

  await expectPage(page, "/channels", "Channels");
  await page
    .getByRole("link", { name: /Disconnect/ })
    .first()
    .click();
  const dialog = page.getByRole("dialog", { name: "Disconnect channel?" });
  await expect(dialog).toBeVisible();
  await page.waitForTimeout(1500);
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(page).toHaveURL(/\/channels$/);
});

test("music partner, agency manager, clipper and pending creator each reach their pages", async ({ browser, baseURL }) => {
  const as = async (email: string) => {
    const page = await (await browser.newContext({ baseURL })).newPage();
    await signIn(page, email, { landing: null });
    await page.waitForURL((u) => !u.pathname.startsWith("/auth"));
    return page;
  };
  const partner = await as("partner@shortbeat.test");
  await expectPage(partner, "/music/submissions", "Music Submissions");
  await expect(partner.getByTestId("submission").filter({ hasText: "Paper Moon" })).toBeVisible();

  const manager = await as("agency@shortbeat.test");
  await expectPage(manager, "/agency-dashboard", "Northwind Talent");

  const clipper = await as("clipper@shortbeat.test");
  await expectPage(clipper, "/clipping", "Clipping");
  await expect(clipper.getByText("Studio session - full take.mp4", { exact: true }).first()).toBeVisible();

  const pending = await as("pending@shortbeat.test");
  await expect(pending).toHaveURL(/\/pending-approval$/);
  await expect(pending.getByText("Your account is being reviewed.", { exact: false })).toBeVisible();
});

test("300 POSTs refused before their body is read get the Worker's 403, never the proxy's 500", async ({ baseURL }) => {
  test.setTimeout(180_000);
  const origin = baseURL!;
  // A pending creator may not post in the chat: refused before the form is parsed. Node's own
  // fetch (as a script or another service would call), ten at a time.
  const signedIn = await fetch(`${origin}/auth`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: origin },
    body: new URLSearchParams({ intent: "signin", email: "pending@shortbeat.test", password: "Shortbeat#2026" }),
  });
  expect(signedIn.status).toBe(302);
  const cookie = signedIn.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const body = `intent=send&room=general&body=${"hello ".repeat(8000)}`;
  const statuses: Record<string, number> = {};
  for (let i = 0; i < 30; i++) {
    const batch = await Promise.all(
      Array.from({ length: 10 }, (_, j) =>
        fetch(`${origin}/api/chat`, {
          method: "POST",
          // Half from our own page (refused: pending), half cross-origin (refused before any route).
          headers: { Origin: j % 2 ? origin : "https://evil.example", Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
          body,
        }).then(
          async (r) => {
            await r.arrayBuffer();
            return String(r.status);
          },
          (e: Error) => `network error: ${e.message}`,
        ),
      ),
    );
    for (const s of batch) statuses[s] = (statuses[s] ?? 0) + 1;
  }
  expect(statuses).toEqual({ 403: 300 });
});
