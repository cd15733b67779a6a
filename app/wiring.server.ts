import { registerDevStandIns } from "~/dev/stand-ins.server";
import { registerAgencyHooks } from "~/modules/agencies/hooks.server";
import { registerChatHooks } from "~/modules/chat/hooks.server";
import { registerClippingHooks } from "~/modules/clipping/hooks.server";
import { registerGrowthHooks } from "~/modules/growth/hooks.server";
import { registerNotificationHooks } from "~/modules/notifications/hooks.server";

// The one place that knows every domain: it hands the accounts and notifications modules the
// listeners and facts the domains above them own (app/platform/account-hooks.server.ts, decision
// 0239). The Worker's entry imports it before it answers anything; so does the worker tests' setup.
// Registration is by name, so loading this twice changes nothing.
registerAgencyHooks();
registerClippingHooks();
registerGrowthHooks();
registerChatHooks();
registerNotificationHooks();

// The outside providers' stand-ins under /dev/ (app/platform/stand-in.server.ts, decision 0330), in
// the builds that have the development tools only: production has neither the call nor the module.
if (__DEV_TOOLS_BUILD__) registerDevStandIns();
