import { readdirSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import type { Browser, Page } from "@playwright/test";
import { DEMO_PASSWORD, expect, seriousViolations, signIn, test } from "./fixtures";

// Issue 12: every page, as every kind of user, at 1440 and 375 px, has no serious or critical
// axe-core violation (WCAG 2.1 A/AA); and the signed-in journey works by keyboard alone, with a
// visible focus indicator on everything Tab reaches. See docs/decisions/0087-accessibility-sweep.md.
//
// PAGES lists every route file of app/routes with the addresses that show it; the first test fails
// when a route file is neither here nor in NOT_PAGES, so a new page cannot be left out of the sweep.

/** The browser's line for the 404 of the not-found addresses PAGES lists on purpose (and only those). */
const NOT_FOUND_LOGGED =
  /^Failed to load resource: the server responded with a status of 404 \(Not Found\) \(at http:\/\/[^/]+\/(no-such-page|licences\/NO-SUCH-CODE|music\/licences\/NO-SUCH-CODE)\)$/;

/** Route files with a screen, and the addresses that open them (demo data: agency 'northwind'). */
const PAGES: Record<string, string[]> = {
  "_public/landing.tsx": ["/"],
  "_public/terms-of-service.tsx": ["/terms-of-service"],
  "_public/privacy-policy.tsx": ["/privacy-policy"],
  "_public/music-partner-terms.tsx": ["/music-partner-terms"],
  "_public/campaign.tsx": ["/campaigns/summer-launch"],
  "_public/not-found.tsx": ["/no-such-page"],
  "_auth/auth.tsx": ["/auth", "/auth?mode=signup"],
  "_auth/forgot-password.tsx": ["/auth/forgot-password"],
  "_auth/reset-password.tsx": ["/auth/reset-password?token=not-a-real-token"],
  "_auth/verify-email.tsx": ["/auth/verify-email?token=not-a-real-token"],
  "_auth/pending-approval.tsx": ["/pending-approval"],
  "_auth/email-unsubscribe.tsx": ["/email/unsubscribe?e=bm90LWEtbGluaw&c=news&t=0"],
  // Shown only to an account in its deletion grace period (others are sent on): tests/e2e/privacy.spec.ts sweeps it.
  "_auth/account-deletion.tsx": ["/account-deletion"],
  "agency/admin-recovery.tsx": ["/admin-recovery"],
  "agency/application-signup.tsx": ["/agency-application-signup", "/agency/signup"],
  "agency/application-status.tsx": ["/agency-application-status"],
  "agency/music-signup.tsx": ["/music-signup", "/northwind/music-signup"],
  "agency/agency-creator-signup.tsx": ["/northwind/signup"],
  "agency/agency-invitation.tsx": ["/agency-invitation?token=not-a-real-token"],
  "agency/agency-dashboard.tsx": ["/agency-dashboard"],
  "_app/dashboard.tsx": ["/dashboard"],
  "_app/music.tsx": ["/music", "/music?genre=Jazz"],
  // Demo track "Velvet Room" (app/dev/music-seed.ts, uuid(1008)).
  "_app/music-similar.tsx": ["/music/similar/00000000-0000-4000-8000-000000001008"],
  "_app/music-submit.tsx": ["/music/submit"],
  "_app/music-submissions.tsx": ["/music/submissions"],
  // The demo partner's rejected track (app/dev/music-seed.ts).
  "_app/music-resubmit.tsx": ["/music/submissions/00000000-0000-4000-8000-000000001102/resubmit"],
  "_app/campaigns.tsx": ["/campaigns"],
  "_app/channels.tsx": ["/channels"],
  "_app/analytics.tsx": ["/analytics"],
  "_app/referrals.tsx": ["/referrals"],
  "_app/clipping.tsx": ["/clipping"],
  "_app/community-chat.tsx": ["/community-chat"],
  "_app/payments.tsx": ["/payments"],
  "_app/settings.tsx": ["/settings"],
  "_app/profile.tsx": ["/profile"],
  "_app/music-licences.tsx": ["/music/licences"],
  "_app/music-licence.tsx": ["/music/licences/NO-SUCH-CODE"],
  "_public/licence.tsx": ["/licences/NO-SUCH-CODE"],
  "admin/music.tsx": ["/admin/music"],
  "admin/payments.tsx": ["/admin/payments"],
  "admin/campaigns.tsx": ["/admin/campaigns"],
  "admin/users.tsx": ["/admin"],
  "admin/audit-log.tsx": ["/admin/audit-log"],
  "admin/settings.tsx": ["/admin/settings"],
  "admin/system-status.tsx": ["/admin/system-status"],
  "admin/agencies.tsx": ["/admin/agencies"],
  "admin/verifications.tsx": ["/admin/verifications"],
  "admin/broadcast.tsx": ["/admin/broadcast"],
  "admin/chat-management.tsx": ["/chat-management"],
  "admin/user-retention.tsx": ["/user-retention"],
  "admin/ai-thumbnail-editor.tsx": ["/ai-thumbnail-editor"],
};

/** Route files of pages shown to a signed-in user (the shells, the pending page, an invitation). */
const SIGNED_IN_FILES = /^(_app\/|admin\/|agency\/agency-(dashboard|invitation)\.tsx$|_auth\/pending-approval\.tsx$)/;

/** Route files without a screen of their own, each with its reason. */
const NOT_PAGES: Record<string, string> = {
  "_app/layout.tsx": "the signed-in shell of app and admin pages: swept with every page inside it",
  "admin/layout.tsx": "the admin area (guard and console tabs) inside the shell: swept with every admin page",
  "_auth/finish-sign-up.tsx":
    "only a new Google account that has not given its details reaches it (0324); its journey is accounts.spec's Google sign-up test (not yet swept by axe)",
  "_app/channels-link.ts": "resource route: the TikTok / Instagram sign-in's return address (0299, 0300), redirects to /channels",
  "dev/social.ts": "development stand-in (TikTok and Instagram sign-in pages and API, DEV_TOOLS only)",
  "_public/sitemap.ts": "XML resource",
  "_auth/sign-out.ts": "action only",
  "_auth/google.ts": "redirect to the provider",
  "_auth/google-callback.ts": "redirect from the provider",
  "api/session.ts": "JSON resource",
  "_app/music.audio.$id.ts": "audio file resource",
  "_app/music.cover.$id.ts": "image file resource",
  "_app/music-licence-download.ts": "licence file download",
  "_app/music-licence-pdf.ts": "PDF download (the licence certificate)",
  "api/csp-report.ts": "CSP report endpoint",
  "api/notifications.ts": "JSON resource",
  "api/chat.ts": "JSON resource (chat history, catch-up, sends)",
  "api/media-avatars.ts": "file resource",
  "api/media-signed.ts": "file resource",
  "api/analytics-csv.ts": "CSV resource",
  "_app/payments-csv.ts": "CSV resource (the statement)",
  "_app/settings-export.ts": "JSON download (the person's data export)",
  "admin/user-export.ts": "JSON download (an admin's export of a person's data)",
  "_app/clipping-upload.ts": "upload resource (source video parts, JSON)",
  "_app/clipping-download.ts": "redirect to a signed source download",
  "_app/clipping-file.ts": "file resource (signed source download)",
  "_app/referrals-qr.ts": "SVG resource (the referral link's QR code)",
  "_app/referrals-qr-png.ts": "PNG resource (the referral link's QR code, for print and chat apps)",
  "admin/user-retention-csv.ts": "CSV resource (inactive users)",
  "admin/payments-batch-csv.ts": "CSV resource (a payout run for the bank)",
  "admin/payments-report.ts": "JSON resource (a large revenue report's parts and progress; its screen is /admin/payments)",
  "admin/payments-report-problems.ts": "CSV resource (every problem line of a large revenue report)",
  "admin/thumbnails-api.ts": "JSON resource (the thumbnail editor's save, open, export and send)",
  "dev/throw.tsx": "development tool (absent from the production build)",
  "dev/mailbox.tsx": "development tool (absent from the production build)",
  "dev/mailbox-message.ts": "development tool: an e-mail's HTML as sent (absent from the production build)",
  "dev/sms.ts": "development tool: the stand-in SMS provider (absent from the production build)",
  "dev/factory.ts": "development tool (absent from the production build)",
  "dev/payout-day.ts": "development tool (absent from the production build)",
  "dev/revenue-report.ts": "development tool (absent from the production build)",
  "dev/bench.ts": "development tool (absent from the production build)",
  "dev/oauth-authorize.tsx": "development tool: the stand-in Google consent screen",
  "dev/oauth.ts": "development tool (absent from the production build)",
  "dev/stripe.tsx": "development tool: the Stripe stand-in's dashboard (tests/e2e/payments.spec.ts checks it)",
  "dev/stripe-onboarding.tsx": "development tool: the Stripe stand-in's onboarding page (tests/e2e/payments.spec.ts checks it)",
  "dev/stripe-api.ts": "development tool (absent from the production build)",
  "_app/payout-account.ts": "redirect (the return from, and the refresh of, Stripe's onboarding)",
  "api/stripe-webhook.ts": "Stripe's webhook endpoint",
};

type Kind = { kind: string; email?: string };
/** Every kind of user of the demo data (app/dev/seed.server.ts). */
const USERS: Kind[] = [
  { kind: "public visitor" },
  { kind: "pending", email: "pending@shortbeat.test" },
  { kind: "approved creator", email: "creator@shortbeat.test" },
  { kind: "admin", email: "admin@shortbeat.test" },
  { kind: "agency manager", email: "agency@shortbeat.test" },
  { kind: "music partner", email: "partner@shortbeat.test" },
  { kind: "clipper", email: "clipper@shortbeat.test" },
  { kind: "banned", email: "banned@shortbeat.test" },
];

const VIEWPORTS = [
  { width: 1440, height: 900 },
  { width: 375, height: 812 },
] as const;

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? routeFiles(p) : /\.tsx?$/.test(name) ? [p] : [];
  });
}

