import type { APIRequestContext, Browser, Page, WebSocketRoute } from "@playwright/test";
import { DEMO_PASSWORD, expect, expectAccessible, signIn, test } from "./fixtures";

// Two browsers at once: an admin broadcasts, the creator's open tab updates live; the video
// plays through its signed URL; a dropped socket catches up; a ban signs the open tab out.

const VIDEO = "tests/fixtures/notification-video.webm";

async function newSignedInPage(browser: Browser, baseURL: string, email: string, password = DEMO_PASSWORD) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await signIn(page, email, { password, landing: null });
  await expect(page).toHaveURL(/\/dashboard$/);
  return page;
}

const bell = (page: Page) => page.locator("[data-socket]");

async function waitForSocket(page: Page) {
  await expect(bell(page)).toHaveAttribute("data-socket", "open");
}

/**
 * The exact unread count, from the bell's accessible name ("Notifications, 12 unread"): the badge
 * itself says "9+" from ten on, and earlier journeys leave the demo creator with more than that.
 */
async function badgeCount(page: Page): Promise<number> {
  // The label and the badge are read one after the other: a live update may land in between, so
  // the two are read again until they agree (the badge mirrors the same count), then the count is
  // returned.
  let unread = 0;
  await expect
    .poll(
      async () => {
        const label = (await page.getByRole("button", { name: /^Notifications/ }).getAttribute("aria-label")) ?? "";
        const badgeEl = page.getByTestId("unread-badge");
        const badge = ((await badgeEl.count()) > 0 ? await badgeEl.textContent() : "") ?? "";
        unread = Number(/, (\d+) unread$/.exec(label)?.[1] ?? 0);
        return badge === (unread === 0 ? "" : unread > 9 ? "9+" : String(unread));
      },
      { message: "the badge mirrors the bell's unread count", timeout: 5_000 },
    )
    .toBe(true);
  return unread;
}

async function factory(request: APIRequestContext, baseURL: string, intent: string, email: string) {
  const res = await request.post("/dev/factory", { form: { intent, email }, headers: { Origin: baseURL } });
  expect(res.status(), await res.text()).toBe(200);
}

async function broadcast(admin: Page, opts: { title: string; text: string; emails: string; video?: boolean; image?: boolean }) {
  await admin.goto("/admin/broadcast");
  await admin.getByLabel("Title").fill(opts.title);
  await admin.getByLabel("Text", { exact: true }).fill(opts.text);
  await admin.getByRole("radio", { name: "Chosen users" }).check();
  await admin.getByLabel("Chosen users (e-mail addresses)").fill(opts.emails);
  if (opts.image) {
    const png = await admin.screenshot({ clip: { x: 0, y: 0, width: 80, height: 40 } });
    await admin.getByLabel("Image (optional)").setInputFiles({ name: "banner.png", mimeType: "image/png", buffer: png });
  }
  if (opts.video) await admin.getByLabel("Video (optional)").setInputFiles(VIDEO);
  await admin.getByRole("button", { name: "Send broadcast" }).click();
  await expect(admin.getByText("Broadcast sent")).toBeVisible();
}

test("an admin broadcasts; the creator's badge and list update without a reload; the video plays; mark as read", async ({ browser, baseURL }) => {
  const creator = await newSignedInPage(browser, baseURL!, "creator@shortbeat.test");
  await waitForSocket(creator);
  const before = await badgeCount(creator);
  let navigations = 0;
  creator.on("framenavigated", (f) => f === creator.mainFrame() && navigations++);

  const admin = await newSignedInPage(browser, baseURL!, "admin@shortbeat.test");
  await admin.goto("/admin/broadcast");
  await expectAccessible(admin, "/admin/broadcast");
  const title = `Campaign drop ${Date.now()}`;
  await broadcast(admin, {
    title,
    text: "A new campaign is live. Watch the brief.",
    emails: "creator@shortbeat.test",
    video: true,
    image: true,
  });

  // Live: the badge goes up in the creator's open tab, with no navigation.
  await expect.poll(() => badgeCount(creator)).toBe(before + 1);
  expect(navigations).toBe(0);

  await creator.getByRole("button", { name: /^Notifications/ }).click();
  const panel = creator.getByRole("region", { name: "Notifications" });
  const item = panel.getByTestId("notification-item").filter({ hasText: title });
  await expect(item).toBeVisible();
  // Newest first.
  await expect(panel.getByTestId("notification-item").first()).toContainText(title);
  await expect(item.getByRole("img", { name: `Attached to ${title}` })).toBeVisible();
  await expectAccessible(creator, "notifications dropdown");

  // The video plays from its signed URL.
  const video = item.locator("video");
  await expect(video).toHaveAttribute("src", /\/media\/signed\/notifications\/.+\.webm\?exp=\d+&sig=[0-9a-f]{64}$/);
  await video.evaluate(async (v: HTMLVideoElement) => {
    v.muted = true;
    await v.play();
  });
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 10_000 }).toBeGreaterThan(0);

  // Tampering with the signed URL is refused.
  const src = (await video.getAttribute("src"))!;
  const tampered = await creator.request.get(src.replace(/sig=([0-9a-f])/, (_, c) => `sig=${c === "0" ? "1" : "0"}`));
  expect(tampered.status()).toBe(403);

  // Mark as read: the item and the badge follow, and it stays read after a reload.
  await item.getByRole("button", { name: "Mark as read" }).click();
  await expect(item).toHaveAttribute("data-read", "true");
  await expect.poll(() => badgeCount(creator)).toBe(before);
  await creator.reload();
  await creator.getByRole("button", { name: /^Notifications/ }).click();
  await expect(creator.getByRole("region", { name: "Notifications" }).getByTestId("notification-item").filter({ hasText: title })).toHaveAttribute(
    "data-read",
    "true",
  );

  await admin.context().close();
  await creator.context().close();
});

