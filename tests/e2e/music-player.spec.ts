import type { Page } from "@playwright/test";
import { expect, expectAccessible, signIn, test } from "./fixtures";

// The persistent player (issue 13): a preview started in the library keeps playing while the
// creator moves to other pages; the waveform seeks by keyboard; Space pauses; the heart is counted
// on the dashboard. The whole music journey (submit → review → use) is tests/e2e/music.spec.ts.

const audioState = (page: Page) =>
  page.evaluate(() => {
    const audio = document.getElementById("sb-player-audio") as HTMLAudioElement | null;
    return audio ? { paused: audio.paused, time: audio.currentTime, src: audio.currentSrc } : null;
  });

test("a preview keeps playing across pages, seeks by keyboard and pauses with Space", async ({ page, consoleErrors }) => {
  await signIn(page, "creator@shortbeat.test");
  await page.goto("/music");
  await page.waitForLoadState("networkidle");

  const firstPlay = page.getByRole("button", { name: /^Play / }).first();
  const label = (await firstPlay.getAttribute("aria-label")) ?? "";
  const title = label.replace(/^Play /, "").replace(/ by .*$/, "");
  await firstPlay.click();

  const player = page.getByRole("region", { name: "Music player" });
  await expect(player).toBeVisible();
  await expect(player.getByText(title, { exact: true })).toBeVisible();
  await expect.poll(async () => (await audioState(page))?.time ?? 0, { timeout: 15_000 }).toBeGreaterThan(0.3);
  const before = await audioState(page);
  expect(before?.paused).toBe(false);
  expect(before?.src).toContain("/music/audio/");

  await page
    .getByRole("button", { name: new RegExp(`^Favorite ${title}`) })
    .first()
    .click();
  await expectAccessible(page, "/music with the player");

  // Another page of the shell: the same element goes on playing, and the clock moves on.
  await page.getByRole("link", { name: "Dashboard", exact: true }).first().click();
  await page.waitForURL("**/dashboard");
  await expect(page.getByRole("region", { name: "Favorite Tracks" })).toContainText("1 tracks saved");
  const after = await audioState(page);
  expect(after?.paused).toBe(false);
  expect(after?.src).toBe(before?.src);
  await expect.poll(async () => (await audioState(page))?.time ?? 0).toBeGreaterThan(after?.time ?? 0);
  await page.getByRole("link", { name: "Channels", exact: true }).first().click();
  await page.waitForURL("**/channels");
  expect((await audioState(page))?.paused).toBe(false);
  await expectAccessible(page, "/channels with the player");

  // The waveform is a slider: Home goes to the start, arrows move 5 s.
  const seek = player.getByRole("slider", { name: `Seek in ${title}` });
  await seek.focus();
  await page.keyboard.press("Home");
  await page.keyboard.press("ArrowRight");
  await expect.poll(async () => (await audioState(page))?.time ?? 0).toBeGreaterThanOrEqual(5);
  await expect(seek).toHaveAttribute("aria-valuetext", /^0:0[5-9] of /);

  // Space toggles playback while the player has focus.
  await page.keyboard.press(" ");
  await expect.poll(async () => (await audioState(page))?.paused).toBe(true);
  await expect(player.getByRole("button", { name: "Play", exact: true })).toBeVisible();
  await page.keyboard.press(" ");
  await expect.poll(async () => (await audioState(page))?.paused).toBe(false);

  // Closing stops it.
  await player.getByRole("button", { name: "Close player" }).click();
  await expect(player).toBeHidden();
  expect((await audioState(page))?.paused).toBe(true);
  expect(consoleErrors).toEqual([]);
});
