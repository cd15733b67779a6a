#!/usr/bin/env node
// Measures argon2id hashing and verification inside workerd on the built app
// (/dev/bench/password, DEV_TOOLS only). Prints figures; asserts nothing.
import { spawn } from "node:child_process";
import { resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const port = process.env.BENCH_PORT ?? "4181";
const base = `http://localhost:${port}`;
const server = spawn(process.execPath, ["scripts/e2e-server.mjs"], {
  cwd: root,
  env: { ...process.env, E2E_PORT: port, SB_STATE_DIR: ".state-bench-pw" },
  stdio: ["ignore", "ignore", "ignore"],
});
try {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {}
    await new Promise((r) => setTimeout(r, 500));
  }
  const stats = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return { min: s[0], median: s[Math.floor(s.length / 2)], max: s[s.length - 1] };
  };
  const t0 = Date.now();
  const result = await (await fetch(`${base}/dev/bench/password?n=10`)).json();
  console.log(`argon2id ${result.encodedPrefix} in workerd, ${result.n} runs (wall ${Date.now() - t0} ms for the request)`);
  console.table({ "hash ms": stats(result.hashMs), "verify ms": stats(result.verifyMs) });
} finally {
  server.kill("SIGTERM");
}
