import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { expect, expectAccessible, fillCreatorChannel, fillNewAccount, test, signIn, DEMO_PASSWORD } from "./fixtures";

// The clipping journey (issues 16 and 27): the demo creator makes an invitation → a new person
// opens it and signs up as a clipper (with the Clipper Agreement; also through "Continue with
// Google") → waits → the creator approves → Download saves a source under its name → submits a
// clip → asks for a higher split → the creator approves the clip and the split → the admin imports
// revenue naming the clip's video → both statements and both /clipping pages show the right cents
// (issue 31 §3: per-clip earnings, named notifications, an unknown Short flagged). A stranger using
// the creator's public referral code gets nothing. The source upload can be paused, resumed and
// cancelled, with its speed and time left, and leaving the page warns.

const PASSWORD = "Str0ng!Passw0rd";
/** The last full month: the current and future months cannot be imported (issue 29). */
const MONTH = (() => {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
})();
const MONTH_LABEL = new Date(`${MONTH}-01T00:00:00Z`).toLocaleString("en-US", { month: "long", year: "numeric", timeZone: "UTC" });

async function factory(request: APIRequestContext, baseURL: string, intent: string, email: string) {
  const res = await request.post("/dev/factory", { form: { intent, email }, headers: { Origin: baseURL } });
  expect(res.status(), await res.text()).toBe(200);
}

async function signedIn(browser: Browser, baseURL: string, email: string, password = DEMO_PASSWORD): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await signIn(page, email, { password: password, landing: null });
  await expect(page).toHaveURL(/\/dashboard$/);
  return page;
}

async function visit(page: Page, path: string) {
  await page.goto(path);
  await page.waitForLoadState("networkidle");
  await expectAccessible(page, path);
}

/** The creator makes an invitation on /clipping and reads its link (shown once). */
async function createInvitation(creator: Page): Promise<string> {
  await visit(creator, "/clipping");
  await creator.getByRole("button", { name: "Create invitation" }).click();
  await expect(creator.getByText("Invitation created")).toBeVisible();
  const link = await creator.getByLabel("Invitation link", { exact: true }).inputValue();
  expect(link).toMatch(/\/auth\?ref=[a-z2-7]{32}&clipper=1$/);
  expect(link).not.toContain("CASEY123");
  return link;
}

/** The creator approves the person waiting for them (issue 27: nobody reaches the folder before that). */
async function approve(creator: Page, name: string) {
  await visit(creator, "/clipping");
  const waiting = creator.getByRole("list", { name: "Clippers waiting for your approval" }).getByRole("listitem").filter({ hasText: name });
  await expect(waiting).toContainText("waits for your approval");
  await waiting.getByRole("button", { name: `Approve ${name}` }).click();
  await expect(creator.getByText("Clipper approved")).toBeVisible();
}

/** Download saves the source under its name: an attachment (RFC 6266), not played in the browser. */
async function downloadsSource(page: Page, name: string) {
  const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Casey Creator" }) });
  const link = card.getByRole("link", { name: `Download ${name}` });
  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  expect(download.suggestedFilename()).toBe(name);
  const file = await page.context().request.get((await link.getAttribute("href")) ?? "");
  expect(file.status()).toBe(200);
  expect(file.headers()["content-type"]).toBe("video/mp4");
  expect(file.headers()["content-disposition"]).toMatch(/^attachment; filename="Studio session - full take\.mp4"; filename\*=UTF-8''/);
  expect(file.url()).toMatch(/\/clipping\/files\/.+\?exp=\d+&sig=/);
}

