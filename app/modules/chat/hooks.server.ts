import { onAccount } from "~/platform/account-hooks.server";
import { closeChatSocketsOf } from "./admin.server";

// What chat does in an account's life (app/platform/account-hooks.server.ts). Wired by
// app/wiring.server.ts.
export function registerChatHooks(): void {
  // Ended sessions' chat room sockets close now (issue 17; the rooms' objects log their own failures).
  onAccount("sessionsEnded", "chat: close the ended sessions' room sockets", (userId) => closeChatSocketsOf(userId));
}
