#!/usr/bin/env node
// Prepares the local bindings: .dev.vars with fresh secrets (first run only), D1 migrations,
// demo data. Safe to run any number of times. SB_STATE_DIR selects another local state folder
// (the end-to-end suite uses its own).
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { appendFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
// Offline, Miniflare would log a failed fetch of a sample `Request.cf` object; the placeholder does.
process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false";
const stateDir = process.env.SB_STATE_DIR ? resolve(root, process.env.SB_STATE_DIR) : null;

const fill = (text) => text.replace(/^([A-Z0-9_]+)=generate$/gm, (_, name) => `${name}=${randomBytes(32).toString("base64url")}`);

export function ensureDevVars() {
  const target = join(root, ".dev.vars");
  const example = readFileSync(join(root, ".dev.vars.example"), "utf8");
  if (existsSync(target)) {
    // Settings added to the example since this .dev.vars was made (e.g. the Stripe stand-in's) are appended.
    const have = new Set([...readFileSync(target, "utf8").matchAll(/^([A-Z0-9_]+)=/gm)].map((m) => m[1]));
    const missing = example.split("\n").filter((line) => /^[A-Z0-9_]+=/.test(line) && !have.has(line.split("=")[0]));
    if (missing.length === 0) return false;
    appendFileSync(target, `\n${fill(missing.join("\n"))}\n`);
    console.log(`Added ${missing.map((l) => l.split("=")[0]).join(", ")} to .dev.vars.`);
    return true;
  }
  writeFileSync(target, fill(example), { mode: 0o600 });
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
  const { Miniflare, convertV4MiniflareOptions } = await import("miniflare");
  const { build } = await import("esbuild");
  const { default: initArgon2 } = await import("@phi-ag/argon2/node");
  const { ARGON2_PARAMS, DEMO_PASSWORD } = await seedConstants();
  const argon2 = await initArgon2();
  const passwordHash = argon2.hash(DEMO_PASSWORD, { ...ARGON2_PARAMS, type: 2, version: 0x13 }).encoded;

  // The seed runs inside workerd, in a Worker of its own (scripts/seed-worker.ts) bound to the same
  // local D1 database and R2 bucket on disk as the app (wrangler's layout under the state folder):
  // one request in, every row and object written next to the data, one answer out. Earlier the seed
  // ran in Node and reached the bindings call by call through wrangler's platform proxy, whose
  // socket dropped on a busy machine (issue 26, docs/decisions/0191).
  const out = mkdtempSync(join(tmpdir(), "shortbeat-seed-"));
  await build({
    entryPoints: [join(root, "scripts/seed-worker.ts")],
    outfile: join(out, "seed-worker.mjs"),
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2024",
    logLevel: "error",
  });
  const persistRoot = stateDir ? join(stateDir, "v3") : join(root, ".wrangler/state/v3");
  // The seed is idempotent — rows are INSERT OR IGNORE in one batch, R2 objects are looked up before
  // they are written and a put is all or nothing — so a failed attempt is simply run again, and the
  // next attempt (or the next run) completes what the last one left.
  for (let attempt = 1; ; attempt++) {
    const mf = new Miniflare(
      convertV4MiniflareOptions({
        name: "shortbeat-seed",
        modules: true,
        scriptPath: join(out, "seed-worker.mjs"),
        modulesRoot: out,
        compatibilityDate: "2026-10-01",
        compatibilityFlags: ["nodejs_compat"],
        d1Databases: { DB: "00000000-0000-0000-0000-000000000000" },
        r2Buckets: { MEDIA: "shortbeat-media" },
        resourcePersistencePath: persistRoot,
      }),
    );
    try {
      const res = await mf.dispatchFetch("http://seed.local/", { method: "POST", headers: { "X-Demo-Password-Hash": passwordHash } });
      const body = await res.json();
      if (!res.ok) throw new Error(`The demo seed failed: ${body.error ?? res.status}\n${body.stack ?? ""}`);
      console.log(`Demo data ready (${body.usersCreated} new accounts, ${body.tracksUploaded} new audio files).`);
      return;
    } catch (error) {
      if (attempt >= SEED_ATTEMPTS || !isTransient(error)) throw error;
      console.warn(`Seeding was interrupted (${describe(error)}); trying again (${attempt + 1} of ${SEED_ATTEMPTS}).`);
      await new Promise((done) => setTimeout(done, 500 * attempt));
    } finally {
      await mf.dispose().catch(() => {});
    }
  }
}

/** The demo password and the app's argon2 settings, read from the app's own modules. */
async function seedConstants() {
  const { ARGON2_PARAMS } = await import("../app/modules/accounts/password-policy.ts");
  const { DEMO_PASSWORD } = await import("../app/dev/seed.server.ts");
  return { ARGON2_PARAMS, DEMO_PASSWORD };
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