test("invitation → sign up as clipper → pending → creator approves → download → clip → higher split → revenue → both statements", async ({
  browser,
  baseURL,
  request,
  expectConsoleErrors,
}) => {
  test.setTimeout(180_000);
  // On purpose: a clip of an unsupported platform (400) and approving a Short YouTube does not know (409).
  expectConsoleErrors(/status of 40[09] .*\/clipping\.data\)$/);
  const stamp = Date.now().toString(36);
  const email = `clipper-${stamp}@example.com`;
  const name = `Clara Clipper ${stamp}`;
  const videoId = `E2e${stamp}`.padEnd(11, "x").slice(0, 11);

  // 1. The demo creator makes an invitation: a link of its own, never the public referral code.
  const creator = await signedIn(browser, baseURL!, "creator@shortbeat.test");
  const invite = await createInvitation(creator);

  // 2. A new person opens it: the clipper sign-up, naming the creator; both agreements; verified and approved.
  const context = await browser.newContext({ baseURL });
  const clipper = await context.newPage();
  await clipper.goto(new URL(invite).pathname + new URL(invite).search);
  await expect(clipper.getByText("Casey Creator invited you to cut clips from their videos as a clipper.", { exact: false })).toBeVisible();
  await expectAccessible(clipper, "/auth (clipper invitation)");
  await fillNewAccount(clipper, { fullName: name, email, password: PASSWORD });
  await fillCreatorChannel(clipper, { url: `https://www.youtube.com/@clara${stamp}`, subscribers: "10", monthlyViews: "100" });
  await expect(clipper.getByLabel("I want to join as a clipper and cut clips from Casey Creator's videos")).toBeChecked();
  await clipper.getByLabel("I accept the Clipper Agreement").check();
  await clipper.getByRole("button", { name: "Create Account" }).click();
  await expect(clipper.getByText("Account created!")).toBeVisible();
  await factory(request, baseURL!, "verify-email", email);
  await factory(request, baseURL!, "approve", email);
  await signIn(clipper, email, { password: PASSWORD, landing: null });
  await expect(clipper).toHaveURL(/\/dashboard$/);

  // 3. Pending: the clipper waits for Casey; no folder yet.
  await visit(clipper, "/clipping");
  await expect(clipper.getByText("Waiting for Casey Creator to approve you", { exact: false })).toBeVisible();
  await expect(clipper.getByRole("heading", { name: "Creators you clip for" })).toHaveCount(0);

  // 4. Casey approves; the clipper's /clipping shows Casey's folder, and Download saves the file under its name.
  await approve(creator, name);
  await visit(clipper, "/clipping");
  const card = clipper.getByRole("listitem").filter({ has: clipper.getByRole("heading", { name: "Casey Creator" }) });
  await expect(card.getByText("Studio session - full take.mp4", { exact: true }).first()).toBeVisible();
  await downloadsSource(clipper, "Studio session - full take.mp4");

  // 5. A clip of an unsupported platform is refused; then a YouTube Short is submitted.
  await card.getByLabel("Clip URL").fill("https://vimeo.com/12345");
  await card.getByLabel("Source video").selectOption({ label: "Studio session - full take.mp4" });
  await card.getByRole("button", { name: "Submit clip" }).click();
  await expect(clipper.getByText("Clips can be submitted for YouTube Shorts, TikTok or Instagram Reels only.").first()).toBeVisible();
  const card2 = clipper.getByRole("listitem").filter({ has: clipper.getByRole("heading", { name: "Casey Creator" }) });
  // A Short YouTube does not know is flagged to the creator, not approvable with 0 views (issue 31 §3).
  const unknownId = `Unk${stamp}`.padEnd(11, "y").slice(0, 11);
  await card2.getByLabel("Platform").selectOption({ label: "YouTube Shorts" });
  await card2.getByLabel("Clip URL").fill(`https://youtu.be/${unknownId}`);
  await card2.getByLabel("Source video").selectOption({ label: "Studio session - full take.mp4" });
  await card2.getByRole("button", { name: "Submit clip" }).click();
  await expect(clipper.getByText("Clip submitted")).toBeVisible();
  await expect(clipper.getByRole("row", { name: new RegExp(unknownId) })).toContainText("Not found on YouTube");
  // The journey's own Short: the YouTube stand-in knows it, with its views.
  const known = await request.post("/dev/factory", { form: { intent: "register-video", email: "", videoId, views: "40000" }, headers: { Origin: baseURL! } });
  expect(known.status(), await known.text()).toBe(200);
  await card2.getByLabel("Platform").selectOption({ label: "YouTube Shorts" });
  await card2.getByLabel("Clip URL").fill(`https://www.youtube.com/shorts/${videoId}`);
  await card2.getByLabel("Source video").selectOption({ label: "Studio session - full take.mp4" });
  await card2.getByRole("button", { name: "Submit clip" }).click();
  await expect(clipper.getByText("Clip submitted")).toBeVisible();
  await expect(clipper.getByRole("row", { name: new RegExp(videoId) })).toContainText("Pending review");

  // 6. The clipper asks for 80%.
  await card2.getByLabel("Your share (%)").fill("80");
  await card2.getByRole("button", { name: "Request split" }).click();
  await expect(clipper.getByText("Split requested")).toBeVisible();
  await expectAccessible(clipper, "/clipping (clipper)");

  // 7. The creator's bell names the clipper (issue 31 §3); the unknown Short cannot be approved.
  await visit(creator, "/clipping");
  await creator.getByRole("button", { name: /^Notifications/ }).click();
  const bellPanel = creator.getByRole("region", { name: "Notifications" });
  await expect(bellPanel.getByText(`${name} submitted a clip (YouTube Shorts): https://www.youtube.com/shorts/${videoId}`)).toBeVisible();
  await expect(
    bellPanel.getByText(`${name} submitted a clip (YouTube Shorts): https://www.youtube.com/shorts/${unknownId}. YouTube does not know this video`),
  ).toBeVisible();
  await creator.keyboard.press("Escape");
  const unknownRow = creator.getByRole("row", { name: new RegExp(unknownId) });
  await expect(unknownRow).toContainText("Not found on YouTube");
  await unknownRow.getByRole("button", { name: "Approve" }).click();
  await expect(creator.getByText("YouTube does not know this video, so it cannot be approved with its views.").first()).toBeVisible();
  await expect(creator.getByRole("row", { name: new RegExp(unknownId) })).toContainText("Pending review");

  // The creator approves the clip and the split.
  const request80 = creator.getByRole("listitem").filter({ hasText: `${name} asks for 80%` });
  await request80.getByRole("button", { name: "Approve 80%" }).click();
  await expect(creator.getByText("Split approved")).toBeVisible();
  await creator
    .getByRole("row", { name: new RegExp(videoId) })
    .getByRole("button", { name: "Approve" })
    .click();
  await expect(creator.getByText("Clip approved")).toBeVisible();
  // Read from YouTube on approval; no month imported yet, and nothing invented.
  const approvedRow = creator.getByRole("row", { name: new RegExp(videoId) });
  await expect(approvedRow).toContainText("40,000");
  await expect(approvedRow).toContainText("Nothing imported yet.");
  await expect(creator.getByRole("region", { name: "Clippers linked to you" }).getByRole("row", { name: new RegExp(name) })).toContainText("80% clipper");
  await creator.setViewportSize({ width: 1440, height: 900 });
  await creator.screenshot({ path: "/tmp/clipping-creator-1440.png", fullPage: true });

  // 8. The admin imports a month's revenue naming the clip's video: the last full month, with the
  // split's approval moved before it (the whole month at the new split).
  await factory(creator.request, baseURL!, "backdate-clip-splits", email);
  const admin = await signedIn(browser, baseURL!, "admin@shortbeat.test");
  await admin.goto("/admin/payments");
  await admin.waitForLoadState("networkidle");
  await admin.getByRole("region", { name: "Import revenue" }).getByLabel("Month", { exact: true }).fill(MONTH);
  await admin.getByLabel("Revenue file (CSV)").setInputFiles({
    name: "revenue.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(`month,channel_id,creator_id,video_id,net_revenue,currency\n${MONTH},,CASEY123,${videoId},100.00,USD\n`),
  });
  await admin.getByRole("button", { name: "Preview" }).click();
  await expect(admin.getByRole("heading", { name: new RegExp(`^Preview: ${MONTH_LABEL}`) })).toBeVisible();
  await admin.getByRole("button", { name: "Commit import" }).click();
  await expect(admin.getByText("Revenue imported")).toBeVisible();

  // 9. Both statements: the pool 70.00 (70% of 100.00) → clipper 80% = 56.00, creator 14.00.
  await visit(clipper, `/payments?month=${MONTH}`);
  const mine = clipper.getByRole("row", { name: new RegExp(`clip .*${videoId}`, "i") });
  await expect(mine).toContainText("$56.00");
  await visit(creator, `/payments?month=${MONTH}`);
  const theirs = creator.getByRole("row", { name: new RegExp(`clip .*${videoId}`, "i") });
  await expect(theirs).toContainText(`by ${name} (your clipper): $56.00 to the clipper`);
  await expect(theirs).toContainText("$14.00");

  // 10. Per-clip earnings on /clipping, for both sides: the month, its status, the split, per 1,000 views.
  await visit(clipper, "/clipping");
  const myRow = clipper.getByRole("region", { name: "Your clips" }).getByRole("row", { name: new RegExp(videoId) });
  await expect(myRow).toContainText(`$56.00Estimated${MONTH_LABEL}`);
  await expect(myRow).toContainText("Clipper 80%: $56.00 · creator $14.00 · of $70.00 (the creator's 70% share)");
  // 5600 cents × 1000 / 40,000 views = 140 cents.
  await expect(myRow).toContainText("$1.40 per 1,000 views so far (your $56.00 in all)");
  await clipper.setViewportSize({ width: 375, height: 800 });
  await myRow.scrollIntoViewIfNeeded();
  await clipper.screenshot({ path: "/tmp/clipping-earnings-clipper-375.png", fullPage: true });
  await visit(creator, "/clipping");
  const reviewRow = creator.getByRole("region", { name: "Clips of your videos" }).getByRole("row", { name: new RegExp(videoId) });
  await expect(reviewRow).toContainText(`$14.00Estimated${MONTH_LABEL}`);
  await expect(reviewRow).toContainText("$0.35 per 1,000 views so far (your $14.00 in all)");
  await creator.screenshot({ path: "/tmp/clipping-earnings-creator-1440.png", fullPage: true });
  await context.close();
});

