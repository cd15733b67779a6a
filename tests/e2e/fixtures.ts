import AxeBuilder from "@axe-core/playwright";
import { test as base, type Browser, type BrowserContext, expect, type Page } from "@playwright/test";

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
  /** Navigates, waits for hydration, checks accessibility (console errors are checked for every test). */
  visit: (path: string) => Promise<void>;
  /**
   * Every console error and uncaught page error of the test, from every page of every browser context
   * it opens (its `page`, and `browser.newContext()` / `browser.newPage()`), as "text (at url)".
   * Automatic: after each test the ones not declared with `expectConsoleErrors` fail it (issue 42 §4).
   */
  consoleErrors: string[];
  /**
   * Declares errors this test causes on purpose (the browser's "Failed to load resource" line for a 4xx
   * it provokes, or while it holds the context offline): console errors matching `pattern` do not fail it.
   * Keep the pattern as narrow as the cause, e.g. /status of 409/.
   */
  expectConsoleErrors: (pattern: RegExp) => void;
};

/** Collects console errors and page errors from a context's pages (existing and future). */
function collectFrom(context: BrowserContext, errors: string[]) {
  context.on("console", (msg) => {
    if (msg.type() !== "error") return;
    const at = msg.location().url || msg.page()?.url() || "";
    errors.push(at ? `${msg.text()} (at ${at})` : msg.text());
  });
  context.on("weberror", (err) => {
    const at = err.page()?.url() ?? "";
    errors.push(`${err.error().message}${at ? ` (at ${at})` : ""}`);
  });
}

/**
 * What an open tab logs when the test bans its person (or ends its session): the bell's requests
 * answered 401, and its live socket's reconnects refused before the upgrade.
 */
export function expectBanLogs(expectConsoleErrors: (pattern: RegExp) => void) {
  expectConsoleErrors(/status of 401 \(Unauthorized\) \(at http:\/\/[^/]+\/api\/notifications(\?[^)]*)?\)$/);
  expectConsoleErrors(/^WebSocket connection to '[^']*\/api\/notifications\/socket' failed/);
}

const allowedErrors = new WeakMap<string[], RegExp[]>();

export const test = base.extend<Fixtures>({
  consoleErrors: [
    async ({ context, browser }, use, testInfo) => {
      const errors: string[] = [];
      allowedErrors.set(errors, []);
      collectFrom(context, errors);
      // Contexts the test opens itself (a second person, a clean session) are watched too.
      const newContext = browser.newContext;
      const newPage = browser.newPage;
      browser.newContext = async (...args: Parameters<Browser["newContext"]>) => {
        const c = await newContext.apply(browser, args);
        collectFrom(c, errors);
        return c;
      };
      browser.newPage = async (...args: Parameters<Browser["newPage"]>) => {
        const p = await newPage.apply(browser, args);
        collectFrom(p.context(), errors);
        return p;
      };
      try {
        await use(errors);
      } finally {
        browser.newContext = newContext;
        browser.newPage = newPage;
      }
      // A test that already failed reports its own failure, not the errors that followed from it.
      if (testInfo.status !== testInfo.expectedStatus) return;
      const allowed = allowedErrors.get(errors) ?? [];
      const unexpected = errors.filter((e) => !allowed.some((re) => re.test(e)));
      expect(unexpected, "console errors or uncaught page errors (declare deliberate ones with expectConsoleErrors)").toEqual([]);
    },
    { auto: true },
  ],
  expectConsoleErrors: async ({ consoleErrors }, use) => {
    await use((pattern: RegExp) => {
      allowedErrors.get(consoleErrors)?.push(pattern);
    });
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
