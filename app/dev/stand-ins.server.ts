import { registerStandIns } from "~/platform/stand-in.server";
import { registerStandInAi } from "~/platform/workers-ai.server";

// The development wiring of the outside providers' stand-ins: app/platform names where each answers
// (stand-in.server.ts, workers-ai.server.ts) and this hands them over, the way the domains register
// their account hooks (docs/decisions/0330). Called from app/wiring.server.ts behind
// __DEV_TOOLS_BUILD__, so the production bundle has neither this file nor the stand-ins. Each
// stand-in's module is loaded on its first call, as before.

export function registerDevStandIns(): void {
  registerStandIns({
    oauth: async () => (await import("./dev-oauth.server")).handleDevOAuthApi,
    sms: async () => (await import("./dev-sms.server")).handleStandInSms,
    stripe: async () => (await import("./dev-stripe.server")).handleDevStripeApi,
    social: async () => (await import("./dev-social.server")).handleStandInSocial,
  });
  registerStandInAi(async () => (await import("./dev-ai.server")).standInAi);
}
