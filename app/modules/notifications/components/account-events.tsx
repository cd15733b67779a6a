import { useCallback, useRef } from "react";
import { useRevalidator } from "react-router";
import { BAN_SIGNOUT_DELAY_MS } from "~/lib/constants";
import type { AccountEvent } from "~/modules/notifications/protocol";
import { useNotificationSocket } from "./notification-socket";

// Account changes arrive on the notifications socket and take effect in the open tab at once
// (spec section 4), not at the next 30-second profile check:
//   approved → into the app (/dashboard; from /pending-approval through its loader, /clipping for a clipper)
//   banned   → signed out after 1 second, then /auth
//   rejected → the page re-reads the profile (the pending screen shows the decision)

/** Signs the tab out and goes to /auth. The server has already ended the sessions of a banned
 * user; the POST clears this browser's cookie and leaves the sign-out toast. */
export async function signOutToAuth(): Promise<void> {
  try {
    await fetch("/auth/sign-out", { method: "POST", redirect: "manual", credentials: "same-origin" });
  } catch {
    // The redirect below signs out anyway: the session no longer exists on the server.
  }
  window.location.assign("/auth");
}

/** What the tab does for one account event. Shared by the bell (shell) and /pending-approval. */
export function useAccountEventHandler(): (event: AccountEvent) => void {
  const revalidator = useRevalidator();
  const banTimer = useRef<number | undefined>(undefined);
  return useCallback(
    (event: AccountEvent) => {
      if (event === "approved") {
        // From the waiting page, through its loader: a person who joined to clip lands on /clipping (issue 42 §3).
        window.location.assign(window.location.pathname === "/pending-approval" ? "/pending-approval" : "/dashboard");
      } else if (event === "banned") {
        if (banTimer.current !== undefined) return;
        banTimer.current = window.setTimeout(() => void signOutToAuth(), BAN_SIGNOUT_DELAY_MS);
      } else if (event === "rejected") {
        void revalidator.revalidate();
      }
    },
    [revalidator],
  );
}

/**
 * Opens the notifications socket for a page outside the shell (the lead mounts it on
 * /pending-approval), so an approval or ban reaches that tab instantly.
 */
export function useAccountEvents(enabled = true): void {
  const onAccountEvent = useAccountEventHandler();
  useNotificationSocket(
    {
      onMessage: (m) => {
        if (m.type === "account") onAccountEvent(m.event);
      },
      onSessionEnded: (banned) => (banned ? onAccountEvent("banned") : void signOutToAuth()),
    },
    enabled,
  );
}
