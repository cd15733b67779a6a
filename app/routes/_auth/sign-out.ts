import { redirect } from "react-router";
import { cookieHeaders, signOut } from "~/modules/accounts/accounts.server";
import { redirectWithToast } from "~/platform/toast.server";
import type { Route } from "./+types/sign-out";

// POST only: signing out changes state, so GET never does it. It takes no fields and reads no
// body (an empty one is fine); afterwards it always goes to /auth.
export async function action(args: Route.ActionArgs) {
  const next = await signOut(args);
  return redirectWithToast(args.request, next.to, next.toast, { headers: cookieHeaders(next.cookies) });
}

export function loader() {
  throw redirect("/auth");
}