test("an invitation through 'Continue with Google': the clipper choice survives the round trip, pending until the creator approves", async ({
  browser,
  baseURL,
  request,
}) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  const email = `gus-${stamp}@example.com`;
  const name = `Gus Google ${stamp}`;
  const creator = await signedIn(browser, baseURL!, "creator@shortbeat.test");
  const invite = await createInvitation(creator);

  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await page.goto(new URL(invite).pathname + new URL(invite).search);
  await expect(page.getByLabel("I want to join as a clipper and cut clips from Casey Creator's videos")).toBeChecked();
  await page.getByLabel("I accept the Clipper Agreement").check();
  await page.getByRole("button", { name: "Continue with Google" }).click();
  await expect(page.getByRole("heading", { name: "Choose an account" })).toBeVisible();
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Continue" }).click();
  // A new Google account gives the sign-up form's details and accepts the terms first (0324).
  await page.waitForURL("**/auth/finish-sign-up");
  await page.getByLabel("YouTube channel URL").fill("https://www.youtube.com/@gus");
  await page.getByLabel("Subscribers").fill("10");
  await page.getByLabel("Monthly views").fill("100");
  await page.getByLabel("I accept the Creator Agreement & Monetization Terms").check();
  await page.getByRole("button", { name: "Finish signing up" }).click();
  await page.waitForURL("**/pending-approval");
  // Both approvals, and where each stands (issue 42 §3).
  await expect(page.getByText("Casey Creator approves you as their clipper:")).toContainText("waiting for their approval");
  await expect(page.getByText("An admin approves your account:")).toContainText("waiting for review");

  // The creator sees the request and approves it; the admin approves the new account.
  await approve(creator, name);
  await factory(request, baseURL!, "approve", email);
  // The approval reaches the waiting page (its socket, else its poll), which moves into the app by
  // itself, to /clipping for a clipper: wait for that, or it interrupts the next navigation.
  await page.waitForURL("**/clipping", { timeout: 40_000 });
  await visit(page, "/clipping");
  await downloadsSource(page, "Studio session - full take.mp4");
  await context.close();
});

