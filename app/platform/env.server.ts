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
