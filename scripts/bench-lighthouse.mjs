#!/usr/bin/env node
// Lighthouse (mobile emulation: its default Moto G Power screen, 4× CPU slowdown and slow-4G
// simulated throttling) with Debian's Chromium, against the built Worker served by workerd itself
// (scripts/bench-server.mjs). Public pages signed out, signed-in pages with a creator's session
// cookie. Prints the performance score and its main metrics per page (median of --runs runs).
// Figures only; asserts nothing. Goal (issue 12): performance ≥ 95 on /, /auth and /dashboard.
//   npm run bench:lighthouse [-- --runs 3 --only /dashboard]
// --state <folder> serves another state folder (with BENCH_REUSE=1, its build too): an A/B of two
// builds, alternated in the same minutes, is the only fair comparison on a busy machine.
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { benchArgs, signIn } from "./bench-lib.mjs";
import { startBenchServer } from "./bench-server.mjs";
import { chromiumLaunchOptions } from "./chromium.mjs";

const { values, base } = benchArgs({
  runs: { type: "string", default: "3" },
  port: { type: "string", default: "4185" },
  mode: { type: "string", default: "production" },
  only: { type: "string" },
  state: { type: "string", default: ".state-bench-lighthouse" },
});

const PAGES = [{ path: "/" }, { path: "/auth" }, { path: "/dashboard", as: "creator@shortbeat.test" }];

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)];
};

const server = await startBenchServer({ stateDir: values.state, port: values.port, mode: values.mode, reuse: process.env.BENCH_REUSE === "1" });
// Lighthouse drives its own Chrome over the DevTools protocol; chrome-launcher starts Debian's.
const chrome = await chromeLauncher.launch({
  chromePath: chromiumLaunchOptions.executablePath,
  chromeFlags: [...chromiumLaunchOptions.args.filter((a) => a !== "--headless"), "--headless=new"],
});
try {
  const rows = [];
  const heaviest = [];
  const tasks = [];
  for (const page of PAGES.filter((p) => !values.only || values.only.split(",").includes(p.path))) {
    const extraHeaders = page.as ? { Cookie: await signIn(base, page.as) } : undefined;
    const runs = [];
    for (let i = 0; i < Number(values.runs); i++) {
      let lhr;
      // A trace Chromium failed to record (NO_NAVSTART on a busy machine) is run again, up to 3 times.
      for (let attempt = 1; ; attempt++) {
        lhr = (await lighthouse(base + page.path, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["performance"], extraHeaders })).lhr;
        if (!lhr.runtimeError) break;
        if (attempt === 3) throw new Error(`${page.path}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
        console.error(`[bench] ${page.path}: ${lhr.runtimeError.code}, again`);
      }
      if (new URL(lhr.finalDisplayedUrl).pathname !== page.path) throw new Error(`${page.path} ended on ${lhr.finalDisplayedUrl}`);
      const a = lhr.audits;
      runs.push({
        score: Math.round(lhr.categories.performance.score * 100),
        fcp: a["first-contentful-paint"].numericValue,
        lcp: a["largest-contentful-paint"].numericValue,
        tbt: a["total-blocking-time"].numericValue,
        cls: a["cumulative-layout-shift"].numericValue,
        si: a["speed-index"].numericValue,
        bytes: a["total-byte-weight"].numericValue,
        benchmarkIndex: lhr.environment.benchmarkIndex,
        // Where the main thread went (Lighthouse's bootup-time audit): the two heaviest scripts.
        scripts: (a["bootup-time"].details?.items ?? [])
          .slice(0, 2)
          .map((i) => `${String(i.url).split("/").pop()} ${Math.round(i.scripting)} ms`)
          .join(", "),
        // The long tasks behind the blocking time (Lighthouse's long-tasks audit, simulated): what ran, when, how long.
        tasks: (a["long-tasks"]?.details?.items ?? [])
          .slice(0, 3)
          .map((i) => `${String(i.url).split("/").pop() || "?"} @${Math.round(i.startTime)} ${Math.round(i.duration)} ms`)
          .join(", "),
        // Main-thread time by kind (Lighthouse's mainthread-work-breakdown audit): the three largest.
        kinds: (a["mainthread-work-breakdown"]?.details?.items ?? [])
          .slice(0, 3)
          .map((i) => `${i.group} ${Math.round(i.duration)}`)
          .join(", "),
      });
    }
    const m = (k) => median(runs.map((r) => r[k]));
    rows.push({
      page: page.path,
      as: page.as ? "creator" : "-",
      "performance (median)": m("score"),
      runs: runs.map((r) => r.score).join(" "),
      "FCP ms": Math.round(m("fcp")),
      "LCP ms": Math.round(m("lcp")),
      "TBT ms": Math.round(m("tbt")),
      CLS: m("cls").toFixed(3),
      "SI ms": Math.round(m("si")),
      "transfer KB": Math.round(m("bytes") / 1024),
      "benchmark index": Math.round(m("benchmarkIndex")),
    });
    heaviest.push({ page: page.path, "scripting per run (bootup-time)": runs.map((r) => r.scripts).join(" | ") });
    for (const [i, r] of runs.entries()) tasks.push({ page: page.path, run: i + 1, "long tasks (file @start duration)": r.tasks, "main thread ms": r.kinds });
    console.error(`[bench] ${page.path}: ${runs.map((r) => r.score).join(" ")}`);
  }
  console.log(
    `\nLighthouse ${(await import("lighthouse/package.json", { with: { type: "json" } })).default.version}, mobile emulation, Chromium ${chromiumLaunchOptions.executablePath}`,
  );
  console.log(`Server: ${server.kind}`);
  console.table(rows);
  console.table(heaviest);
  console.table(tasks);
  console.log("Benchmark index: Lighthouse's CPU speed score of this machine at the time (its throttling assumes ~1000+); lower = busier machine, higher TBT.");
} finally {
  await chrome.kill();
  await server.dispose();
}
process.exit(0);
