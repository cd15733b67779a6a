import { env as workerEnv } from "cloudflare:workers";
import { AsyncLocalStorage } from "node:async_hooks";

/** The Worker's bindings and vars. Read through this so there is one place to look. */
export const env = workerEnv as Env;

export function appName(): string {
  return env.APP_NAME || "Shortbeat";
}

/**
 * Where people reach support: the address replies to our e-mails go to (EMAIL_REPLY_TO in
 * wrangler.toml; the privacy policy and terms say to reply to any e-mail). Null when not set.
 */
export function supportEmail(): string | null {
  return env.EMAIL_REPLY_TO?.includes("@") ? env.EMAIL_REPLY_TO : null;
}

/** Development tools (mailbox, stand-in identity provider, test factories) are on only locally. */
export function devToolsEnabled(): boolean {
  return env.DEV_TOOLS === "1";
}

/**
 * A daily job's stand-in request: provider calls resolve relative endpoint settings against the
 * app's origin (and, with DEV_TOOLS, reach the stand-in provider in-process), so a job runs as a
 * request to `path` on APP_ORIGIN (http://localhost when it is not set to an absolute URL).
 */
export function jobRequest(path: string): Request {
  let origin = "http://localhost";
  try {
    origin = appOrigin();
  } catch {
    // keep the fallback
  }
  return new Request(new URL(path, origin));
}

/**
 * On the dev server only (`react-router dev`: Vite's mode "development"), the origin the request
 * came in on, so that `npm run dev -- --port N` hands out links on port N (docs/decisions/0190).
 * Every other build — production, the devtools build the browser tests serve, the worker tests —
 * never reads it: their links come from the configured APP_ORIGIN alone, and the Host header can
 * never pick a link's origin there.
 */
const devServerOrigin = new AsyncLocalStorage<string>();

export const ON_DEV_SERVER = import.meta.env.MODE === "development";

/** Runs one request with its origin known to `appOrigin()`, on the dev server; elsewhere just runs it. */
export function withDevServerOrigin<T>(url: URL, run: () => T): T {
  return ON_DEV_SERVER ? devServerOrigin.run(url.origin, run) : run();
}

/**
 * The public origin links point at: the configured APP_ORIGIN, never the request's Host header
 * (a forged Host would otherwise put an attacker's address in front of a reset token, or in a
 * link handed to other people). The dev server uses its own origin instead (above). A deployment
 * without a valid APP_ORIGIN cannot send links: that is a configuration error.
 */
export function appOrigin(): string {
  if (ON_DEV_SERVER) {
    const here = devServerOrigin.getStore();
    if (here) return here;
  }
  try {
    return new URL(env.APP_ORIGIN).origin;
  } catch {
    throw new Error("APP_ORIGIN is not set to an absolute URL: e-mail links cannot be built");
  }
}

/** An absolute link into the app for an e-mail: APP_ORIGIN plus a path (with its query). */
export function appLink(path: string): string {
  return new URL(path, appOrigin()).toString();
}

/** An optional setting (a var or a secret that is not in every deployment): its value, or null when unset or empty. */
export function setting(name: keyof Env): string | null {
  const v: unknown = env[name];
  return typeof v === "string" && v ? v : null;
}
