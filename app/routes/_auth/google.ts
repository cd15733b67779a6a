import { redirect } from "react-router";
import { safeRedirect } from "~/lib/permissions";
import { beginAuthorization, oauthConfigured } from "~/platform/oauth.server";
import { redirectWithToast } from "~/platform/toast.server";
import type { Route } from "./+types/google";

export const GOOGLE_FLOW_COOKIE = "sb_google_oauth";

// Starts Google sign-in: redirect to the provider with PKCE and a fresh state. The referral
// code rides along in the signed flow cookie, so it survives the round trip.
export async function action({ request }: Route.ActionArgs) {
  if (!oauthConfigured()) {
    return redirectWithToast(request, "/auth", { type: "error", title: "Google sign in failed", description: "Please try again." });
  }
  const form = await request.formData();
  const ref = String(form.get("ref") ?? "").replace(/[^A-Za-z0-9_-]/g, "").slice(0, 64) || null;
  const redirectTo = safeRedirect(form.get("redirectTo"), "/dashboard");
  return beginAuthorization(request, {
    cookieName: GOOGLE_FLOW_COOKIE,
    callbackPath: "/auth/google/callback",
    scopes: ["openid", "email", "profile"],
    payload: { ref, redirectTo },
    // Offline access and the consent prompt, as the spec's identity-provider call asks.
    params: { access_type: "offline", prompt: "consent" },
  });
}

export function loader() {
  throw redirect("/auth");
}