test("a dropped socket reconnects and catches up: nothing sent meanwhile is lost, nothing shows twice", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL });
  const creator = await context.newPage();
  // Route the notifications socket through Playwright so the test can cut it like a server restart.
  let allow = true;
  let live: WebSocketRoute | null = null;
  /** Reconnect attempts refused while the server is "away": the test's positive signal. */
  let refused = 0;
  await creator.routeWebSocket(/\/api\/notifications\/socket$/, (ws) => {
    if (!allow) {
      refused++;
      ws.close({ code: 1011, reason: "server restarting" });
      return;
    }
    ws.connectToServer();
    live = ws;
  });
  await signIn(creator, "creator@shortbeat.test", { landing: null });
  await expect(creator).toHaveURL(/\/dashboard$/);
  await waitForSocket(creator);
  const before = await badgeCount(creator);

  // The server goes away: the socket drops and reconnects are refused for now.
  allow = false;
  await live!.close({ code: 1012, reason: "service restart" });
  await expect(bell(creator)).toHaveAttribute("data-socket", "closed");

  const admin = await newSignedInPage(browser, baseURL!, "admin@shortbeat.test");
  const title = `While you were away ${Date.now()}`;
  await broadcast(admin, { title, text: "Sent while the socket was down.", emails: "creator@shortbeat.test" });
  // The tab comes back online while the server still refuses the socket: its reconnect is refused
  // (the positive signal), and the page catches up over HTTP all the same (the shell re-reads its
  // data once back online, app/ui/use-background-revalidation.ts).
  const refusedBefore = refused;
  await creator.evaluate(() => window.dispatchEvent(new Event("online")));
  await expect.poll(() => refused, { timeout: 15_000 }).toBeGreaterThan(refusedBefore);
  await expect(bell(creator)).toHaveAttribute("data-socket", "closed");
  await expect.poll(() => badgeCount(creator), { timeout: 15_000 }).toBe(before + 1);

  // A second one while the socket is still down; then the server is back: the client reconnects
  // with backoff and catches up from D1. Each shows once, and the badge counts each once.
  const second = `Also while you were away ${Date.now()}`;
  await broadcast(admin, { title: second, text: "Sent before the socket came back.", emails: "creator@shortbeat.test" });
  allow = true;
  await waitForSocket(creator);
  await expect.poll(() => badgeCount(creator), { timeout: 15_000 }).toBe(before + 2);
  await creator.getByRole("button", { name: /^Notifications/ }).click();
  await expect(creator.getByTestId("notification-item").filter({ hasText: second })).toHaveCount(1);
  await expect(creator.getByTestId("notification-item").filter({ hasText: title })).toHaveCount(1);

  // 'Mark all as read' clears the badge.
  await creator.getByRole("button", { name: "Mark all as read" }).click();
  await expect(creator.getByTestId("unread-badge")).toHaveCount(0);

  await admin.context().close();
  await context.close();
});

/** A fresh, e-mail-verified account (pending until approved), so the demo accounts stay as they are. */
async function freshAccount(request: APIRequestContext, baseURL: string, prefix: string) {
  const email = `${prefix}-${Date.now()}@example.com`;
  const password = "Fresh!2026pass";
  const signup = await request.post("/auth", {
    headers: { Origin: baseURL },
    form: {
      intent: "signup",
      fullName: "Fresh Creator",
      email,
      password,
      confirmPassword: password,
      channelUrl: "https://www.youtube.com/@freshcreator",
      subscribers: "10",
      monthlyViews: "100",
      acceptTerms: "on",
    },
    maxRedirects: 0,
  });
  expect(signup.status()).toBeLessThan(500);
  await factory(request, baseURL, "verify-email", email);
  return { email, password };
}

test("a ban signs the creator's open tab out after 1 second and sends it to /auth", async ({ browser, baseURL, request }) => {
  const { email, password } = await freshAccount(request, baseURL!, "ban-me");
  await factory(request, baseURL!, "approve", email);

  const creator = await newSignedInPage(browser, baseURL!, email, password);
  await waitForSocket(creator);

  const bannedAt = Date.now();
  await factory(request, baseURL!, "ban", email);
  await creator.waitForURL(/\/auth(\?|$)/, { timeout: 10_000 });
  expect(Date.now() - bannedAt).toBeGreaterThanOrEqual(1000);
  // Signed out for good: the app sends the tab back to sign-in.
  await creator.goto("/dashboard");
  await expect(creator).toHaveURL(/\/auth/);
  await creator.context().close();
});

test("an approval takes the pending user's open tab into the app at once", async ({ browser, baseURL, request }) => {
  const { email, password } = await freshAccount(request, baseURL!, "approve-me");
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await signIn(page, email, { password, landing: null });
  await expect(page).toHaveURL(/\/pending-approval$/);
  // The signed-in shell (settings) carries the bell and its socket.
  await page.goto("/settings");
  await waitForSocket(page);

  const approvedAt = Date.now();
  await factory(request, baseURL!, "approve", email);
  const list = await (await page.request.get("/api/notifications")).json();
  expect(list.notifications.some((n: { title: string }) => n.title === "Account approved")).toBe(true);
  // Well before the 30-second profile re-read.
  await page.waitForURL(/\/dashboard$/, { timeout: 10_000 });
  expect(Date.now() - approvedAt).toBeLessThan(10_000);
  await context.close();
});
