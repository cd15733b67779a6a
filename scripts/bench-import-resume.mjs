// bench:import after a workerd crash (decision 0336): serves the bench state (BENCH_REUSE=1: its build;
// BENCH_REBUILD=1: the code as it is now), restarts the RevenueImportWorkflow instance of the report
// being read (after a crash Miniflare restarts workerd, but the local engine does not resume the
// instance whose step was running; every range step reads from the report row's next_offset, so the
// restarted instance reads on from there), then polls the app's progress route every 2 s as the admin,
// printing each poll's wall time, p50/max and rows/s, until the report leaves 'reading'.
//   BENCH_REUSE=1 nice -n 10 node scripts/bench-import-resume.mjs
import { DatabaseSync } from "node:sqlite";
import { startBenchServer } from "./bench-server.mjs";
import { root, signIn } from "./bench-lib.mjs";
import { d1FileOf } from "./scale-state.mjs";
process.chdir(root);
const server = await startBenchServer({ stateDir: ".state-bench-import", port: 5192, mode: "production", reuse: process.env.BENCH_REUSE === "1" });
const base = server.url.replace(/\/$/, "");
const db = new DatabaseSync(d1FileOf(".state-bench-import"), { readOnly: true });
const row = () => db.prepare("SELECT id, status, next_offset, size_bytes, rows_read, steps FROM revenue_reports ORDER BY created_at DESC LIMIT 1").get();
const r0 = row();
console.log("report", r0);
const env = await server.mf.getBindings();
const restartInstance = async () => {
  try {
    const inst = await env.REVENUE_IMPORT.get(r0.id);
    inst.restart().catch((e) => console.log("restart", e.message));
    console.log("instance restarted (its steps read from the report row's next_offset, so range 0 reads on from there)");
  } catch (e) {
    console.log("restart failed", e.message);
  }
  try {
    console.log("instance status", JSON.stringify(await (await env.REVENUE_IMPORT.get(r0.id)).status()).slice(0, 300));
  } catch (e) {
    console.log("status failed", e.message);
  }
};
await restartInstance();
await new Promise((r) => setTimeout(r, 3000));
const cookie = await signIn(base, "admin@shortbeat.test");
console.log("signed in", new Date().toISOString());
const t0 = performance.now();
const rows0 = r0.rows_read;
const lat = [];
for (;;) {
  await new Promise((r) => setTimeout(r, 2000));
  const s = performance.now();
  let status;
  try {
    const res = await fetch(`${base}/admin/payments/report?id=${r0.id}`, { headers: { Cookie: cookie }, signal: AbortSignal.timeout(60_000) });
    await res.text();
    status = res.status;
  } catch (e) {
    status = `ERR ${e.name} ${e.message}`;
  }
  const ms = performance.now() - s;
  lat.push(ms);
  const r = row();
  const t = (performance.now() - t0) / 1000;
  const sorted = [...lat].sort((a, b) => a - b);
  console.log(
    `${new Date().toISOString()} t=${t.toFixed(0)}s poll ${ms.toFixed(0)} ms ${status} | p50 ${sorted[Math.floor(sorted.length / 2)].toFixed(0)} max ${sorted.at(-1).toFixed(0)} | ${r.status} steps=${r.steps} rows=${r.rows_read} (${((r.rows_read - rows0) / t).toFixed(0)} rows/s) ${((100 * r.next_offset) / r.size_bytes).toFixed(1)}%`,
  );
  if (r.status !== "reading") break;
}
await server.dispose();
