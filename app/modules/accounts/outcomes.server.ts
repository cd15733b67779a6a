import type { ToastInput } from "~/lib/toast";
import { appName } from "~/platform/env.server";

// Where an account flow sends the browser next, as data: the route answers with
// redirectWithToast(request, outcome.to, outcome.toast, { headers: cookieHeaders(outcome.cookies) }).

export type AccountRedirect = {
  to: string;
  toast: ToastInput;
  /** Set-Cookie values to send along (the session, a cleared flow cookie). */
  cookies: string[];
};

/**
 * 'Welcome back!' / 'Successfully logged in to your {product} account'. An account's first sign-in
 * (no earlier one recorded) is greeted as new: 'Welcome to {product}!'.
 */
export const SIGNED_IN_TOAST = ({ firstSignIn = false }: { firstSignIn?: boolean } = {}): ToastInput =>
  firstSignIn
    ? { type: "success", title: `Welcome to ${appName()}!`, description: `You're signed in to your new ${appName()} account.` }
    : { type: "success", title: "Welcome back!", description: `Successfully logged in to your ${appName()} account` };

/** A new Google account's first stop: the sign-up details and the terms (docs/decisions/0324). */
export const FINISH_SIGN_UP_TOAST = (): ToastInput => ({
  type: "success",
  title: `Welcome to ${appName()}!`,
  description: "Finish signing up: add your channel details and accept the Creator Agreement.",
});

/** 'Account created!': back to sign-in mode after any sign-up screen. */
export const ACCOUNT_CREATED: AccountRedirect = {
  to: "/auth?created=1",
  toast: {
    type: "success",
    title: "Account created!",
    description: "Check your e-mail to confirm your address. Your account will then be reviewed.",
  },
  cookies: [],
};

/** The Set-Cookie headers of an outcome, for a ResponseInit. */
export function cookieHeaders(cookies: readonly string[]): [string, string][] {
  return cookies.map((c) => ["Set-Cookie", c]);
}
