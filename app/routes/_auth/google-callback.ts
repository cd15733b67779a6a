import { redirect } from "react-router";
import { audit } from "~/platform/audit.server";
import { appName } from "~/platform/env.server";
import { GoogleSignInError, signInWithGoogle } from "~/modules/accounts/google.server";
import { OAuthError, completeAuthorization, fetchGoogleProfile } from "~/platform/oauth.server";
import { setToastCookie } from "~/platform/toast.server";
import type { Route } from "./+types/google-callback";
import { GOOGLE_FLOW_COOKIE } from "./google";

export async function loader({ request }: Route.LoaderArgs) {
  const headers = new Headers();
  try {
    const { tokens, payload, clearCookie } = await completeAuthorization<{ ref: string | null; redirectTo: string }>(
      request,
      GOOGLE_FLOW_COOKIE,
    );
    headers.append("Set-Cookie", clearCookie);
    const profile = await fetchGoogleProfile(request, tokens.accessToken());
    const { setCookie } = await signInWithGoogle(request, profile, payload.ref);
    headers.append("Set-Cookie", setCookie);
    headers.append(
      "Set-Cookie",
      await setToastCookie(request, { type: "success", title: "Welcome back!", description: `Successfully logged in to your ${appName()} account` }),
    );
    return redirect(payload.redirectTo || "/dashboard", { headers });
  } catch (error) {
    const clear = (error as { clearCookie?: string }).clearCookie;
    if (clear) headers.append("Set-Cookie", clear);
    const known = error instanceof OAuthError || error instanceof GoogleSignInError;
    if (!known) console.error("Google sign-in failed", error);
    await audit({
      eventType: "sign_in_failure",
      severity: "medium",
      request,
      details: { method: "google", reason: known ? (error as Error).message : "unexpected" },
    });
    headers.append(
      "Set-Cookie",
      await setToastCookie(request, {
        type: "error",
        title: "Google sign in failed",
        description: known ? (error as Error).message : "Please try again.",
      }),
    );
    return redirect("/auth", { headers });
  }
}
