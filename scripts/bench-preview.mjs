#!/usr/bin/env node
// How long a music preview takes to start (issue 30 §2: "within 1 s on the production build").
// The BUILT Worker on workerd (scripts/bench-server.mjs, production build), Debian's Chromium
// through Playwright signed in as the demo creator, on /music: for each of --tracks tracks, a
// real click on its play button, then the time from that click to the shell's <audio> element's
// first `playing` event, and the bytes of audio the browser had received by then (and the size
// of the whole file it was streaming). The network is throttled through the DevTools protocol
// (--network, one or several: "fast4g" = 9 Mbit/s down, 1.5 Mbit/s up, 60 ms latency, and
// "slow4g" = 1.6 Mbit/s down, 750 kbit/s up, 562.5 ms latency, Chrome DevTools' presets;
// "none" = loopback) and the browser cache is off, so every track is a first play.
//   npm run bench:preview [-- --network fast4g,slow4g --previews on|off --studio 4 --tracks 4 --play on|off]
// Besides the demo catalogue (short 22 kHz mono WAVs the seed synthesizes), the bench adds
// --studio tracks as partners upload them: 3-minute CD-quality WAV masters (44.1 kHz, 16-bit
// stereo, 31 MB) posted to /music/submit, whose listening preview the server makes from the
// stored master in its PREVIEW_QUEUE job (app/modules/music/preview.server.ts, docs/decisions/0289:
// 128 kbit/s CBR). The bench waits for each preview and prints how long it took from the
// submission's answer to the preview on the row, and the workerd process's CPU time meanwhile
// (/proc/<pid>/stat: the job's encoding, plus the bench's own polling reads). --previews off:
// every track, the demo ones too, streams its original, as before docs/decisions/0270.
// --play off: only the uploads and their previews (no browser).
// Figures only; asserts nothing. BENCH_REUSE=1 reuses the state and build of the previous run.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { chromium } from "playwright";
import { benchArgs, pct, signIn } from "./bench-lib.mjs";
import { startBenchServer } from "./bench-server.mjs";
import { chromiumLaunchOptions } from "./chromium.mjs";

const { values, base } = benchArgs({
  tracks: { type: "string", default: "4" },
  studio: { type: "string", default: "4" },
  previews: { type: "string", default: "on" },
  play: { type: "string", default: "on" },
  port: { type: "string", default: "4187" },
  mode: { type: "string", default: "production" },
  network: { type: "string", default: "fast4g,slow4g" },
  state: { type: "string", default: ".state-bench-preview" },
});

const NETWORKS = {
  none: null,
  fast4g: { latency: 60, downloadThroughput: (9 * 1024 * 1024) / 8, uploadThroughput: (1.5 * 1024 * 1024) / 8 },
  slow4g: { latency: 562.5, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 },
};
const networks = values.network.split(",");
for (const n of networks) if (!(n in NETWORKS)) throw new Error(`--network is one or more of: ${Object.keys(NETWORKS).join(", ")}`);

const RATE = 44100;
const STUDIO_SECONDS = 180;

/** A 3-minute stereo loop (a chord over a kick), different per track: Float32 channels. */
function studioAudio(n) {
  const frames = RATE * STUDIO_SECONDS;
  const left = new Float32Array(frames);
  const right = new Float32Array(frames);
  const root = 110 * 2 ** (n / 12);
  for (let i = 0; i < frames; i++) {
    const t = i / RATE;
    const beat = t % 0.5;
    const kick = Math.sin(2 * Math.PI * 55 * beat) * Math.exp(-beat * 12) * 0.5;
    const chord = (Math.sin(2 * Math.PI * root * t) + Math.sin(2 * Math.PI * root * 1.25 * t) + Math.sin(2 * Math.PI * root * 1.5 * t)) * 0.12;
    left[i] = kick + chord;
    right[i] = kick + chord * 0.8 + Math.sin(2 * Math.PI * root * 2 * t) * 0.05;
  }
  return [left, right];
}

function wavOf([left, right]) {
  const data = left.length * 4;
  const buf = Buffer.alloc(44 + data);
  buf.write("RIFF", 0);
  buf.writeUInt32LE(36 + data, 4);
  buf.write("WAVEfmt ", 8);
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20);
  buf.writeUInt16LE(2, 22);
  buf.writeUInt32LE(RATE, 24);
  buf.writeUInt32LE(RATE * 4, 28);
  buf.writeUInt16LE(4, 32);
  buf.writeUInt16LE(16, 34);
  buf.write("data", 36);
  buf.writeUInt32LE(data, 40);
  for (let i = 0; i < left.length; i++) {
    buf.writeInt16LE(Math.round(Math.max(-1, Math.min(1, left[i])) * 32767), 44 + i * 4);
    buf.writeInt16LE(Math.round(Math.max(-1, Math.min(1, right[i])) * 32767), 46 + i * 4);
  }
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

