import { type Facts, listener } from "~/platform/account-hooks.server";
import { acceptInvitationAtSignUpQueries, afterSignUpAcceptance } from "./invitation-accept.server";
import { isActiveClipper } from "./links.server";

// What clipping does in an account's life and the fact about people it owns
// (app/platform/account-hooks.server.ts). Wired by app/wiring.server.ts.
export const clippingFacts = { isActiveClipper } satisfies Partial<Facts>;

export const clippingHooks = {
  // A clipper signing up with a creator's invitation uses it in the new account's own batch
  // (docs/decisions/0205), and the creator then hears of the request waiting for them.
  signUpStatements: listener("signUpStatements", "clipping: the invitation used at sign-up", (a) =>
    a.clipperInvitation ? acceptInvitationAtSignUpQueries(a.clipperInvitation, a.userId, a.email, a.request) : [],
  ),
  signedUp: listener("signedUp", "clipping: tell the inviting creator", async (a) => {
    if (a.clipperInvitation) await afterSignUpAcceptance(a.clipperInvitation, a.userId);
  }),
};
