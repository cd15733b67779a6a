import { devToolsEnabled } from "./env.server";

// Every call to an outside provider (Google and YouTube, TikTok and Instagram, Twilio, Stripe) leaves through here, in
// development and production alike. With DEV_TOOLS on, a development build answers the built-in
// stand-ins under /dev/ in-process: a Worker calling its own origin would leave and re-enter through
// the Origin check, and tests have no network. __DEV_TOOLS_BUILD__ is a build-time constant: the
// production bundle drops the branch, and with it the stand-ins' registration (app/wiring.server.ts),
// so production always fetches.
//
// The platform names the paths; it does not know the stand-ins. The development wiring
// (app/dev/stand-ins.server.ts, called from app/wiring.server.ts) registers one for every path, in one
// typed call: a stand-in left out fails the typecheck (docs/decisions/0330).

/** The path under which each stand-in answers, as the providers' settings point at it (.dev.vars, vitest.config.ts). */
const STAND_IN_PATHS = {
  oauth: "/dev/oauth/",
  sms: "/dev/sms/",
  stripe: "/dev/stripe/",
  social: "/dev/social/",
} as const;

/** A stand-in's in-process API: the provider's request in, its answer out. */
export type StandInApi = (request: Request) => Promise<Response>;

/** Every stand-in, each loaded on its first call (its module is never loaded before). */
export type StandIns = { [K in keyof typeof STAND_IN_PATHS]: () => Promise<StandInApi> };

let standIns: StandIns | null = null;

/** The development wiring hands over the stand-ins (registering again replaces them). */
export function registerStandIns(all: StandIns): void {
  standIns = all;
}

/** Whether the stand-ins are registered (the wiring test reads it). */
export function standInsRegistered(): boolean {
  return standIns !== null;
}

/** fetch, with the local stand-ins under /dev/ answered in-process where development allows it. */
export async function outboundFetch(request: Request): Promise<Response> {
  if (__DEV_TOOLS_BUILD__ && devToolsEnabled()) {
    const path = new URL(request.url).pathname;
    for (const [name, prefix] of Object.entries(STAND_IN_PATHS) as [keyof StandIns, string][]) {
      if (!path.startsWith(prefix)) continue;
      if (!standIns) throw new Error(`No stand-in answers ${prefix}: import app/wiring.server.ts in this entry.`);
      return (await standIns[name]())(request);
    }
  }
  return fetch(request);
}
