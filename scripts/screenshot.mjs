#!/usr/bin/env node
// Takes a screenshot of a page in Debian's Chromium and prints console errors.
//   node scripts/screenshot.mjs URL OUT.png [WIDTH] [--login email]   (demo password)
import { chromium } from "@playwright/test";
import { chromiumLaunchOptions } from "./chromium.mjs";

const args = process.argv.slice(2);
const loginAt = args.indexOf("--login");
const login = loginAt >= 0 ? args.splice(loginAt, 2)[1] : null;
const [url, out = "/tmp/shot.png", width = "1440"] = args;
const browser = await chromium.launch(chromiumLaunchOptions);
const page = await browser.newPage({ viewport: { width: Number(width), height: 900 } });
page.on("console", (m) => m.type() === "error" && console.log("console error:", m.text().slice(0, 500)));
page.on("pageerror", (e) => console.log("page error:", e.message));
if (login) {
  const origin = new URL(url).origin;
  await page.goto(`${origin}/auth`);
  await page.getByLabel("Email").fill(login);
  await page.getByLabel("Password").fill("Shortbeat#2026");
  await page.getByRole("button", { name: "Sign In" }).click();
  await page.waitForURL((u) => !u.pathname.startsWith("/auth"));
}
await page.goto(url);
await page.waitForLoadState("networkidle");
await page.waitForTimeout(300);
await page.screenshot({ path: out, fullPage: true });
await browser.close();
console.log("saved", out);
