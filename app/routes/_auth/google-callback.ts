import { cookieHeaders, finishGoogleSignIn } from "~/modules/accounts/accounts.server";
import { redirectWithToast } from "~/platform/toast.server";
import type { Route } from "./+types/google-callback";

// The provider's return. Success and failure both redirect: to the page asked for with
// 'Welcome back!', or to /auth with 'Google sign in failed'.
export async function loader({ request }: Route.LoaderArgs) {
  const next = await finishGoogleSignIn(request);
  return redirectWithToast(request, next.to, next.toast, { headers: cookieHeaders(next.cookies) });
}
