#!/usr/bin/env node
// Page benchmark: starts the built app locally (vite preview on workerd, its own state with
// demo data) and measures requests/s and latency for each route in the same run, next to the
// trivial /healthz baseline. Prints figures; asserts nothing.
//   npm run bench:pages [-- --duration 10 --connections 10]
import autocannon from "autocannon";
import { spawn } from "node:child_process";
import { benchArgs, root, waitForServer } from "./bench-lib.mjs";

const { values, base } = benchArgs({
  duration: { type: "string", default: "10" },
  connections: { type: "string", default: "10" },
  port: { type: "string", default: "4180" },
});

const server = spawn(process.execPath, ["scripts/e2e-server.mjs"], {
  cwd: root,
  env: { ...process.env, E2E_PORT: values.port, SB_STATE_DIR: ".state-bench" },
  stdio: ["ignore", "ignore", "inherit"],
});

function run(path, headers = {}) {
  return new Promise((resolvePromise, reject) => {
    autocannon({ url: base + path, duration: Number(values.duration), connections: Number(values.connections), headers }, (err, result) =>
      err ? reject(err) : resolvePromise(result),
    );
  });
}

/** Extra routes to measure: each later issue adds its own (e.g. a signed-in page). */
async function routes() {
  const list = [
    { name: "/healthz", path: "/healthz" },
    { name: "/", path: "/" },
  ];
  try {
    const extra = await import("./bench-pages.routes.mjs");
    list.push(...(await extra.default(base)));
  } catch (e) {
    if (e?.code !== "ERR_MODULE_NOT_FOUND") throw e;
  }
  return list;
}

try {
  await waitForServer(base);
  const rows = [];
  for (const r of await routes()) {
    await run(r.path, r.headers); // warm-up pass, discarded
    const res = await run(r.path, r.headers);
    rows.push({
      route: r.name,
      "req/s": Math.round(res.requests.average),
      "p50 ms": res.latency.p50,
      "p99 ms": res.latency.p99,
      non2xx: res.non2xx,
      errors: res.errors,
    });
  }
  const baseline = rows.find((r) => r.route === "/healthz")["req/s"];
  for (const row of rows) row["vs /healthz"] = `${(row["req/s"] / baseline).toFixed(3)}x`;
  console.log(`\n${values.connections} connections, ${values.duration} s per route, ${base}`);
  console.table(rows);
} finally {
  server.kill("SIGTERM");
}
