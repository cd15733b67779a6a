import { describe, expect, it } from "vitest";
import { agencyFacts } from "~/modules/agencies/hooks.server";
import { chatHooks } from "~/modules/chat/hooks.server";
import { clippingHooks } from "~/modules/clipping/hooks.server";
import { type AccountWiring, accountListeners, fact } from "~/platform/account-hooks.server";
import { outboundFetch, standInsRegistered } from "~/platform/stand-in.server";

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

  it("a wiring that leaves out a fact or an event does not typecheck (npm run typecheck checks these lines)", () => {
    const listeners: AccountWiring["listeners"] = {
      signUpStatements: [clippingHooks.signUpStatements],
      signedUp: [],
      decided: [],
      notice: [],
      sessionsEnded: [chatHooks.sessionsEnded],
      seenStatements: [],
    };
    // @ts-expect-error isActiveClipper (clipping's fact) is left out
    const noClippingFact: AccountWiring = { facts: { ...agencyFacts }, listeners };
    const facts = { ...agencyFacts, isActiveClipper: fact("isActiveClipper") };
    const { sessionsEnded: _left, ...fiveEvents } = listeners;
    // @ts-expect-error the sessionsEnded event is left out
    const noEvent: AccountWiring = { facts, listeners: fiveEvents };
    // @ts-expect-error a listener under another event than its own
    const wrongEvent: AccountWiring["listeners"] = { ...listeners, notice: [chatHooks.sessionsEnded] };
    expect([noClippingFact, noEvent, wrongEvent].length).toBe(3);
  });

  it("every fact has its owner", () => {
    for (const name of ["managesActiveAgency", "isActiveClipper", "agencyLabelOf", "agencyForSignUp"] as const) {
      expect(typeof fact(name)).toBe("function");
    }
  });
});

// The outside providers' stand-ins under /dev/ are registered by the development wiring, not
// imported by app/platform (issue 44 §1, decision 0330). Without the wiring a call meant for one
// fails loudly instead of leaving for the network.
describe("the development stand-ins", () => {
  it("are registered in a build with the development tools, and answer in-process", async () => {
    expect(__DEV_TOOLS_BUILD__).toBe(true);
    expect(standInsRegistered()).toBe(true);
    // No network in the tests: only the Twilio stand-in, in-process, can answer (its refusal without credentials).
    const res = await outboundFetch(new Request("http://localhost/dev/sms/2010-04-01/Accounts/AC0/Messages.json", { method: "POST" }));
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 20003 });
  });
});