/** The shapes of main content checked so far, across the kinds of user (the tests run in order, in one worker). */
const checkedShapes = new Set<string>();

/**
 * The structure of the page's main content, without its text: every element's tag, classes, role,
 * ARIA and a few other attribute names, and whether it is an empty leaf. Two pages with the same
 * shape get the same axe-core results (names and text differ, not what axe checks about them).
 */
function contentShape(page: Page): Promise<string> {
  return page.evaluate(() => {
    const root = document.querySelector("main") ?? document.body;
    let hash = 2166136261;
    for (const el of root.querySelectorAll("*")) {
      const attrs = [...el.attributes].map((a) => a.name).filter((n) => n.startsWith("aria-") || ["type", "alt", "title", "tabindex", "hidden"].includes(n));
      const empty = el.childElementCount === 0 && (el.textContent ?? "").trim() === "";
      const part = `${el.tagName}|${el.getAttribute("class") ?? ""}|${el.getAttribute("role") ?? ""}|${attrs.join(",")}|${empty ? 1 : 0};`;
      for (let i = 0; i < part.length; i++) hash = Math.imul(hash ^ part.charCodeAt(i), 16777619);
    }
    return (hash >>> 0).toString(16);
  });
}

/** Pages checked at once, in tabs of one browser context (the server and axe take turns). */
const TABS = 3;

