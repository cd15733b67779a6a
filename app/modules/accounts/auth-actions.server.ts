import { safeRedirect } from "~/lib/permissions";
import { audit } from "~/platform/audit.server";
import { submittedForm } from "~/platform/body.server";
import { signIn, signUp } from "./auth.server";
import { authFieldTitle as fieldTitle } from "./messages";
import { getOptionalUser, type GuardArgs } from "./guards.server";
import { ACCOUNT_CREATED, SIGNED_IN_TOAST, type AccountRedirect } from "./outcomes.server";
import { normalizeAgencyName, normalizeAgencySlug, type AuthFormInput } from "./schema";
import { clearSessionCookie } from "./session-cookie.server";
import { bannedSignOutNotice } from "./session-request.server";
import { endSessions } from "./session.server";

// The sign-in/sign-up screen (also the agency sign-up screens) and sign-out, as the routes call
// them: each returns where the browser goes next, or throws the DomainError the form shows.

/**
 * A clipper invitation named by the address (/auth?ref=CODE&clipper=1), as the clipping module
 * looked it up: its code and creator, or why it cannot be used (docs/decisions/0205).
 */
export type AuthInvitation = { code: string | null; creatorName: string | null; problem: string | null };

/**
 * What the sign-in/sign-up screen reads from its address (spec section 2). With a clipper
 * invitation the screen opens on sign-up with the clipper option, the code is no referral code,
 * and signing in leads to /clipping, where the invitation waits. `ref` with clipper=1 that is no
 * invitation (a creator's public code) is a plain referral: the referral code never makes a clipper.
 */
export function authParams(request: Request, preset: { agencySlug?: string; agencyName?: string; mode?: "signup"; invitation?: AuthInvitation | null } = {}) {
  const url = new URL(request.url);
  const q = (name: string) => url.searchParams.get(name)?.trim() ?? "";
  const invitation = preset.invitation ?? null;
  const asked = q("mode");
  return {
    mode: (preset.mode ?? (asked === "signup" || asked === "signin" ? asked : invitation?.code ? "signup" : "signin")) as "signin" | "signup",
    referralCode: invitation
      ? ""
      : q("ref")
          .replace(/[^A-Za-z0-9_-]/g, "")
          .slice(0, 64),
    clipper: Boolean(invitation?.code),
    clipperInvitation: invitation?.code ?? "",
    invitedBy: invitation?.creatorName ?? "",
    invitationProblem: invitation?.problem ?? "",
    agencySlug: preset.agencySlug ?? normalizeAgencySlug(q("agency_slug")).slice(0, 64),
    agencyName: preset.agencyName ?? q("agency_name").slice(0, 100),
    agencyToken: q("token").slice(0, 128),
    redirectTo: safeRedirect(q("redirectTo") || null, "") || (invitation?.code ? "/clipping" : ""),
  };
}

/** parseAccountForm's titles on the sign-in/sign-up screen ('Sign up failed' / 'Login failed' where the spec names none). */
export function authFieldTitle(request: Request): (field: string, message: string) => string {
  return (field, message) => fieldTitle(submittedForm(request)?.intent === "signup" ? "signup" : "signin", field, message);
}

/**
 * Either form of the screen. Sign-in: a fresh session and 'Welcome back!', to the same-origin
 * page asked for (else the dashboard). Sign-up: back to sign-in mode with 'Account created!'.
 * An agency's own sign-up address presets the agency, whatever the form says.
 */
export async function authenticate(
  request: Request,
  input: AuthFormInput,
  preset: { agencySlug?: string; agencyName?: string } = {},
): Promise<AccountRedirect> {
  if (input.intent === "signin") {
    const { setCookie, firstSignIn } = await signIn(request, input.email, input.password);
    return { to: safeRedirect(input.redirectTo), toast: SIGNED_IN_TOAST({ firstSignIn }), cookies: [setCookie] };
  }
  await signUp(request, {
    ...input,
    agencySlug: preset.agencySlug === undefined ? input.agencySlug : normalizeAgencySlug(preset.agencySlug),
    agencyName: preset.agencyName === undefined ? input.agencyName : normalizeAgencyName(preset.agencyName),
  });
  // The way back (a campaign's public page) stays on the sign-in screen, as it does in the e-mail's link.
  const back = safeRedirect(input.redirectTo, "");
  return back ? { ...ACCOUNT_CREATED, to: `${ACCOUNT_CREATED.to}&redirectTo=${encodeURIComponent(back)}` } : ACCOUNT_CREATED;
}

/**
 * Ends this browser's session and closes its sockets. Reads no body. Afterwards it always goes to
 * /auth: 'Signed out', or 'Sign out failed' with the reason (spec section 2).
 */
export async function signOut(args: GuardArgs): Promise<AccountRedirect> {
  const { request } = args;
  const cookies = [clearSessionCookie(request)];
  try {
    const user = await getOptionalUser(args);
    // A tab signing out because its account was banned (or its session ended by the ban) is told why.
    const banned = await bannedSignOutNotice(request, args.context);
    if (user) {
      // The row goes and this session's open sockets close now, not at their expiry check.
      await endSessions({ userId: user.id, reason: "signed_out", scope: "one", sessionId: user.sessionId });
      await audit({ eventType: "sign_out", userId: user.id, request });
    }
    if (banned) return { to: "/auth", toast: { type: "error", title: "Account banned", description: banned }, cookies };
    return { to: "/auth", toast: { type: "success", title: "Signed out", description: "You have been signed out." }, cookies };
  } catch (error) {
    const description = error instanceof Error ? error.message : String(error);
    return { to: "/auth", toast: { type: "error", title: "Sign out failed", description }, cookies };
  }
}