test("a stranger with the creator's public referral code gets no access to the folder", async ({ browser, baseURL, expectConsoleErrors }) => {
  // On purpose: the public referral code is not a clipper invitation (404).
  expectConsoleErrors(/status of 404 .*\/clipping\.data\)$/);
  const stranger = await signedIn(browser, baseURL!, "partner@shortbeat.test");
  // The public referral link with clipper=1 keeps nothing: it is no invitation.
  await stranger.goto("/auth?ref=CASEY123&clipper=1");
  await expect(stranger).toHaveURL(/\/dashboard$/);
  await visit(stranger, "/clipping");
  await stranger.getByLabel("Invitation link or code").fill(`${baseURL}/auth?ref=CASEY123&clipper=1`);
  await stranger.getByLabel("I accept the Clipper Agreement").check();
  await stranger.getByRole("button", { name: "Accept invitation" }).click();
  await expect(stranger.getByText("This clipper invitation link is not valid.").first()).toBeVisible();
  await expect(stranger.getByRole("heading", { name: "Creators you clip for" })).toHaveCount(0);
  // Casey's seeded source cannot be downloaded.
  const res = await stranger.context().request.get("/clipping/sources/00000000-0000-4000-8000-000000006001/download", { maxRedirects: 0 });
  expect(res.status()).toBe(404);
});