/** Checks the page as it is now at both widths; one line per violation. */
async function violationsAt(page: Page, label: string): Promise<string[]> {
  const out: string[] = [];
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    for (const v of await seriousViolations(page)) out.push(`${label} at ${viewport.width}px: ${v}`);
  }
  return out;
}

/**
 * Visits every page as one user, in a few tabs at once; each path the visits land on is checked
 * once (a signed-out visitor's signed-in pages all land on /auth).
 */
async function sweep(browser: Browser, who: Kind) {
  const context = await browser.newContext({ viewport: VIEWPORTS[0] });
  const first = await context.newPage();
  const failures: string[] = [];
  if (who.email) {
    await signIn(first, who.email, { landing: null });
    if (who.kind === "banned") {
      // A banned account stays on /auth, told why.
      await expect(first.getByText(/Your account has been banned/).first()).toBeVisible();
      await expect(first).toHaveURL(/\/auth/);
      failures.push(...(await violationsAt(first, `${who.kind} /auth (refused sign-in)`)));
    } else {
      await first.waitForURL((url) => url.pathname !== "/auth");
    }
  }
  // Signed-in kinds check the pages they can be signed in on; the pages outside the shells are the
  // same for everyone and are checked as the public visitor (the landing page is checked by all).
  const queue = Object.entries(PAGES)
    .filter(([file]) => !who.email || file === "_public/landing.tsx" || SIGNED_IN_FILES.test(file))
    .flatMap(([, urls]) => urls);
  const seen = new Set<string>();
  const tabs = [first, ...(await Promise.all(Array.from({ length: TABS - 1 }, () => context.newPage())))];
  await Promise.all(
    tabs.map(async (page) => {
      for (let url = queue.shift(); url !== undefined; url = queue.shift()) {
        await page.setViewportSize(VIEWPORTS[0]);
        await page.goto(url);
        await page.waitForLoadState("load");
        const landed = new URL(page.url()).pathname;
        if (seen.has(landed)) continue;
        seen.add(landed);
        // A page whose main content has the same structure as one an earlier kind of user already
        // had checked (the sidebar differs, and is checked on this user's first page) is skipped.
        const shape = `${landed} ${await contentShape(page)}`;
        if (seen.size > 1 && checkedShapes.has(shape)) continue;
        checkedShapes.add(shape);
        failures.push(...(await violationsAt(page, `${who.kind} ${landed === url ? url : `${url} → ${landed}`}`)));
      }
    }),
  );
  await context.close();
  return { failures, seen: [...seen] };
}

