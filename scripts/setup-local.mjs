#!/usr/bin/env node
// Prepares the local bindings: .dev.vars with fresh secrets (first run only), D1 migrations,
// demo data. Safe to run any number of times. SB_STATE_DIR selects another local state folder
// (the end-to-end suite uses its own).
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
// Offline, Miniflare would log a failed fetch of a sample `Request.cf` object; the placeholder does.
process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false";
const stateDir = process.env.SB_STATE_DIR ? resolve(root, process.env.SB_STATE_DIR) : null;

export function ensureDevVars() {
  const target = join(root, ".dev.vars");
  if (existsSync(target)) return false;
  const example = readFileSync(join(root, ".dev.vars.example"), "utf8");
  const filled = example.replace(/^([A-Z0-9_]+)=generate$/gm, (_, name) => `${name}=${randomBytes(32).toString("base64url")}`);
  writeFileSync(target, filled, { mode: 0o600 });
  console.log("Created .dev.vars with fresh local secrets.");
  return true;
}

export function applyMigrations() {
  const args = ["d1", "migrations", "apply", "DB", "--local"];
  if (stateDir) args.push("--persist-to", stateDir);
  const result = spawnSync(process.execPath, [join(root, "node_modules/.bin/wrangler"), ...args], {
    cwd: root,
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
  });
  if (result.status !== 0) throw new Error("Applying D1 migrations failed");
}

export async function seed() {
  const { getPlatformProxy } = await import("wrangler");
  const { default: initArgon2 } = await import("@phi-ag/argon2/node");
  const { seedDemoData } = await import("../app/dev/seed.server.ts");
  const { ARGON2_PARAMS } = await import("../app/modules/accounts/password-policy.ts");
  const argon2 = await initArgon2();
  // The seed needs only D1 and the buckets. Handing wrangler.toml itself to getPlatformProxy
  // would warn about the Durable Objects, whose classes live in the Worker it does not run.
  const seedConfig = join(mkdtempSync(join(tmpdir(), "shortbeat-seed-")), "wrangler.json");
  writeFileSync(
    seedConfig,
    JSON.stringify({
      name: "shortbeat-seed",
      compatibility_date: "2026-10-01",
      d1_databases: [{ binding: "DB", database_name: "shortbeat", database_id: "00000000-0000-0000-0000-000000000000" }],
      r2_buckets: [
        { binding: "AVATARS", bucket_name: "shortbeat-avatars" },
        { binding: "MEDIA", bucket_name: "shortbeat-media" },
      ],
    }),
  );
  const persist = { path: stateDir ? join(stateDir, "v3") : join(root, ".wrangler/state/v3") };
  // The seed talks to the local bindings through wrangler's platform proxy (a socket to workerd).
  // On a busy machine that socket has been seen to drop mid-way ("fetch failed … other side
  // closed") after tens of megabytes of demo audio. The seed is idempotent — rows are INSERT OR
  // IGNORE in one batch, R2 objects are looked up before they are written and a put is all or
  // nothing — so a dropped socket is retried with a fresh proxy, and the next attempt (or the next
  // run) completes what the last one left (docs/decisions/0191).
  for (let attempt = 1; ; attempt++) {
    const proxy = await getPlatformProxy({ configPath: seedConfig, persist });
    try {
      const result = await seedDemoData({
        db: proxy.env.DB,
        media: proxy.env.MEDIA,
        hashPassword: async (pw) => argon2.hash(pw, { ...ARGON2_PARAMS, type: 2, version: 0x13 }).encoded,
      });
      console.log(`Demo data ready (${result.usersCreated} new accounts, ${result.tracksUploaded} new audio files).`);
      return;
    } catch (error) {
      if (attempt >= SEED_ATTEMPTS || !isTransient(error)) throw error;
      console.warn(`Seeding was interrupted (${describe(error)}); trying again (${attempt + 1} of ${SEED_ATTEMPTS}).`);
      await new Promise((done) => setTimeout(done, 500 * attempt));
    } finally {
      await proxy.dispose().catch(() => {});
    }
  }
}

const SEED_ATTEMPTS = 5;

/** A dropped or refused local socket (undici's "fetch failed" and its causes), not a bug in the seed. */
export function isTransient(error) {
  for (let e = error, depth = 0; e && depth < 5; e = e.cause, depth++) {
    const text = `${e.name ?? ""} ${e.code ?? ""} ${e.message ?? ""}`;
    if (
      /fetch failed|other side closed|socket hang up|ECONNRESET|ECONNREFUSED|EPIPE|UND_ERR_SOCKET|UND_ERR_CLOSED|terminated|Network connection lost/i.test(text)
    )
      return true;
  }
  return false;
}

function describe(error) {
  const parts = [];
  for (let e = error, depth = 0; e && depth < 3; e = e.cause, depth++) parts.push(e.message ?? String(e));
  return parts.join(" ← ");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  ensureDevVars();
  applyMigrations();
  await seed();
}
