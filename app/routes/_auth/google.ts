import { redirect } from "react-router";
import { GOOGLE_UNAVAILABLE_TOAST, googleSignInAvailable, startGoogleSignIn } from "~/modules/accounts/accounts.server";
import { googleStartSchema } from "~/modules/accounts/schema";
import { domainAction } from "~/platform/http.server";
import { parseForm } from "~/platform/body.server";
import { redirectWithToast } from "~/platform/toast.server";
import type { Route } from "./+types/google";

// Starts Google sign-in: the redirect to the provider (the accounts module keeps the referral
// code and the page to return to in the signed flow cookie).
export const action = domainAction(async ({ request }: Route.ActionArgs) => {
  if (!googleSignInAvailable()) return redirectWithToast(request, "/auth", GOOGLE_UNAVAILABLE_TOAST);
  const input = await parseForm(request, googleStartSchema);
  return startGoogleSignIn(request, input);
}, "Google sign in failed");

export function loader() {
  throw redirect("/auth");
}