test("/clipping at 375 px: no sideways scroll, the folder and clips usable", async ({ browser, baseURL }) => {
  const page = await signedIn(browser, baseURL!, "clipper@shortbeat.test");
  await page.setViewportSize({ width: 375, height: 800 });
  await visit(page, "/clipping");
  await expect(page.getByRole("heading", { name: "Creators you clip for" })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  const wide = await page.evaluate(() =>
    [...document.querySelectorAll("main *")]
      .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
      .slice(0, 8)
      .map((e) => `${e.tagName}.${String(e.className).slice(0, 60)} ${Math.round(e.getBoundingClientRect().right)}`),
  );
  await page.screenshot({ path: "/tmp/clipping-clipper-375-before.png", fullPage: true });
  expect(overflow, wide.join("\n")).toBeLessThanOrEqual(0);
  await page.screenshot({ path: "/tmp/clipping-clipper-375.png", fullPage: true });
});

test("source upload: speed and time left, pause, resume, a warning before leaving, cancel (the server aborts it)", async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const page = await signedIn(browser, baseURL!, "creator@shortbeat.test");
  await visit(page, "/clipping");
  // A slow connection (about 2 MB/s up), so the upload is seen running.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 2 * 1024 * 1024 });
  const size = 3 * 8 * 1024 * 1024 + 4096;
  const bytes = Buffer.alloc(size);
  bytes.set([0, 0, 0, 0x18, ...Buffer.from("ftypisom")], 0);
  const name = `Pause test ${Date.now().toString(36)}.mp4`;
  await page.getByLabel("Upload a source video").setInputFiles({ name, mimeType: "video/mp4", buffer: bytes });
  await expect(page.getByRole("button", { name: "Pause upload" })).toBeVisible();
  await expect(page.getByTestId("upload-speed")).toHaveText(/^[\d.]+ (KB|MB)\/s · about .+ left$/, { timeout: 15_000 });
  await expect(page.getByRole("progressbar", { name: `Upload progress of ${name}` })).toBeVisible();
  await page.setViewportSize({ width: 375, height: 800 });
  await page.getByRole("button", { name: "Pause upload" }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: "/tmp/clipping-upload-375.png" });
  await page.setViewportSize({ width: 1440, height: 900 });

  // Leaving warns (the browser's own "Leave site?" dialog); staying keeps the upload.
  const dialog = new Promise<string>((resolve) =>
    page.once("dialog", (d) => {
      resolve(d.type());
      void d.dismiss();
    }),
  );
  await page.close({ runBeforeUnload: true });
  expect(await dialog).toBe("beforeunload");
  expect(page.isClosed()).toBe(false);

  // Pause: the bytes stop; Resume goes on from the parts already sent.
  await page.getByRole("button", { name: "Pause upload" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Upload of ${name} paused.` })).toBeVisible();
  await expect(page.getByText("If you leave the page, choose the same file again to resume")).toBeVisible();
  await page.screenshot({ path: "/tmp/clipping-upload-paused-1440.png" });
  await page.getByRole("button", { name: "Resume upload" }).click();
  await expect(page.getByRole("button", { name: "Pause upload" })).toBeVisible();

  // Cancel: the server aborts the multipart upload and drops it; the folder does not list it.
  await page.getByRole("button", { name: "Cancel upload" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByText("Upload cancelled. Nothing of it is kept.")).toBeVisible({ timeout: 30_000 });
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await page.reload();
  await expect(page.getByText(name)).toHaveCount(0);
});
