#!/usr/bin/env node
// Takes a screenshot of a page in Debian's Chromium and prints console errors.
//   node scripts/screenshot.mjs URL OUT.png [WIDTH] [--cookie name=value]
import { chromium } from "@playwright/test";

const [url, out = "/tmp/shot.png", width = "1440"] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const page = await browser.newPage({ viewport: { width: Number(width), height: 900 } });
page.on("console", (m) => m.type() === "error" && console.log("console error:", m.text()));
page.on("pageerror", (e) => console.log("page error:", e.message));
await page.goto(url);
await page.waitForLoadState("networkidle");
await page.screenshot({ path: out, fullPage: true });
await browser.close();
console.log("saved", out);
