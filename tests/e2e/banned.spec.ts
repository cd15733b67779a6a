import type { APIRequestContext, Browser } from "@playwright/test";
import { expect, expectBanLogs, fillCreatorChannel, fillNewAccount, signIn, test } from "./fixtures";

// Issue 11 item 20: a user banned while signed in lands on /auth told why ('Your account has been
// banned: <reason>'), whether the open tab hears the ban on its socket or only finds out at its
// next navigation.

const PASSWORD = "Journey!2026pass";
const REASON = "Spam links in the community chat";
const MESSAGE = `Your account has been banned: ${REASON}`;

async function factory(request: APIRequestContext, baseURL: string, form: Record<string, string>) {
  const res = await request.post("/dev/factory", { form, headers: { Origin: baseURL } });
  expect(res.status(), await res.text()).toBe(200);
}

/** A fresh, verified and approved creator account. */
async function freshUser(browser: Browser, baseURL: string, name: string): Promise<string> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const email = `${name}-${Date.now()}@example.com`;
  await page.goto("/auth?mode=signup");
  await fillNewAccount(page, { fullName: "Ban Candidate", email, password: PASSWORD });
  await fillCreatorChannel(page, { url: "https://www.youtube.com/@bancandidate", subscribers: "10", monthlyViews: "10" });
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByText("Account created!")).toBeVisible();
  await factory(context.request, baseURL, { intent: "verify-email", email });
  await factory(context.request, baseURL, { intent: "approve", email });
  await context.close();
  return email;
}

test("the open tab hears the ban and lands on /auth with the reason", async ({ browser, baseURL, expectConsoleErrors }) => {
  expectBanLogs(expectConsoleErrors);
  const email = await freshUser(browser, baseURL!, "ban-live");
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, email, { password: PASSWORD, landing: "**/dashboard" });

  await factory(context.request, baseURL!, { intent: "ban", email, reason: REASON });
  await page.waitForURL(/\/auth$/, { timeout: 40_000 });
  await expect(page.getByText(MESSAGE)).toBeVisible();
  await expect(page.getByText("You have been signed out.")).toHaveCount(0);
  // Signed out for good: the app sends the browser back to /auth.
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/auth/);
  await context.close();
});

test("a tab without its socket finds out at its next navigation, with the reason", async ({ browser, baseURL, expectConsoleErrors }) => {
  expectBanLogs(expectConsoleErrors);
  const email = await freshUser(browser, baseURL!, "ban-next");
  const context = await browser.newContext();
  const page = await context.newPage();
  // The socket never reaches the server (a dropped connection): no live 'banned' event.
  await page.routeWebSocket(/\/api\/notifications\/socket/, () => {});
  await signIn(page, email, { password: PASSWORD, landing: "**/dashboard" });

  await factory(context.request, baseURL!, { intent: "ban", email, reason: REASON });
  // A client-side navigation through the sidebar.
  await page.getByRole("link", { name: "Settings" }).first().click();
  await page.waitForURL(/\/auth/);
  await expect(page.getByText(MESSAGE)).toBeVisible();
  await context.close();
});
