import type { Browser, Page } from "@playwright/test";
import { encodeWav } from "../../app/dev/wav";
import { expect, expectAccessible, test, signIn } from "./fixtures";

// The music journey of issue 13: a partner submits a track with the progress bar → an admin
// approves it from the review queue → a creator finds it by search, previews it while changing
// pages, favorites it, uses it → opens the certificate → the public verification page shows it
// valid → the partner sees one licence. Screenshots of the partner and admin screens at 375 and
// 1440 px go to /tmp/music-shots.

const SHOTS = "/tmp/music-shots";

/** A 3-second 44.1 kHz 16-bit mono WAV with a rising tone, so its waveform is not flat (and an MP3 preview is smaller). */
function wavBuffer(seconds = 3): Buffer {
  const rate = 44100;
  const length = rate * seconds;
  const tone = Float32Array.from({ length }, (_, i) => Math.sin((2 * Math.PI * 440 * i) / rate) * 0.6 * (i / length));
  return Buffer.from(encodeWav(tone, rate));
}

async function signedIn(browser: Browser, baseURL: string, email: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, acceptDownloads: true });
  const page = await context.newPage();
  await signIn(page, email, { landing: null });
  await expect(page).toHaveURL(/\/dashboard$/);
  return page;
}

async function shots(page: Page, name: string) {
  const size = page.viewportSize() ?? { width: 1440, height: 900 };
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: `${SHOTS}/${name}-1440.png`, fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: `${SHOTS}/${name}-375.png`, fullPage: true });
  await page.setViewportSize(size);
}

