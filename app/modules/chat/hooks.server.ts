import { listener } from "~/platform/account-hooks.server";
import { closeChatSocketsOf } from "./admin.server";

// What chat does in an account's life (app/platform/account-hooks.server.ts). Wired by
// app/wiring.server.ts.
export const chatHooks = {
  // Ended sessions' chat room sockets close now (issue 17; the rooms' objects log their own failures).
  sessionsEnded: listener("sessionsEnded", "chat: close the ended sessions' room sockets", (userId) => closeChatSocketsOf(userId)),
};