test("the sweep lists every route file of app/routes", () => {
  const dir = resolve(import.meta.dirname, "../../app/routes");
  const files = routeFiles(dir).map((f) => relative(dir, f).split("\\").join("/"));
  const unlisted = files.filter((f) => !(f in PAGES) && !(f in NOT_PAGES));
  expect(unlisted, "add each new route file to PAGES (with its addresses) or NOT_PAGES (with a reason)").toEqual([]);
  const stale = [...Object.keys(PAGES), ...Object.keys(NOT_PAGES)].filter((f) => !files.includes(f));
  expect(stale, "listed route files that no longer exist").toEqual([]);
});

for (const who of USERS) {
  test(`${who.kind}: every page at 1440 and 375 px has no serious or critical accessibility violation`, async ({ browser, expectConsoleErrors }) => {
    test.setTimeout(300_000);
    // The addresses listed to show a not-found page answer 404, which the browser logs; nothing else may log an error.
    expectConsoleErrors(NOT_FOUND_LOGGED);
    // The banned account's refused sign-in answers 403.
    if (who.kind === "banned") expectConsoleErrors(/status of 403 .*\/auth\.data\)$/);
    const { failures, seen } = await sweep(browser, who);
    expect(failures, `serious or critical violations as ${who.kind}`).toEqual([]);
    if (!who.email || who.kind === "banned") {
      // Signed out, every signed-in page sends the visitor to /auth.
      expect(seen).not.toContain("/dashboard");
    } else {
      expect(seen.length).toBeGreaterThan(1);
    }
  });
}

/** Whether the focused element shows a focus indicator: an outline or a ring (box-shadow). */
async function focusVisible(page: Page): Promise<{ ok: boolean; what: string }> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { ok: false, what: "nothing focused" };
    const s = getComputedStyle(el);
    const outline = s.outlineStyle !== "none" && Number.parseFloat(s.outlineWidth) > 0;
    const ring = s.boxShadow !== "none" && s.boxShadow !== "";
    const what = `${el.tagName.toLowerCase()} "${(el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 40)}"`;
    return { ok: outline || ring, what };
  });
}

/** Presses Tab until `target` has focus (at most `max` times), checking the indicator of every stop. */
async function tabTo(page: Page, target: (el: { tag: string; name: string; href: string | null }) => boolean, max = 80) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    const focus = await focusVisible(page);
    // Past the last stop focus leaves the page (the browser's own controls); the next Tab starts at the top.
    if (focus.what === "nothing focused") continue;
    expect(focus.ok, `no visible focus indicator on ${focus.what}`).toBe(true);
    const el = await page.evaluate(() => {
      const a = document.activeElement as HTMLElement;
      return { tag: a.tagName.toLowerCase(), name: (a.getAttribute("aria-label") ?? a.textContent ?? "").trim(), href: a.getAttribute("href") };
    });
    if (target(el)) return;
  }
  throw new Error("the target was never reached by Tab");
}

test("keyboard only: sign in, then reach every sidebar destination with Tab and Enter, focus always visible", async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize(VIEWPORTS[0]);
  await page.goto("/auth");
  await page.waitForLoadState("networkidle");
  await tabTo(page, (el) => el.tag === "input");
  await page.keyboard.type("admin@shortbeat.test");
  await page.keyboard.press("Tab");
  expect((await focusVisible(page)).ok).toBe(true);
  await page.keyboard.type(DEMO_PASSWORD);
  await page.keyboard.press("Enter");
  await page.waitForURL("**/dashboard");
  await page.waitForLoadState("networkidle");

  const sidebarLinks = page.locator("#app-sidebar nav a[href]");
  await expect(sidebarLinks.first()).toBeVisible();
  const destinations = await sidebarLinks.evaluateAll((links) => [...new Set(links.map((a) => a.getAttribute("href") ?? ""))].filter((h) => h.startsWith("/")));
  expect(destinations.length).toBeGreaterThan(10);
  for (const href of destinations) {
    // Focus stays on the link just followed (a client-side navigation): Tab on from there.
    await tabTo(page, (el) => el.tag === "a" && el.href === href);
    await page.keyboard.press("Enter");
    await page.waitForURL((url) => url.pathname === href);
    // The URL changes before React commits the new page (a transition): wait until the sidebar
    // shown is the new page's, or a layout change (the app's and the admin's shells) can take the
    // focused link away after we have tabbed onto it.
    await expect(page.locator('#app-sidebar nav a[aria-current="page"]').first()).toHaveAttribute("href", href);
    await page.waitForLoadState("networkidle");
  }

  // The account menu (in the header, after the sidebar) opens and closes by keyboard.
  await tabTo(page, (el) => el.name === "Account menu");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("dialog", { name: "Account" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog", { name: "Account" })).toHaveCount(0);
  expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Account menu");
});
