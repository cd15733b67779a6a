import { redirect } from "react-router";
import { audit } from "~/platform/audit.server";
import { getOptionalUser } from "~/modules/accounts/guards.server";
import { afterSessionsEnded, clearSessionCookie, endCurrentSession } from "~/modules/accounts/session.server";
import { setToastCookie } from "~/platform/toast.server";
import type { Route } from "./+types/sign-out";

// POST only: signing out changes state, so GET never does it.
export async function action(args: Route.ActionArgs) {
  const { request } = args;
  const headers = new Headers();
  headers.append("Set-Cookie", clearSessionCookie(request));
  try {
    const user = await getOptionalUser(args);
    await endCurrentSession(request);
    if (user) {
      // Close this session's open sockets now, not at their expiry check.
      await afterSessionsEnded(user.id);
      await audit({ eventType: "sign_out", userId: user.id, request });
    }
    headers.append("Set-Cookie", await setToastCookie(request, { type: "success", title: "Signed out", description: "You have been signed out." }));
  } catch (error) {
    headers.append(
      "Set-Cookie",
      await setToastCookie(request, { type: "error", title: "Sign out failed", description: error instanceof Error ? error.message : String(error) }),
    );
  }
  // Afterwards it always goes to /auth.
  throw redirect("/auth", { headers });
}

export function loader() {
  throw redirect("/auth");
}
