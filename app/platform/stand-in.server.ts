import { devToolsEnabled } from "./env.server";

// Every call to an outside provider (Google and YouTube, TikTok and Instagram, Twilio, Stripe) leaves through here, in
// development and production alike. With DEV_TOOLS on, a development build answers the built-in
// stand-ins under /dev/ in-process: a Worker calling its own origin would leave and re-enter through
// the Origin check, and tests have no network. __DEV_TOOLS_BUILD__ is a build-time constant: the
// production bundle drops the branch and the stand-ins' modules, so production always fetches.

/** fetch, with the local stand-ins under /dev/ answered in-process where development allows it. */
export async function outboundFetch(request: Request): Promise<Response> {
  if (__DEV_TOOLS_BUILD__ && devToolsEnabled()) {
    const path = new URL(request.url).pathname;
    if (path.startsWith("/dev/oauth/")) return (await import("~/dev/dev-oauth.server")).handleDevOAuthApi(request);
    if (path.startsWith("/dev/sms/")) return (await import("~/dev/dev-sms.server")).handleStandInSms(request);
    if (path.startsWith("/dev/stripe/")) return (await import("~/dev/dev-stripe.server")).handleDevStripeApi(request);
    if (path.startsWith("/dev/social/")) return (await import("~/dev/dev-social.server")).handleStandInSocial(request);
  }
  return fetch(request);
}
