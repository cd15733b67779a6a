// Shared by the bench scripts: command-line options, the repository root, waiting for the app,
// signing the demo accounts in, percentiles.
import { resolve } from "node:path";
import { parseArgs } from "node:util";

export const root = resolve(import.meta.dirname, "..");

/** Parses the command line with `options` (each script has its own, `port` included); `base` is the app's URL. */
export function benchArgs(options) {
  const { values } = parseArgs({ options });
  return { values, base: `http://127.0.0.1:${values.port}` };
}

/** Polls `${base}/healthz` for up to two minutes. */
export async function waitForServer(base) {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("server did not start");
}

/** The demo password of every seeded account (app/dev/seed.server.ts). */
export const DEMO_PASSWORD = "Shortbeat#2026";

/** Signs a seeded account in through the sign-in form, as a browser does; returns its `sb_session=…` cookie. */
export async function signIn(base, email, password = DEMO_PASSWORD) {
  const res = await fetch(`${base}/auth`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ intent: "signin", email, password }),
  });
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .find((c) => c.startsWith("sb_session=") && c.length > "sb_session=".length);
  if (!cookie) throw new Error(`sign-in as ${email} failed (HTTP ${res.status})`);
  return cookie;
}

/** The p-th percentile of an ascending array (nearest rank). */
export const pct = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : Number.NaN);
