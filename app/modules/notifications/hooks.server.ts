import { listener } from "~/platform/account-hooks.server";
import { notifyAccountDecision, notifyUser } from "./notifications.server";

// The notifications an account's life sends (app/platform/account-hooks.server.ts): stored in D1
// and pushed to the user's open tabs. Wired by app/wiring.server.ts.
export const notificationHooks = {
  decided: listener("decided", "notifications: the account decision", (userId, decision, reason) => notifyAccountDecision(userId, decision, reason)),
  notice: listener("notice", "notifications: the account notice", async (userId, n) => {
    await notifyUser(userId, { title: n.title, content: n.content, kind: "account", createdBy: n.createdBy });
  }),
};
