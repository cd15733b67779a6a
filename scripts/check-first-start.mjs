#!/usr/bin/env node
// `npm run check:first-start [-- --runs N] [--busy K] [--port P]`: the README's first command,
// started N times from nothing while the machine is kept busy, and how many came up (issue 26).
//
// One copy of this working tree (tracked and untracked files, node_modules hard-linked) is made in
// a temporary folder. Each run then deletes its local state (.wrangler, .dev.vars and Vite's
// pre-bundled dependencies), starts `npm run dev -- --port P --strictPort` there — setup, migrations,
// demo data and the dev server, exactly what a newcomer runs — and counts it as up when, within the
// time limit, the port answers /healthz, the landing page renders and the demo creator can sign in
// and open /dashboard (so the demo data is complete). K busy loops (default: one per core) run the
// whole time. Prints one line per run and the total; exits 1 unless every run came up.
import { spawn, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const runs = arg("runs", 20);
const busy = arg("busy", availableParallelism());
const port = arg("port", 5299);
const limitMs = arg("limit", 300) * 1000;

const copy = mkdtempSync(join(tmpdir(), "shortbeat-first-start-"));
const files = spawnSync("git", ["ls-files", "-co", "--exclude-standard", "-z"], { cwd: root, encoding: "utf8" }).stdout.split("\0").filter(Boolean);
for (const f of files) {
  mkdirSync(dirname(join(copy, f)), { recursive: true });
  try {
    cpSync(join(root, f), join(copy, f));
  } catch {
    // a file deleted in the working tree but still tracked
  }
}
spawnSync("cp", ["-al", join(root, "node_modules"), join(copy, "node_modules")]);
rmSync(join(copy, "node_modules/.vite"), { recursive: true, force: true });
console.log(`copy of the working tree: ${copy} (${files.length} files, node_modules hard-linked)`);

const loops = Array.from({ length: busy }, () => spawn(process.execPath, ["-e", "for(;;){}"], { stdio: "ignore" }));
console.log(`${busy} busy loop(s) running; ${runs} first starts on port ${port}, each within ${limitMs / 1000} s`);

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
const base = `http://localhost:${port}`;

async function get(path, init = {}) {
  try {
    const res = await fetch(base + path, { redirect: "manual", signal: AbortSignal.timeout(30_000), ...init });
    await res.arrayBuffer();
    return res;
  } catch {
    return null;
  }
}

/** Up: /healthz, the landing page, and the demo creator's sign-in and dashboard. */
async function answers() {
  if ((await get("/healthz"))?.status !== 200) return false;
  if ((await get("/"))?.status !== 200) return false;
  const signIn = await get("/auth", {
    method: "POST",
    headers: { Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ intent: "signin", email: "creator@shortbeat.test", password: "Shortbeat#2026" }),
  });
  const cookie = (signIn?.headers.getSetCookie() ?? []).map((c) => c.split(";")[0]).join("; ");
  if (signIn?.status !== 302 || !cookie) return false;
  return (await get("/dashboard", { headers: { Cookie: cookie } }))?.status === 200;
}

let up = 0;
const times = [];
try {
  for (let i = 1; i <= runs; i++) {
    for (const p of [".wrangler", ".dev.vars", "node_modules/.vite", ".react-router"]) rmSync(join(copy, p), { recursive: true, force: true });
    const started = Date.now();
    const child = spawn("npm", ["run", "dev", "--", "--port", String(port), "--strictPort"], { cwd: copy, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    let exited = null;
    child.on("exit", (code) => (exited = code));
    let ok = false;
    while (Date.now() - started < limitMs && exited === null) {
      if (await answers()) {
        ok = true;
        break;
      }
      await sleep(1000);
    }
    const seconds = (Date.now() - started) / 1000;
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      // gone already
    }
    for (let w = 0; w < 50 && exited === null; w++) await sleep(200);
    if (exited === null) {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // gone already
      }
    }
    if (ok) {
      up++;
      times.push(seconds);
      console.log(`run ${i}: up in ${seconds.toFixed(1)} s`);
    } else {
      console.log(`run ${i}: NOT up (${exited === null ? `no answer within ${limitMs / 1000} s` : `exited with ${exited}`}); last output:`);
      console.log(output.split("\n").slice(-25).join("\n"));
    }
    await sleep(1000);
  }
} finally {
  for (const l of loops) l.kill();
  rmSync(copy, { recursive: true, force: true });
}
times.sort((a, b) => a - b);
const median = times.length ? times[Math.floor(times.length / 2)] : NaN;
console.log(
  `first starts from nothing with ${busy} busy loop(s): ${up} of ${runs} answered on their port` +
    (times.length ? ` (median ${median.toFixed(1)} s, slowest ${times.at(-1).toFixed(1)} s)` : ""),
);
process.exit(up === runs ? 0 : 1);
