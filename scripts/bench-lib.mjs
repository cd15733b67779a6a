// Shared by the bench scripts: command-line options, the repository root, and waiting for the app.
import { resolve } from "node:path";
import { parseArgs } from "node:util";

export const root = resolve(import.meta.dirname, "..");

/** Parses the command line with `options` (each script has its own, `port` included); `base` is the app's URL. */
export function benchArgs(options) {
  const { values } = parseArgs({ options });
  return { values, base: `http://localhost:${values.port}` };
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
