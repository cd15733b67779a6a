import { useEffect } from "react";
import { data } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { authFieldTitle, authParams, authenticate, cookieHeaders, parseAccountForm } from "~/modules/accounts/accounts.server";
import { AuthScreen } from "~/modules/accounts/components/auth-screen";
import { invitationForSignUp, keepClipperInvite, keepInvitationCookie } from "~/modules/clipping/clipping.server";
import { requireSignedOut } from "~/modules/accounts/guards.server";
import { AUTH_FORM_TITLES, authFormSchema } from "~/modules/accounts/schema";
import { forgetEditorOffline } from "~/modules/thumbnails/editor/offline.client";
import { domainAction } from "~/platform/http.server";
import { redirectWithToast } from "~/platform/toast.server";
import type { Route } from "./+types/auth";

export const meta = () => [{ title: "Sign in | Shortbeat" }];

export async function loader(args: Route.LoaderArgs) {
  // A signed-in visitor goes to /dashboard; a clipper invitation link is kept for /clipping.
  await requireSignedOut(args).catch(keepClipperInvite(args.request));
  // A clipper invitation (docs/decisions/0205) opens the clipper sign-up and is kept in a cookie, so
  // a sign-up without it (or by Google, or verified elsewhere) can still accept it on /clipping.
  const url = new URL(args.request.url);
  const invitation = url.searchParams.get("clipper") === "1" ? await invitationForSignUp(url.searchParams.get("ref") ?? "") : null;
  const headers = invitation?.code ? { "Set-Cookie": keepInvitationCookie(args.request, invitation.code) } : undefined;
  return data({ params: authParams(args.request, { invitation }) }, { headers });
}

export const action = domainAction(async (args: Route.ActionArgs) => {
  const input = await parseAccountForm(args.request, authFormSchema, authFieldTitle(args.request));
  const next = await authenticate(args.request, input);
  return redirectWithToast(args.request, next.to, next.toast, { headers: cookieHeaders(next.cookies) });
}, AUTH_FORM_TITLES);

export default function Auth({ loaderData, actionData }: Route.ComponentProps) {
  // Signed out (every sign-out lands here): the admin's editor page kept for offline use goes too,
  // so the next person at this browser does not get it (decision 0251).
  useEffect(() => {
    forgetEditorOffline().catch(() => {});
  }, []);
  return <AuthScreen params={loaderData.params} actionData={actionData} />;
}

export { retryAfterHeaders as headers } from "~/lib/toast";

export const ErrorBoundary = GeneralErrorBoundary;
