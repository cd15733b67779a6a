// The Worker's CPU time per request, from workerd's own V8 inspector (the DevTools protocol of the
// app's isolate, `core:user:shortbeat`): the time Cloudflare bills and caps (10 ms a request on the
// Free plan), which the wall-clock latency of a shared machine does not show.
//
// How: the bench server is started with workerd's inspector (BENCH_INSPECT=<port>). The page is
// requested one request at a time while the isolate's V8 CPU profiler samples it every
// `interval` µs. V8 timestamps its samples with the monotonic clock Node's process.hrtime also
// reads, so each sample belongs to the request that was in flight (from its start to the next
// request's start, which includes work the request left to waitUntil). A request's CPU time is its
// number of busy samples (everything but "(idle)": JavaScript, "(program)" — workerd's own work
// inside the isolate, streams, HTML encoding — and "(garbage collector)") times the time one sample
// stands for: the median spacing of the profile's samples, not the interval asked for
// (`sampleSpacing`, below).
//
// Counting samples, not summing V8's time deltas: workerd runs every isolate of the process on one
// thread (the app, Miniflare's entry and asset workers, the local D1 database's shim). V8 takes no
// sample of the app's isolate while another isolate runs, and lumps that time into the delta of the
// app's next sample: a delta sum counts the D1 shim's SQLite time as the app's. A count does not,
// and a thread descheduled by a busy machine takes one pending sample, not one per missed tick, so
// a count follows CPU time where a delta sum follows wall time. The local D1 shim is its own
// isolate (`d1:db`) and is not counted: on Cloudflare that work is not in the Worker either.
// Checked on the 2-core VM (2026-11-27, load 12–13): a request that hashes a password twice
// (argon2, /dev/bench/password?n=1) counts 57–59 ms at 100 and 500 µs; workerd's whole thread spent
// 66–92 ms of CPU on it by the kernel's count (/proc/…/schedstat), D1 shim and HTTP included.
// Checked again on 2026-11-28's 2-core VM, idle: samples asked for every 100 µs came every 195 µs;
// counted × 100 µs the same request read 24–27 ms, counted × the spacing 46 ms, and the workerd
// thread's own CPU time for it without the profiler was 47.5 ms (of which 1.2 ms is what /healthz
// costs the thread: HTTP and Miniflare's entry worker).

/** A DevTools-protocol session with one of workerd's isolates over the inspector's WebSocket. */
export async function inspect(inspectorPort, target) {
  const ws = new WebSocket(`ws://127.0.0.1:${inspectorPort}/${target}`);
  await new Promise((ok, fail) => {
    ws.onopen = ok;
    ws.onerror = fail;
  });
  let id = 0;
  const pending = new Map();
  ws.onmessage = (e) => {
    const m = JSON.parse(e.data);
    if (m.id && pending.has(m.id)) {
      pending.get(m.id)(m.result);
      pending.delete(m.id);
    }
  };
  const send = (method, params = {}) =>
    new Promise((ok) => {
      pending.set(++id, ok);
      ws.send(JSON.stringify({ id, method, params }));
    });
  return { send, close: () => ws.close() };
}

/** The app's isolate as the inspector names it: `core:user:<worker name>` (bench-server.mjs names it shortbeat). */
export const APP_ISOLATE = "core:user:shortbeat";

const nowUs = () => Number(process.hrtime.bigint() / 1000n);

/**
 * CPU time of each of `requests` sequential requests to each target's `url` (ms, in request
 * order; one array per target), from the sampled profile of each target's app isolate. With two
 * targets (two builds, each on its own workerd, an A/B), their requests alternate, so that both
 * see the same machine. `interval`: the sampling interval in µs.
 */
export async function cpuPerRequest(targets, { requests = 100, interval = 100 } = {}) {
  const sessions = await Promise.all(targets.map((t) => inspect(t.inspectorPort, APP_ISOLATE)));
  try {
    for (const session of sessions) {
      await session.send("Profiler.enable");
      await session.send("Profiler.setSamplingInterval", { interval });
      await session.send("Profiler.start");
    }
    // Starting logs every compiled function: let that pass before the first request.
    await new Promise((r) => setTimeout(r, 200));
    const starts = targets.map(() => []);
    for (let i = 0; i < requests; i++) {
      for (const [k, t] of targets.entries()) {
        starts[k].push(nowUs());
        const res = await fetch(t.url, { headers: t.headers ?? {}, redirect: "manual" });
        await res.arrayBuffer();
      }
    }
    // Work the last request left to waitUntil.
    await new Promise((r) => setTimeout(r, 20));
    const out = [];
    for (const [k, session] of sessions.entries()) {
      const { profile } = await session.send("Profiler.stop");
      await session.send("Profiler.disable");
      const spacing = sampleSpacing(profile);
      const ms = samplesPerWindow(profile, [...starts[k], nowUs()]).map((n) => (n * spacing) / 1000);
      out.push(Object.assign(ms, { spacingUs: spacing }));
    }
    return out;
  } finally {
    for (const session of sessions) session.close();
  }
}

/**
 * The time one sample stands for (µs): the median spacing of consecutive samples, not the interval
 * asked for. The sampler thread sleeps the interval and the kernel wakes it late (timer slack,
 * scheduling), so samples asked for every 100 µs came every 195 µs on the 2-core VM of 2026-11-28:
 * counting them × 100 µs read every page about half its CPU time (a password hash counted 24–27 ms
 * where the thread's own CPU time, /proc/<pid>/task/<tid>/schedstat, was 46 ms). Gaps while another
 * isolate runs (the D1 shim) are few and long, so the median does not see them.
 */
export function sampleSpacing(profile) {
  const deltas = profile.timeDeltas.slice(1).sort((a, b) => a - b);
  return deltas.length ? deltas[Math.floor(deltas.length / 2)] : 0;
}

/** Busy samples of `profile` in each window [bounds[i], bounds[i+1]) (µs, V8's monotonic clock). */
export function samplesPerWindow(profile, bounds) {
  const idle = new Set(profile.nodes.filter((n) => n.callFrame.functionName === "(idle)").map((n) => n.id));
  const counts = new Array(bounds.length - 1).fill(0);
  let t = profile.startTime;
  let w = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i] ?? 0;
    if (t < bounds[0]) continue;
    while (w < counts.length && t >= bounds[w + 1]) w++;
    if (w >= counts.length) break;
    if (!idle.has(profile.samples[i])) counts[w]++;
  }
  return counts;
}