test("a partner submits, an admin approves, a creator finds, previews, favorites and uses it; the licence verifies; the partner sees it", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const title = `Sunrise Drive ${Date.now().toString(36)}`;

  // ---- The partner submits, with the progress bar ----
  const partner = await signedIn(browser, baseURL!, "partner@shortbeat.test");
  await partner.goto("/music/submit");
  await partner.waitForLoadState("networkidle");
  await expectAccessible(partner, "/music/submit");
  await shots(partner, "submit-empty");
  const readHint = partner.getByText("Once you choose a file, its length and waveform show here.");
  await expect(readHint).toBeVisible();

  // Refused first: a "song.mp3" that is really a PNG gets a message at the field, nothing filed.
  const png = await partner.screenshot({ clip: { x: 0, y: 0, width: 64, height: 64 } });
  await partner.getByLabel("Audio (required: MP3 or WAV, up to 50 MB)").setInputFiles({ name: "song.mp3", mimeType: "audio/mpeg", buffer: png });
  await expect(partner.getByText("The audio must be an MP3 or WAV file.")).toBeVisible();

  await partner.getByLabel("Audio (required: MP3 or WAV, up to 50 MB)").setInputFiles({ name: "sunrise.wav", mimeType: "audio/wav", buffer: wavBuffer() });
  await expect(partner.getByText(/Length 0:03 · waveform ready/)).toBeVisible();
  await expect(readHint).toBeHidden();
  await partner.getByLabel("Cover image (required: JPEG, PNG or WebP, up to 5 MB)").setInputFiles({ name: "cover.png", mimeType: "image/png", buffer: png });
  await partner.getByLabel("Title").fill(title);
  await partner.getByLabel("Artist").fill("The Journey Band");
  await partner.getByLabel("Genre").selectOption("Pop");
  await partner.getByLabel("Mood").selectOption("Happy");
  await partner.getByLabel("BPM").fill("118");
  await partner.getByLabel("Tags (optional)").fill("sunrise, drive, e2e");
  await partner.getByLabel(/I own or control all rights/).check();
  await shots(partner, "submit-filled");
  // Hold the request a moment so the bar is seen before the answer arrives. The form sends no
  // listening preview: the server makes it from the stored WAV (decision 0289).
  let sentPreview = true;
  await partner.route("**/music/submit.data", async (route) => {
    const body = route.request().postDataBuffer() ?? Buffer.alloc(0);
    sentPreview = body.indexOf('name="preview"') >= 0;
    await new Promise((r) => setTimeout(r, 700));
    await route.continue();
  });
  await partner.getByRole("button", { name: "Submit for review" }).click();
  await expect(partner.locator("#submit-progress")).toBeVisible();
  await expect(partner.getByText(/Uploading… \d+%|Processing…/).first()).toBeVisible();
  await expect(partner).toHaveURL(/\/music\/submissions$/);
  await expect(partner.getByText("Track submitted")).toBeVisible();
  expect(sentPreview, "the form sent a preview made in the browser").toBe(false);
  const mine = partner.getByTestId("submission").filter({ hasText: title });
  await expect(mine.getByText("In review")).toBeVisible();
  await expectAccessible(partner, "/music/submissions");
  await shots(partner, "submissions");

  // ---- An admin plays it and approves it ----
  const admin = await signedIn(browser, baseURL!, "admin@shortbeat.test");
  await admin.goto("/admin/music");
  await admin.waitForLoadState("networkidle");
  await expectAccessible(admin, "/admin/music");
  const card = admin.getByTestId("review-item").filter({ hasText: title });
  await expect(card).toBeVisible();
  // The reviewer hears the master itself, never a preview (issue 40).
  const reviewed = admin.waitForResponse((r) => r.url().includes("/music/audio/"));
  await card.getByRole("button", { name: `Play ${title} by The Journey Band` }).click();
  expect((await reviewed).headers()["content-type"]).toBe("audio/wav");
  await expect(admin.getByRole("region", { name: "Music player" }).getByText(title)).toBeVisible();
  await shots(admin, "review-queue");
  await card.getByRole("link", { name: `Approve ${title}` }).click();
  await expect(admin.getByRole("dialog")).toBeVisible();
  await admin.getByRole("button", { name: "Approve and publish" }).click();
  await expect(admin.getByText("Track published")).toBeVisible();
  await expect(admin.getByTestId("review-item").filter({ hasText: title })).toHaveCount(0);

  // ---- A creator finds it, previews it across pages, favorites it, uses it ----
  const creator = await signedIn(browser, baseURL!, "creator@shortbeat.test");
  await creator.goto(`/music?q=${encodeURIComponent(title.split(" ").slice(0, 2).join(" "))}`);
  await creator.waitForLoadState("networkidle");
  await expectAccessible(creator, "/music (search)");
  const play = creator.getByRole("button", { name: `Play ${title} by The Journey Band` }).first();
  await expect(play).toBeVisible();
  const streamed = creator.waitForResponse((r) => r.url().includes("/music/audio/"));
  await play.click();
  // Listeners stream the preview the server made from the WAV (its queue job ran meanwhile), not the WAV.
  expect((await streamed).headers()["content-type"]).toBe("audio/mpeg");
  const player = creator.getByRole("region", { name: "Music player" });
  await expect(player.getByText(title)).toBeVisible();
  await creator.getByRole("link", { name: "Dashboard" }).first().click();
  await expect(creator).toHaveURL(/\/dashboard$/);
  await expect(player.getByText(title)).toBeVisible(); // still in the shell's player
  await creator.goBack();
  await creator
    .getByRole("button", { name: `Favorite ${title}` })
    .first()
    .click();
  await expect(creator.getByRole("button", { name: `Favorite ${title}` }).first()).toHaveAttribute("aria-pressed", "true");
  await creator
    .getByRole("button", { name: `Use this track: ${title} by The Journey Band` })
    .first()
    .click();
  // The creator's channels, all ticked: the demo's two (journeys run earlier may have linked more);
  // the creator picks the ones the licence covers (decision 0248).
  const pick = creator.getByRole("dialog", { name: `Use “${title}”` });
  await expect(pick.getByRole("checkbox", { name: "Casey Creates", exact: true })).toBeChecked();
  await expect(pick.getByRole("checkbox", { name: "Casey Creates Clips" })).toBeChecked();
  await expectAccessible(creator, "/music (pick the licence's channels)");
  await pick.getByRole("checkbox", { name: "Casey Creates Clips" }).uncheck();
  await pick.getByRole("button", { name: "Get licence and download" }).click();
  await expect(creator.getByText("Licence recorded")).toBeVisible();
  await creator
    .getByRole("link", { name: `Certificate of ${title}` })
    .first()
    .click();
  await expect(creator).toHaveURL(/\/music\/licences\/SB-/);
  const code = decodeURIComponent(new URL(creator.url()).pathname.split("/").pop() ?? "");
  await expect(creator.getByText(code).first()).toBeVisible();
  await expectAccessible(creator, "certificate");

  // ---- Anyone can verify it ----
  const anon = await (await browser.newContext({ baseURL })).newPage();
  await anon.goto(`/licences/${code}`);
  await expect(anon.getByText("Valid licence")).toBeVisible();
  await expect(anon.getByText(title)).toBeVisible();
  await expect(anon.getByText("Casey Creates", { exact: true })).toBeVisible();
  await expect(anon.getByText("Casey Creates Clips")).toHaveCount(0);
  await expectAccessible(anon, "/licences/{code}");

  // ---- The partner sees one licence ----
  await partner.reload();
  const published = partner.getByTestId("submission").filter({ hasText: title });
  await expect(published.getByText("Published", { exact: true })).toBeVisible();
  await expect(published.getByTestId("licence-count")).toHaveText(/1 licence · 1 creator/);
});

