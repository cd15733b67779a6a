#!/usr/bin/env node
// How long a music preview takes to start (issue 30 §2: "within 1 s on the production build").
// The BUILT Worker on workerd (scripts/bench-server.mjs, production build), Debian's Chromium
// through Playwright signed in as the demo creator, on /music: for each of --tracks tracks, a
// real click on its play button, then the time from that click to the shell's <audio> element's
// first `playing` event, and the bytes of audio the browser had received by then (and the size
// of the whole file it was streaming). The network is throttled through the DevTools protocol
// (--network: "fast4g" = 9 Mbit/s down, 1.5 Mbit/s up, 60 ms latency, Chrome DevTools' preset;
// "none" = loopback) and the browser cache is off, so every track is a first play.
//   npm run bench:preview [-- --tracks 8 --network fast4g]
// Figures only; asserts nothing. BENCH_REUSE=1 reuses the state and build of the previous run.
import { chromium } from "playwright";
import { benchArgs, pct, signIn } from "./bench-lib.mjs";
import { startBenchServer } from "./bench-server.mjs";
import { chromiumLaunchOptions } from "./chromium.mjs";

const { values, base } = benchArgs({
  tracks: { type: "string", default: "8" },
  port: { type: "string", default: "4187" },
  mode: { type: "string", default: "production" },
  network: { type: "string", default: "fast4g" },
  state: { type: "string", default: ".state-bench-preview" },
});

const NETWORKS = {
  none: null,
  fast4g: { latency: 60, downloadThroughput: (9 * 1024 * 1024) / 8, uploadThroughput: (1.5 * 1024 * 1024) / 8 },
};
if (!(values.network in NETWORKS)) throw new Error(`--network is one of: ${Object.keys(NETWORKS).join(", ")}`);

const server = await startBenchServer({ stateDir: values.state, port: values.port, mode: values.mode, reuse: process.env.BENCH_REUSE === "1" });
const browser = await chromium.launch({ ...chromiumLaunchOptions, args: [...chromiumLaunchOptions.args, "--mute-audio"] });
try {
  const cookie = await signIn(base, "creator@shortbeat.test");
  const [name, value] = cookie.split("=");
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addCookies([{ name, value, url: base }]);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });

  // Every response of /music/audio/*: status, headers, and the bytes received (on the wire) per request.
  const audio = new Map();
  cdp.on("Network.responseReceived", (e) => {
    if (!new URL(e.response.url).pathname.startsWith("/music/audio/")) return;
    const h = Object.fromEntries(Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), v]));
    const entry = audio.get(e.requestId) ?? { bytes: 0 };
    Object.assign(entry, { url: e.response.url, status: e.response.status, type: h["content-type"], range: h["content-range"], length: h["content-length"] });
    audio.set(e.requestId, entry);
  });
  cdp.on("Network.dataReceived", (e) => {
    const entry = audio.get(e.requestId);
    if (entry) entry.bytes += e.encodedDataLength || e.dataLength;
  });

  await page.goto(`${base}/music`, { waitUntil: "networkidle" });
  const network = NETWORKS[values.network];
  if (network) await cdp.send("Network.emulateNetworkConditions", { offline: false, ...network });
  // The click and the first `playing` after it, in the page's own clock.
  await page.evaluate(() => {
    const w = window;
    document.addEventListener("click", () => (w.__clickAt = performance.now()), true);
    document.getElementById("sb-player-audio").addEventListener("playing", () => {
      w.__playingAt ??= performance.now();
    });
  });

  const buttons = page.locator('button[aria-label^="Play "]');
  await buttons.first().waitFor();
  const count = Math.min(Number(values.tracks), await buttons.count());
  const rows = [];
  for (let i = 0; i < count; i++) {
    const button = buttons.nth(i);
    const label = (await button.getAttribute("aria-label")).replace(/^Play /, "");
    audio.clear();
    await page.evaluate(() => {
      window.__clickAt = null;
      window.__playingAt = null;
    });
    await button.click();
    await page.waitForFunction(() => window.__playingAt != null, null, { timeout: 60_000 });
    const ms = await page.evaluate(() => window.__playingAt - window.__clickAt);
    const responses = [...audio.values()];
    const bytes = responses.reduce((n, r) => n + r.bytes, 0);
    const first = responses[0] ?? {};
    const total = Number(first.range?.split("/")[1] ?? first.length ?? Number.NaN);
    rows.push({ label, ms, bytes, total, status: responses.map((r) => r.status).join(","), type: first.type });
    // Stop it before the next one, so the next click starts from silence.
    await page.evaluate(() => document.getElementById("sb-player-audio").pause());
  }

  const table = rows.map((r) => ({
    track: r.label.slice(0, 44),
    "ms to playing": Math.round(r.ms),
    "KB by then": Math.round(r.bytes / 1024),
    "file KB": Math.round(r.total / 1024),
    type: r.type,
    responses: r.status,
  }));
  console.table(table);
  const times = rows.map((r) => r.ms).sort((a, b) => a - b);
  const bytes = rows.map((r) => r.bytes).sort((a, b) => a - b);
  const totals = rows.map((r) => r.total).sort((a, b) => a - b);
  console.log(
    `preview start (${values.mode} build, network ${values.network}, ${rows.length} tracks): p50 ${Math.round(pct(times, 50))} ms, max ${Math.round(times.at(-1))} ms; ` +
      `audio received by then p50 ${Math.round(pct(bytes, 50) / 1024)} KB; file p50 ${Math.round(pct(totals, 50) / 1024)} KB, max ${Math.round(totals.at(-1) / 1024)} KB`,
  );
  console.log(`server: ${server.kind}`);
} finally {
  await browser.close();
  await server.dispose();
}
