#!/usr/bin/env node
// Prepares the local bindings: .dev.vars with fresh secrets (first run only), D1 migrations,
// demo data. Safe to run any number of times. SB_STATE_DIR selects another local state folder
// (the end-to-end suite uses its own).
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
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
    env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" },
  });
  if (result.status !== 0) throw new Error("Applying D1 migrations failed");
}

export async function seed() {
  const { getPlatformProxy } = await import("wrangler");
  const { default: initArgon2 } = await import("@phi-ag/argon2/node");
  const { seedDemoData } = await import("../app/dev/seed.server.ts");
  const { ARGON2_PARAMS } = await import("../app/modules/accounts/password-policy.ts");
  const argon2 = await initArgon2();
  const proxy = await getPlatformProxy({
    configPath: join(root, "wrangler.toml"),
    persist: stateDir ? { path: join(stateDir, "v3") } : true,
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
