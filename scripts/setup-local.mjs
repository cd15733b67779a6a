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
  const proxy = await getPlatformProxy({
    configPath: seedConfig,
    persist: { path: stateDir ? join(stateDir, "v3") : join(root, ".wrangler/state/v3") },
  });
  try {
    const result = await seedDemoData({
      db: proxy.env.DB,
      media: proxy.env.MEDIA,
      hashPassword: async (pw) => argon2.hash(pw, { ...ARGON2_PARAMS, type: 2, version: 0x13 }).encoded,
    });
    console.log(`Demo data ready (${result.usersCreated} new accounts, ${result.tracksUploaded} new audio files).`);
  } finally {
    await proxy.dispose();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  ensureDevVars();
  applyMigrations();
  await seed();
}
