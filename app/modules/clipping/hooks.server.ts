import { onAccount, provideFact } from "~/platform/account-hooks.server";
import { acceptInvitationAtSignUpQueries, afterSignUpAcceptance } from "./invitations.server";
import { isActiveClipper } from "./links.server";

// What clipping does in an account's life (app/platform/account-hooks.server.ts). Wired by
// app/wiring.server.ts.
export function registerClippingHooks(): void {
  provideFact("isActiveClipper", isActiveClipper);
  // A clipper signing up with a creator's invitation uses it in the new account's own batch
  // (docs/decisions/0205), and the creator then hears of the request waiting for them.
  onAccount("signUpStatements", "clipping: the invitation used at sign-up", (a) =>
    a.clipperInvitation ? acceptInvitationAtSignUpQueries(a.clipperInvitation, a.userId, a.email, a.request) : [],
  );
  onAccount("signedUp", "clipping: tell the inviting creator", async (a) => {
    if (a.clipperInvitation) await afterSignUpAcceptance(a.clipperInvitation, a.userId);
  });
}