// Issue 30: a partner plays their own submission, an admin rejects it with a note, the partner
// reads the note, plays the rejected track, resubmits it with changes and sees its history; the
// admin sees the earlier round on the review card.
test("a partner plays their rejected track, resubmits it with changes and sees its history", async ({ browser, baseURL }) => {
  test.setTimeout(180_000);
  const title = `Harbour Lights ${Date.now().toString(36)}`;
  const note = "The intro is too quiet; please raise it by 3 dB.";

  const partner = await signedIn(browser, baseURL!, "partner@shortbeat.test");
  await partner.goto("/music/submit");
  await partner.waitForLoadState("networkidle");
  const png = await partner.screenshot({ clip: { x: 0, y: 0, width: 64, height: 64 } });
  await partner.getByLabel("Audio (required: MP3 or WAV, up to 50 MB)").setInputFiles({ name: "harbour.wav", mimeType: "audio/wav", buffer: wavBuffer() });
  await expect(partner.getByText(/Length 0:03 · waveform ready/)).toBeVisible();
  await partner.getByLabel("Cover image (required: JPEG, PNG or WebP, up to 5 MB)").setInputFiles({ name: "cover.png", mimeType: "image/png", buffer: png });
  await partner.getByLabel("Title").fill(title);
  await partner.getByLabel("Artist").fill("The Journey Band");
  await partner.getByLabel("Genre").selectOption("Ambient");
  await partner.getByLabel("Mood").selectOption("Calm");
  await partner.getByLabel("BPM").fill("80");
  await partner.getByLabel(/I own or control all rights/).check();
  await partner.getByRole("button", { name: "Submit for review" }).click();
  await expect(partner).toHaveURL(/\/music\/submissions$/);

  // ---- The admin rejects it with a note ----
  const admin = await signedIn(browser, baseURL!, "admin@shortbeat.test");
  await admin.goto("/admin/music");
  const card = admin.getByTestId("review-item").filter({ hasText: title });
  await card.getByRole("link", { name: `Reject ${title}` }).click();
  await admin.getByLabel("Note for the partner").fill(note);
  await admin.getByRole("button", { name: "Reject track" }).click();
  await expect(admin.getByText("Track rejected")).toBeVisible();

  // ---- The partner reads the note and plays the rejected track ----
  await partner.goto("/music/submissions");
  await partner.waitForLoadState("networkidle");
  const mine = partner.getByTestId("submission").filter({ hasText: title });
  await expect(mine.getByText("Rejected", { exact: true })).toBeVisible();
  await expect(mine.getByText(note)).toBeVisible();
  const audioStatus = partner.waitForResponse((r) => r.url().includes("/music/audio/"));
  await mine.getByRole("button", { name: `Play ${title} by The Journey Band` }).click();
  expect([200, 206]).toContain((await audioStatus).status());
  const player = partner.getByRole("region", { name: "Music player" });
  await expect(player.getByText(title)).toBeVisible();
  await expect(player.getByText("This preview could not be played. Please try again.")).toHaveCount(0);
  await expectAccessible(partner, "/music/submissions (rejected)");
  await shots(partner, "submissions-rejected");

  // ---- Resubmits with changes, by keyboard ----
  await mine.getByRole("link", { name: `Resubmit with changes (${title})` }).focus();
  await partner.keyboard.press("Enter");
  await expect(partner).toHaveURL(/\/music\/submissions\/[0-9a-f-]+\/resubmit$/);
  await partner.waitForLoadState("networkidle");
  await expect(partner.getByTestId("rejection-reason")).toContainText(note);
  await expect(partner.getByLabel("Title")).toHaveValue(title);
  await expectAccessible(partner, "/music/submissions/:id/resubmit");
  await shots(partner, "resubmit");
  // Bad input first: a clear message, nothing sent.
  await partner.getByLabel("BPM").fill("999");
  await partner.getByRole("button", { name: "Resubmit for review" }).click();
  await expect(partner.getByText("BPM must be a whole number from 40 to 250.")).toBeVisible();
  await partner.getByLabel("BPM").fill("84");
  await partner.getByLabel("Tags (optional)").fill("harbour, night, louder");
  await partner.getByLabel(/I own or control all rights/).check();
  await partner.getByRole("button", { name: "Resubmit for review" }).click();
  await expect(partner).toHaveURL(/\/music\/submissions$/);
  await expect(partner.getByText("Track resubmitted")).toBeVisible();
  const again = partner.getByTestId("submission").filter({ hasText: title });
  await expect(again.getByText("In review")).toBeVisible();
  const history = again.getByRole("list", { name: `History of ${title}` });
  await expect(history.getByText("Rejected")).toBeVisible();
  await expect(history.getByText(note)).toBeVisible();
  await expect(history.getByText(/changed: BPM, tags/)).toBeVisible();
  await shots(partner, "submissions-history");

  // ---- The admin sees the earlier round ----
  await admin.goto("/admin/music");
  const back = admin.getByTestId("review-item").filter({ hasText: title });
  await expect(back.getByText("Resubmitted: earlier rounds")).toBeVisible();
  await expect(back.getByText(note)).toBeVisible();
  await shots(admin, "review-resubmitted");
});
