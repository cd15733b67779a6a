import { describe, expect, it } from "vitest";
import { accountListeners, fact } from "~/platform/account-hooks.server";

// The accounts and notifications modules hear the domains above them only through the hooks
// app/wiring.server.ts registers (decision 0239). Missing wiring would silently drop a side effect
// (no referrer told, an invitation not used), so the wiring itself is checked here.
describe("the domains' hooks into accounts", () => {
  it("every account event has its listeners, by name", () => {
    expect(accountListeners()).toEqual({
      signUpStatements: ["clipping: the invitation used at sign-up"],
      signedUp: ["clipping: tell the inviting creator", "growth: tell the referrer of the sign-up"],
      decided: ["growth: tell the referrer of the approval", "notifications: the account decision"],
      notice: ["notifications: the account notice"],
      sessionsEnded: ["chat: close the ended sessions' room sockets"],
      seenStatements: ["growth: the day's activity"],
    });
  });

  it("every fact has its owner", () => {
    for (const name of ["managesActiveAgency", "isActiveClipper", "agencyLabelOf", "agencyForSignUp"] as const) {
      expect(typeof fact(name)).toBe("function");
    }
  });
});
