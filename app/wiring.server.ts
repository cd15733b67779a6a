import { registerDevStandIns } from "~/dev/stand-ins.server";
import { agencyFacts } from "~/modules/agencies/hooks.server";
import { chatHooks } from "~/modules/chat/hooks.server";
import { clippingFacts, clippingHooks } from "~/modules/clipping/hooks.server";
import { growthHooks } from "~/modules/growth/hooks.server";
import { notificationHooks } from "~/modules/notifications/hooks.server";
import { wireAccounts } from "~/platform/account-hooks.server";

// The one place that knows every domain: it hands the accounts and notifications modules the
// facts and listeners the domains above them own (app/platform/account-hooks.server.ts, decision
// 0239), in one typed value: a fact or an event left out fails the typecheck. Each event's
// listeners run in the order written here. The Worker's entry imports this module before it
// answers anything; so does the worker tests' setup. Loading it twice changes nothing.
wireAccounts({
  facts: { ...agencyFacts, ...clippingFacts },
  listeners: {
    signUpStatements: [clippingHooks.signUpStatements],
    signedUp: [clippingHooks.signedUp, growthHooks.signedUp],
    decided: [growthHooks.decided, notificationHooks.decided],
    notice: [notificationHooks.notice],
    sessionsEnded: [chatHooks.sessionsEnded],
    seenStatements: [growthHooks.seenStatements],
  },
});

// The outside providers' stand-ins under /dev/ (app/platform/stand-in.server.ts, decision 0330), in
// the builds that have the development tools only: production has neither the call nor the module.
if (__DEV_TOOLS_BUILD__) registerDevStandIns();
