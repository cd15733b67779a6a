import { env as workerEnv } from "cloudflare:workers";

/** The Worker's bindings and vars. Read through this so there is one place to look. */
export const env = workerEnv as Env;

export function appName(): string {
  return env.APP_NAME || "Shortbeat";
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
    origin = new URL(env.APP_ORIGIN).origin;
  } catch {
    // keep the fallback
  }
  return new Request(new URL(path, origin));
}
