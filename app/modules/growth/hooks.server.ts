import { listener } from "~/platform/account-hooks.server";
import { recordActivityQuery } from "./activity.server";
import { tellReferrer } from "./referrals.server";

// What growth records and tells in an account's life (app/platform/account-hooks.server.ts).
// Wired by app/wiring.server.ts.
export const growthHooks = {
  // The day's activity rides in the session's own write (issue 18: no extra round trip).
  seenStatements: listener("seenStatements", "growth: the day's activity", (userId, at) => [recordActivityQuery(userId, at)]),
  signedUp: listener("signedUp", "growth: tell the referrer of the sign-up", async (a) => {
    if (a.referred) await tellReferrer(a.userId, "signed_up");
  }),
  decided: listener("decided", "growth: tell the referrer of the approval", async (userId, decision) => {
    if (decision === "approved") await tellReferrer(userId, "approved");
  }),
};