/** CPU time (user + system, ms) of a process so far, from /proc/<pid>/stat (clock ticks of 10 ms). */
function processCpuMs(pid) {
  if (!pid) return Number.NaN;
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  // After the command name: state is field 3, utime 14 and stime 15 (1-based, proc(5)).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Waits for the server's preview of the track titled `title`: the row's preview key and size. */
async function previewOfTrack(db, title, timeoutMs = 300_000) {
  const started = Date.now();
  for (;;) {
    const row = await db.prepare("SELECT preview_key, preview_size, audio_size FROM music_tracks WHERE title = ?").bind(title).first();
    if (row?.preview_key) return row;
    if (Date.now() - started > timeoutMs) throw new Error(`no preview for ${title} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

/**
 * Uploads the studio tracks as the demo partner does, through /music/submit (the server checks
 * and stores the WAV; its queue job makes the preview), one after the other, waiting for each
 * one's preview; then publishes them.
 */
async function addStudioTracks(server) {
  const partner = await signIn(base, "partner@shortbeat.test");
  const db = await server.mf.getD1Database("DB");
  const encoded = [];
  for (let n = 0; n < Number(values.studio); n++) {
    const channels = studioAudio(n);
    const form = new FormData();
    const fields = { submissionKey: randomUUID(), title: `Studio master ${n + 1}`, artist: "Bench Studio", genre: "Electronic", mood: "Energetic" };
    for (const [k, v] of Object.entries({ ...fields, bpm: "120", tags: "bench", rights: "on", durationSeconds: String(STUDIO_SECONDS) })) form.set(k, v);
    form.set("audio", new File([wavOf(channels)], `studio-${n + 1}.wav`, { type: "audio/wav" }));
    form.set("cover", new File([PNG], "cover.png", { type: "image/png" }));
    // A dropped connection (EPIPE on a busy machine) is tried again: the form's key files the track once.
    let res;
    for (let attempt = 1; !res; attempt++) {
      res = await fetch(`${base}/music/submit`, { method: "POST", redirect: "manual", headers: { Cookie: partner, Origin: base }, body: form }).catch(
        (error) => {
          if (attempt === 3) throw error;
          console.error(`[bench] studio track ${n + 1}: ${error.cause?.code ?? error.message}, again`);
          return null;
        },
      );
    }
    if (res.status !== 302 && res.status !== 303) throw new Error(`submitting studio track ${n + 1}: HTTP ${res.status} ${(await res.text()).slice(0, 300)}`);
    if (values.previews === "on") {
      // From the submission's answer to the preview on the row: the queue's delivery and the job.
      const [cpu0, t0] = [processCpuMs(server.pid), performance.now()];
      const row = await previewOfTrack(db, fields.title);
      encoded.push({
        track: fields.title,
        "master MB": (row.audio_size / 1e6).toFixed(1),
        "preview KB": Math.round(row.preview_size / 1024),
        "to preview ms": Math.round(performance.now() - t0),
        "workerd CPU ms": processCpuMs(server.pid) - cpu0,
      });
    }
  }
  if (encoded.length > 0) {
    console.table(encoded);
    const cpu = encoded.map((e) => e["workerd CPU ms"]).sort((a, b) => a - b);
    const wall = encoded.map((e) => e["to preview ms"]).sort((a, b) => a - b);
    console.log(
      `server-made previews of ${STUDIO_SECONDS} s masters (${values.mode} build): submission answer → preview on the row p50 ${Math.round(pct(wall, 50))} ms, ` +
        `max ${wall.at(-1)} ms; workerd CPU meanwhile p50 ${Math.round(pct(cpu, 50))} ms, max ${cpu.at(-1)} ms`,
    );
  }
  // Published as an approval would leave them (the review itself is not what this bench measures).
  // --previews off: the demo tracks stream their WAVs too (the seed gives them previews), as before 0270.
  if (values.previews !== "on") await db.prepare("UPDATE music_tracks SET preview_key = NULL, preview_size = 0").run();
  const now = new Date().toISOString();
  await db
    .prepare(
      "UPDATE music_tracks SET status = 'published', reviewed_at = ?, published_at = ?, updated_at = ? WHERE title LIKE 'Studio master %' AND status = 'in_review'",
    )
    .bind(now, now, now)
    .run();
}

const server = await startBenchServer({
  stateDir: values.state,
  port: values.port,
  mode: values.mode,
  reuse: process.env.BENCH_REUSE === "1",
});
if (process.env.BENCH_REUSE !== "1") await addStudioTracks(server);
if (values.play === "off") {
  await server.dispose();
  process.exit(0);
}
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
  // Every studio track, then the first --tracks of the demo catalogue.
  const labels = await buttons.evaluateAll((els) => els.map((e) => e.getAttribute("aria-label")));
  const studio = labels.filter((l) => l.startsWith("Play Studio master "));
  const demo = labels.filter((l) => !l.startsWith("Play Studio master ")).slice(0, Number(values.tracks));
  for (const net of networks) {
    const network = NETWORKS[net];
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1, ...network });
    const rows = [];
    for (const aria of [...studio, ...demo]) {
      const button = page.getByRole("button", { name: aria, exact: true }).first();
      const label = aria.replace(/^Play /, "");
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
    const summary = (name, group) => {
      if (group.length === 0) return;
      const times = group.map((r) => r.ms).sort((a, b) => a - b);
      const bytes = group.map((r) => r.bytes).sort((a, b) => a - b);
      const totals = group.map((r) => r.total).sort((a, b) => a - b);
      console.log(
        `${name} (${values.mode} build, network ${net}, previews ${values.previews}, ${group.length} tracks): ` +
          `to first 'playing' p50 ${Math.round(pct(times, 50))} ms, max ${Math.round(times.at(-1))} ms; ` +
          `audio received by then p50 ${Math.round(pct(bytes, 50) / 1024)} KB, max ${Math.round(bytes.at(-1) / 1024)} KB; ` +
          `file streamed p50 ${Math.round(pct(totals, 50) / 1024)} KB, max ${Math.round(totals.at(-1) / 1024)} KB`,
      );
    };
    summary(
      "studio WAV masters",
      rows.filter((r) => r.label.startsWith("Studio master ")),
    );
    summary(
      "demo catalogue",
      rows.filter((r) => !r.label.startsWith("Studio master ")),
    );
    summary("all", rows);
  }
  console.log(`server: ${server.kind}`);
} finally {
  await browser.close();
  await server.dispose();
}
