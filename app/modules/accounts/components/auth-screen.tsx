import { useEffect, useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import { toast } from "~/ui/toaster";
import type { ActionFailure } from "~/lib/errors";
import type { FieldErrors } from "~/lib/errors";
import { AuthLayout } from "./auth-layout";
import { Field } from "~/ui/field";
import { SubmitButton } from "~/ui/button";
import { useAppName } from "~/components/public-layout";
import { type FormProps, preloadValidation, validateOnSubmit } from "./auth-form-submit";
import { SignUpForm } from "./sign-up-form";

export type AuthScreenParams = {
  mode: "signin" | "signup";
  referralCode: string;
  /** A usable clipper invitation: its code, and the creator who sent it (docs/decisions/0205). */
  clipper: boolean;
  clipperInvitation: string;
  invitedBy: string;
  /** Why the clipper invitation in the address cannot be used. */
  invitationProblem: string;
  agencySlug: string;
  agencyName: string;
  agencyToken: string;
  redirectTo: string;
};

/** A refused submission of either form (the route's ActionFailure), or nothing yet. */
export type AuthScreenActionData = ActionFailure | undefined;

/** The form a refused submission came from (anything but sign-up is sign-in), or none. */
function refusedMode(failure: AuthScreenActionData): "signin" | "signup" | undefined {
  return failure ? (failure.intent === "signup" ? "signup" : "signin") : undefined;
}

/** The one sign-in/sign-up screen of spec section 2. `action` is where its forms post. */
export function AuthScreen({ params, actionData, action }: { params: AuthScreenParams; actionData: AuthScreenActionData; action?: string }) {
  const appName = useAppName();
  // After a refused submission the screen stays in the mode that was submitted.
  const [mode, setMode] = useState(refusedMode(actionData) ?? params.mode);
  useEffect(() => setMode(refusedMode(actionData) ?? params.mode), [params.mode, actionData]);
  const serverErrors = actionData && refusedMode(actionData) === mode ? actionData.errors : {};
  const [errors, setErrors] = useState<FieldErrors>(serverErrors);
  useEffect(() => {
    if (actionData) {
      setErrors(actionData.errors);
      toast.error(actionData.toast.title, { description: actionData.toast.description });
    }
  }, [actionData]);

  const signup = mode === "signup";
  const title = signup ? (params.agencyName ? `Join ${params.agencyName}` : `Join ${appName}`) : `Welcome to ${appName}`;
  const subtitle = signup
    ? params.agencyName
      ? `${appName} · Start monetizing your YouTube Shorts`
      : "Start monetizing your YouTube Shorts"
    : "Log in to your creator dashboard";

  const banner = params.agencyName ? (
    <div className="mb-4 rounded-xl border border-indigo-200 bg-indigo-50 p-4 text-indigo-900" role="note">
      <p className="font-semibold">
        Join {params.agencyName} {appName}
      </p>
      <p className="text-sm">
        You are signing up through {params.agencyName}, your agency on {appName}.
      </p>
    </div>
  ) : params.clipperInvitation ? (
    <div className="mb-4 rounded-xl border border-emerald-200 bg-emerald-50 p-4 text-emerald-900" role="note">
      <p className="font-semibold">You've been invited to join {appName}</p>
      <p className="text-sm">
        {`${params.invitedBy} invited you to cut clips from their videos as a clipper. Sign up below, or sign in if you already have an account. Two approvals follow: ${params.invitedBy} approves you as their clipper, and a ${appName} admin approves your new account (an account that is already approved needs only ${params.invitedBy}'s). Then you can use their source videos.`}
      </p>
    </div>
  ) : params.invitationProblem ? (
    <div className="mb-4 rounded-xl border border-amber-200 bg-amber-50 p-4 text-amber-950" role="note">
      <p className="font-semibold">Clipper invitation</p>
      <p className="text-sm">{params.invitationProblem}</p>
    </div>
  ) : params.referralCode ? (
    <div className="mb-4 rounded-xl border border-emerald-200 bg-emerald-50 p-4 text-emerald-900" role="note">
      <p className="font-semibold">You've been invited to join {appName}</p>
      <p className="text-sm">
        Referral code: <span className="font-mono font-semibold">{params.referralCode}</span>
      </p>
    </div>
  ) : null;

  const toggleHref = (to: "signin" | "signup") => {
    const q = new URLSearchParams();
    // With an invitation the screen opens on sign-up, so the sign-in tab says so explicitly.
    if (to === "signup" || params.clipperInvitation) q.set("mode", to);
    if (params.referralCode) q.set("ref", params.referralCode);
    if (params.clipperInvitation) {
      q.set("ref", params.clipperInvitation);
      q.set("clipper", "1");
    }
    if (params.agencySlug) q.set("agency_slug", params.agencySlug);
    if (params.agencyName) q.set("agency_name", params.agencyName);
    if (params.agencyToken) q.set("token", params.agencyToken);
    if (params.redirectTo) q.set("redirectTo", params.redirectTo);
    const s = q.toString();
    return s ? `?${s}` : "?";
  };

  return (
    <AuthLayout
      title={title}
      subtitle={subtitle}
      banner={banner}
      footer={
        signup ? (
          <p>
            Already have an account?{" "}
            <Link to={toggleHref("signin")} onClick={() => setErrors({})} className="font-semibold text-brand-700 underline-offset-2 hover:underline">
              Sign in
            </Link>
          </p>
        ) : (
          <p>
            New to {appName}?{" "}
            <Link to={toggleHref("signup")} onClick={() => setErrors({})} className="font-semibold text-brand-700 underline-offset-2 hover:underline">
              Create an account
            </Link>
          </p>
        )
      }
    >
      <div role="tablist" aria-label="Sign in or sign up" className="mb-6 grid grid-cols-2 gap-1 rounded-lg bg-slate-100 p-1">
        {(["signin", "signup"] as const).map((m) => (
          <Link
            key={m}
            role="tab"
            aria-selected={mode === m}
            to={toggleHref(m)}
            onClick={() => setErrors({})}
            className={`rounded-md px-3 py-2 text-center text-sm font-semibold ${
              mode === m ? "bg-white text-slate-900 shadow-sm" : "text-slate-600 hover:text-slate-900"
            }`}
          >
            {m === "signin" ? "Sign In" : "Sign Up"}
          </Link>
        ))}
      </div>
      {signup ? (
        <SignUpForm params={params} errors={errors} setErrors={setErrors} action={action ?? `/auth${toggleHref("signup")}`} appName={appName} />
      ) : (
        <SignInForm params={params} errors={errors} setErrors={setErrors} action={action ?? `/auth${toggleHref("signin")}`} />
      )}
      <div className="my-6 flex items-center gap-3 text-xs text-slate-500">
        <span className="h-px flex-1 bg-slate-200" aria-hidden="true" /> or <span className="h-px flex-1 bg-slate-200" aria-hidden="true" />
      </div>
      <Form
        method="post"
        action="/auth/google"
        reloadDocument
        onSubmit={(e) => {
          // The clipper choice of the sign-up form rides along (both boxes ticked), as with a password sign-up.
          const ticked = (id: string) => (document.getElementById(id) as HTMLInputElement | null)?.checked === true;
          const field = e.currentTarget.elements.namedItem("clipper") as HTMLInputElement | null;
          if (field) field.value = ticked("wantsToBeClipper") && ticked("acceptClipperAgreement") ? "1" : "";
        }}
      >
        {params.referralCode ? <input type="hidden" name="ref" value={params.referralCode} /> : null}
        {/* The invitation rides along either way: used for a new account with both clipper boxes
            ticked, otherwise kept (cookie) for /clipping, where the sign-in lands. */}
        {params.clipperInvitation ? <input type="hidden" name="invite" value={params.clipperInvitation} /> : null}
        {params.clipperInvitation ? <input type="hidden" name="clipper" value="" /> : null}
        {params.redirectTo ? <input type="hidden" name="redirectTo" value={params.redirectTo} /> : null}
        <button
          type="submit"
          className="inline-flex w-full items-center justify-center gap-2 rounded-md border border-slate-300 bg-white px-4 py-2.5 text-sm font-semibold text-slate-800 hover:bg-slate-50"
        >
          <GoogleMark /> Continue with Google
        </button>
      </Form>
    </AuthLayout>
  );
}

function GoogleMark() {
  return (
    <svg aria-hidden="true" width="18" height="18" viewBox="0 0 48 48">
      <path
        fill="#FFC107"
        d="M43.6 20.5H42V20H24v8h11.3C33.7 32.7 29.2 36 24 36c-6.6 0-12-5.4-12-12s5.4-12 12-12c3 0 5.8 1.1 7.9 3l5.7-5.7C34 6.1 29.3 4 24 4 12.9 4 4 12.9 4 24s8.9 20 20 20 20-8.9 20-20c0-1.3-.1-2.4-.4-3.5z"
      />
      <path fill="#FF3D00" d="M6.3 14.7l6.6 4.8C14.7 15.1 19 12 24 12c3 0 5.8 1.1 7.9 3l5.7-5.7C34 6.1 29.3 4 24 4 16.3 4 9.7 8.3 6.3 14.7z" />
      <path fill="#4CAF50" d="M24 44c5.2 0 9.9-2 13.4-5.2l-6.2-5.2C29.2 35.1 26.7 36 24 36c-5.2 0-9.6-3.3-11.3-8l-6.5 5C9.5 39.6 16.2 44 24 44z" />
      <path fill="#1976D2" d="M43.6 20.5H42V20H24v8h11.3c-.8 2.2-2.2 4.2-4.1 5.6l6.2 5.2C37 39.2 44 34 44 24c0-1.3-.1-2.4-.4-3.5z" />
    </svg>
  );
}

function SignInForm({ params, errors, setErrors, action }: FormProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  return (
    <Form method="post" action={action} noValidate onFocus={preloadValidation} onSubmit={(e) => validateOnSubmit(e, "signin", setErrors)} className="space-y-4">
      <input type="hidden" name="intent" value="signin" />
      {params.redirectTo ? <input type="hidden" name="redirectTo" value={params.redirectTo} /> : null}
      {/* An e-mail or a verified phone number (spec section 2); the server normalises the number. */}
      <Field label="Email or phone" name="email" type="text" autoComplete="username" required error={errors.email} />
      <Field label="Password" name="password" type="password" autoComplete="current-password" required error={errors.password} />
      <div className="text-right text-sm">
        <Link to="/auth/forgot-password" className="font-medium text-brand-700 underline-offset-2 hover:underline">
          Forgot password?
        </Link>
      </div>
      <SubmitButton disabled={busy}>{busy ? "Signing in..." : "Sign In"}</SubmitButton>
    </Form>
  );
}
