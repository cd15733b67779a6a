#!/usr/bin/env node
// CPU profile of one page under load, on workerd: starts the bench server (scripts/bench-server.mjs)
// with workerd's inspector, signs the chosen demo account in, and records the V8 profiles of the
// app's Worker and of the local D1 database's Worker while autocannon loads the page. Prints where
// the Worker's time goes (self time by function, grouped by module) and how busy D1 was.
//   npm run bench:profile [-- --path /dashboard --as creator@shortbeat.test --duration 8 --connections 20]
//   (--out profile.cpuprofile writes the Worker's raw profile for Chrome DevTools, and D1's as profile.d1.cpuprofile)
//   On another state (e.g. bench:scale's 100,000 creators, its build kept): BENCH_REUSE=1 npm run bench:profile --
//   --state .state-scale --path /admin/audit-log --as admin@shortbeat.test (BENCH_REBUILD=1: that state, the code as it is now)
import autocannon from "autocannon";
import { writeFileSync } from "node:fs";
import { benchArgs, signIn } from "./bench-lib.mjs";
import { APP_ISOLATE, inspect, sampleSpacing } from "./bench-cpu.mjs";
import { startBenchServer } from "./bench-server.mjs";

const { values, base } = benchArgs({
  path: { type: "string", default: "/dashboard" },
  as: { type: "string", default: "creator@shortbeat.test" },
  duration: { type: "string", default: "8" },
  connections: { type: "string", default: "20" },
  port: { type: "string", default: "4196" },
  inspector: { type: "string", default: "9396" },
  out: { type: "string" },
  state: { type: "string", default: ".state-bench-profile" },
});
process.env.BENCH_INSPECT = values.inspector;

const INTERVAL_US = 100;

/**
 * Self time per function and per module from a V8 CPU profile: samples × the time one sample stands
 * for (bench-cpu.mjs `sampleSpacing`: the samples' median spacing, not the interval asked for). Not V8's
 * time deltas: every isolate of workerd runs on one thread, and the time the thread spends in
 * another isolate (the D1 shim) is lumped into the delta of this isolate's next sample
 * (scripts/bench-cpu.mjs).
 */
function summarize(profile) {
  const idle = new Set(profile.nodes.filter((n) => n.callFrame.functionName === "(idle)").map((n) => n.id));
  const dt = new Map();
  const spacing = sampleSpacing(profile);
  for (const id of profile.samples) if (!idle.has(id)) dt.set(id, (dt.get(id) ?? 0) + spacing);
  const total = [...dt.values()].reduce((a, b) => a + b, 0);
  const byFn = new Map();
  const byModule = new Map();
  for (const node of profile.nodes) {
    const t = dt.get(node.id) ?? 0;
    if (!t) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url ? url.split("/").slice(-1)[0] : "";
    const fnKey = `${functionName || "(anonymous)"} ${file}:${lineNumber + 1}`;
    byFn.set(fnKey, (byFn.get(fnKey) ?? 0) + t);
    const mod = url ? file.replace(/-[A-Za-z0-9_-]{8}\.js$/, ".js") : functionName;
    byModule.set(mod, (byModule.get(mod) ?? 0) + t);
  }
  const top = (m, n) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => ({ what: k, ms: Math.round(v / 1000), "%": ((100 * v) / total).toFixed(1) }));
  return { totalMs: total / 1000, byModule: top(byModule, 15), byFn: top(byFn, 25) };
}

const server = await startBenchServer({ stateDir: values.state, port: values.port, reuse: process.env.BENCH_REUSE === "1" });
try {
  const cookie = await signIn(base, values.as);
  const headers = { Cookie: cookie };
  const load = () =>
    new Promise((ok, fail) =>
      autocannon({ url: base + values.path, duration: Number(values.duration), connections: Number(values.connections), headers }, (e, r) =>
        e ? fail(e) : ok(r),
      ),
    );
  await load(); // warm-up
  const targets = { worker: await inspect(values.inspector, APP_ISOLATE), d1: await inspect(values.inspector, "d1:db") };
  for (const t of Object.values(targets)) {
    await t.send("Profiler.enable");
    await t.send("Profiler.setSamplingInterval", { interval: INTERVAL_US });
    await t.send("Profiler.start");
  }
  const result = await load();
  const profiles = {};
  for (const [name, t] of Object.entries(targets)) {
    profiles[name] = (await t.send("Profiler.stop")).profile;
    t.close();
  }
  if (values.out) {
    writeFileSync(values.out, JSON.stringify(profiles.worker));
    writeFileSync(values.out.replace(/(\.cpuprofile)?$/, ".d1.cpuprofile"), JSON.stringify(profiles.d1));
  }
  console.log(
    `\n${values.path} as ${values.as}: ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms (${server.kind})`,
  );
  for (const [name, profile] of Object.entries(profiles)) {
    const s = summarize(profile);
    console.log(`\n${name}: ${Math.round(s.totalMs)} ms busy (idle left out); self time by module`);
    console.table(s.byModule);
    console.log(`${name}: self time by function`);
    console.table(s.byFn);
  }
} finally {
  await server.dispose();
}
process.exit(0);
