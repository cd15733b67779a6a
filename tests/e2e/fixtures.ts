import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Page } from "@playwright/test";

/**
 * Runs axe-core on the page as it is now and fails on serious or critical violations.
 * Every end-to-end test calls it on each page it visits (the `visit` fixture does it for you).
 */
export async function expectAccessible(page: Page, label = page.url()) {
  expect(await seriousViolations(page), `accessibility violations on ${label}`).toEqual([]);
}

/** The serious and critical axe-core violations (WCAG 2.1 A and AA) of the page as it is now, one line per rule. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  return bad.map((v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.map((n) => n.target.join(" ")).join("\n  ")}`);
}

/** The demo accounts' password (app/dev/seed.server.ts). */
export const DEMO_PASSWORD = "Shortbeat#2026";

/**
 * Signs in on /auth with an e-mail or a verified phone number (and the demo password unless told), then waits for
 * `landing`: by default any page outside /auth; `null` does not wait (a refused sign-in, or a test that checks the URL itself).
 */
export async function signIn(page: Page, identifier: string, opts: { password?: string; landing?: string | RegExp | null } = {}) {
  await page.goto("/auth");
  await page.getByLabel("Email or phone").fill(identifier);
  await page.getByLabel("Password", { exact: true }).fill(opts.password ?? DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  if (opts.landing !== null) await page.waitForURL(opts.landing ?? ((url) => !url.pathname.startsWith("/auth")));
}

/** Fills the account part of a sign-up form: full name, e-mail, password and its confirmation. */
export async function fillNewAccount(page: Page, account: { fullName: string; email: string; password: string }) {
  await page.getByLabel("Full name").fill(account.fullName);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByLabel("Confirm password").fill(account.password);
}

/** Fills the creator part of the sign-up form (channel and its numbers) and accepts the Creator Agreement. */
export async function fillCreatorChannel(page: Page, channel: { url: string; subscribers: string; monthlyViews: string }) {
  await page.getByLabel("YouTube channel URL").fill(channel.url);
  await page.getByLabel("Subscribers").fill(channel.subscribers);
  await page.getByLabel("Monthly views").fill(channel.monthlyViews);
  await page.getByLabel("I accept the Creator Agreement & Monetization Terms").check();
}

type Fixtures = {
  /** Navigates, waits for hydration, checks accessibility, and collects console errors. */
  visit: (path: string) => Promise<void>;
  consoleErrors: string[];
};

export const test = base.extend<Fixtures>({
  consoleErrors: async ({ page }, use) => {
    const errors: string[] = [];
    page.on("console", (msg) => {
      if (msg.type() === "error") errors.push(msg.text());
    });
    page.on("pageerror", (err) => errors.push(err.message));
    await use(errors);
  },
  visit: async ({ page }, use) => {
    await use(async (path: string) => {
      await page.goto(path);
      await page.waitForLoadState("networkidle");
      await expectAccessible(page, path);
    });
  },
});

export { expect };
