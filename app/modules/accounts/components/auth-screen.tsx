import { lazy, Suspense, useEffect, useRef, useState, type FormEvent } from "react";
import { Form, Link, useNavigation } from "react-router";
import { toast } from "~/ui/toaster";
import type { ActionFailure } from "~/lib/errors";
import type { FieldErrors } from "~/lib/errors";
import { authFieldTitle } from "~/modules/accounts/messages";
import { Checkbox } from "./account-fields";
import { AuthLayout } from "./auth-layout";
import { Field } from "~/ui/field";
import { FormError } from "~/ui/form-error";
import { NewAccountFields } from "~/modules/accounts/components/account-fields";
import { SubmitButton } from "~/ui/button";
import { useAppName } from "~/components/public-layout";

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

// The agreements' full text (about 3 KB of the sign-up's first-load JavaScript) loads after the page
// has hydrated, long before anyone opens a dialog: only a link and a checkbox need it to work. Without
// JavaScript the link opens /terms-of-service in a new tab (issue 43: first-load JS must not grow).
const CreatorAgreement = lazy(() => import("~/lib/agreements").then((m) => ({ default: m.CreatorAgreement })));
const ClipperAgreement = lazy(() => import("~/lib/agreements").then((m) => ({ default: m.ClipperAgreement })));

/** An agreement's text once the page has hydrated (the server renders a line pointing at the full page). */
function AgreementText({ which, appName }: { which: "creator" | "clipper"; appName: string }) {
  const hydrated = useHydrated();
  const loading = <p className="text-slate-600">Loading the agreement…</p>;
  if (!hydrated) return loading;
  const Text = which === "creator" ? CreatorAgreement : ClipperAgreement;
  return (
    <Suspense fallback={loading}>
      <Text appName={appName} />
    </Suspense>
  );
}

function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

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

type FormProps = {
  params: AuthScreenParams;
  errors: FieldErrors;
  setErrors: (e: FieldErrors) => void;
  action?: string;
};

/** The zod check of the forms, loaded on first focus or submit (not on the first load, docs/decisions/0086). */
const loadValidation = () => import("./auth-validation");
const preloadValidation = () => {
  loadValidation().catch(() => undefined);
};
/** Forms whose current submission has passed the browser's check: React Router sends them. */
const checked = new WeakSet<HTMLFormElement>();

function validateOnSubmit(e: FormEvent<HTMLFormElement>, kind: "signin" | "signup", setErrors: (e: FieldErrors) => void) {
  const form = e.currentTarget;
  if (checked.delete(form)) return;
  e.preventDefault();
  const submitter = (e.nativeEvent as SubmitEvent).submitter;
  const values = Object.fromEntries(new FormData(form).entries());
  loadValidation()
    .then(({ authFormErrors }) => authFormErrors(kind, values))
    // The check could not load (offline, a new deployment): the server checks the same rules.
    .catch(() => null)
    .then((errs) => {
      const [field, message] = Object.entries(errs ?? {})[0] ?? [];
      if (errs && field !== undefined && message !== undefined) {
        setErrors(errs);
        toast.error(authFieldTitle(kind, field, message), { description: message });
        form.querySelector<HTMLElement>(`[name="${field}"]`)?.focus();
        return;
      }
      setErrors({});
      checked.add(form);
      form.requestSubmit(submitter && form.contains(submitter) ? submitter : undefined);
    });
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

function AgreementDialog({
  id,
  title,
  children,
  dialogRef,
}: {
  id: string;
  title: string;
  children: React.ReactNode;
  dialogRef: React.RefObject<HTMLDialogElement | null>;
}) {
  return (
    <dialog ref={dialogRef} aria-labelledby={`${id}-title`} className="m-auto w-[min(48rem,calc(100vw-2rem))] rounded-xl p-0 backdrop:bg-slate-900/50">
      <div className="flex max-h-[85vh] flex-col">
        <div className="flex items-center justify-between border-b border-slate-200 px-5 py-3">
          <h2 id={`${id}-title`} className="text-lg font-semibold text-slate-900">
            {title}
          </h2>
          <button
            type="button"
            onClick={() => dialogRef.current?.close()}
            className="rounded-md px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-100"
          >
            Close
          </button>
        </div>
        {/* Focusable so keyboard users can scroll the agreement. */}
        {/* biome-ignore lint/a11y/useSemanticElements: a focusable scroll container (axe: scrollable-region-focusable), not a page section */}
        <div tabIndex={0} role="region" aria-label={title} className="prose-legal overflow-y-auto px-5 py-4 text-sm">
          {children}
        </div>
      </div>
    </dialog>
  );
}

/** The two agreements a sign-up accepts: the checkbox's field, its error's id, the text's anchor. */
const AGREEMENTS = {
  creator: {
    name: "acceptTerms",
    errorId: "acceptTerms-error",
    href: "/terms-of-service#creator-agreement",
    title: "Creator Agreement & Monetization Terms",
  },
  clipper: {
    name: "acceptClipperAgreement",
    errorId: "acceptClipper-error",
    href: "/terms-of-service#clipper-agreement",
    title: "Clipper Agreement",
  },
} as const;

/** "I accept the <agreement>": a required checkbox whose link opens the agreement in its dialog. */
function AgreementCheckbox({
  agreement,
  dialogRef,
  onChange,
  ...rest
}: {
  agreement: (typeof AGREEMENTS)[keyof typeof AGREEMENTS];
  dialogRef: React.RefObject<HTMLDialogElement | null>;
  checked: boolean;
  onChange: (checked: boolean) => void;
  error: string | undefined;
}) {
  return (
    <Checkbox id={agreement.name} name={agreement.name} errorId={agreement.errorId} onChange={(e) => onChange(e.currentTarget.checked)} {...rest}>
      I accept the{" "}
      <a
        href={agreement.href}
        target="_blank"
        rel="noreferrer"
        onClick={(e) => {
          e.preventDefault();
          dialogRef.current?.showModal();
        }}
        className="font-semibold text-brand-700 underline"
      >
        {agreement.title}
      </a>
    </Checkbox>
  );
}

/**
 * The channel details a creator's sign-up asks (YouTube channel URL, subscribers, monthly views)
 * and the Creator Agreement checkbox: the sign-up form and a Google account's finishing step
 * (docs/decisions/0324) render the same fields. The checkbox's link opens `agreementDialog`,
 * a CreatorAgreementDialog the form renders after its submit button.
 */
export function ChannelDetailsFields({
  errors,
  acceptTerms,
  onAcceptTermsChange,
  agreementDialog,
}: {
  errors: Record<string, string | undefined>;
  acceptTerms: boolean;
  onAcceptTermsChange: (checked: boolean) => void;
  agreementDialog: React.RefObject<HTMLDialogElement | null>;
}) {
  return (
    <>
      <Field
        label="YouTube channel URL"
        name="channelUrl"
        type="url"
        inputMode="url"
        placeholder="https://www.youtube.com/@yourchannel"
        required
        error={errors.channelUrl}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Subscribers" name="subscribers" type="number" min={0} step={1} inputMode="numeric" required error={errors.subscribers} />
        <Field label="Monthly views" name="monthlyViews" type="number" min={0} step={1} inputMode="numeric" required error={errors.monthlyViews} />
      </div>
      <AgreementCheckbox
        agreement={AGREEMENTS.creator}
        dialogRef={agreementDialog}
        checked={acceptTerms}
        onChange={onAcceptTermsChange}
        error={errors.acceptTerms}
      />
    </>
  );
}

/** The Creator Agreement's dialog, opened by ChannelDetailsFields' checkbox. */
export function CreatorAgreementDialog({ dialogRef }: { dialogRef: React.RefObject<HTMLDialogElement | null> }) {
  const appName = useAppName();
  return (
    <AgreementDialog id="creator-agreement" title={AGREEMENTS.creator.title} dialogRef={dialogRef}>
      <AgreementText which="creator" appName={appName} />
    </AgreementDialog>
  );
}

function SignUpForm({ params, errors, setErrors, action, appName }: FormProps & { appName: string }) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const [acceptTerms, setAcceptTerms] = useState(false);
  const [wantsClipper, setWantsClipper] = useState(params.clipper);
  const [acceptClipper, setAcceptClipper] = useState(false);
  const creatorDialog = useRef<HTMLDialogElement>(null);
  const clipperDialog = useRef<HTMLDialogElement>(null);

  // Submit is disabled while terms are unaccepted; before hydration the server checks instead,
  // so the form also works without JavaScript.
  const termsMissing = !acceptTerms || (wantsClipper && !acceptClipper);

  return (
    <Form method="post" action={action} noValidate onFocus={preloadValidation} onSubmit={(e) => validateOnSubmit(e, "signup", setErrors)} className="space-y-4">
      <input type="hidden" name="intent" value="signup" />
      <input type="hidden" name="referralCode" value={params.referralCode} />
      <input type="hidden" name="clipperInvitation" value={params.clipperInvitation} />
      <input type="hidden" name="agencySlug" value={params.agencySlug} />
      <input type="hidden" name="agencyName" value={params.agencyName} />
      <input type="hidden" name="agencyToken" value={params.agencyToken} />
      {params.redirectTo ? <input type="hidden" name="redirectTo" value={params.redirectTo} /> : null}
      <NewAccountFields errors={errors} />
      <ChannelDetailsFields errors={errors} acceptTerms={acceptTerms} onAcceptTermsChange={setAcceptTerms} agreementDialog={creatorDialog} />

      {params.clipper ? (
        <fieldset className="space-y-2 rounded-lg border border-slate-200 p-3">
          <legend className="px-1 text-sm font-semibold text-slate-800">Clipper</legend>
          <div className="flex items-start gap-2">
            <input
              id="wantsToBeClipper"
              name="wantsToBeClipper"
              type="checkbox"
              className="mt-1 h-4 w-4"
              checked={wantsClipper}
              onChange={(e) => {
                setWantsClipper(e.currentTarget.checked);
                // Unticking the clipper option clears its agreement.
                if (!e.currentTarget.checked) setAcceptClipper(false);
              }}
            />
            <label htmlFor="wantsToBeClipper" className="text-sm text-slate-700">
              {`I want to join as a clipper and cut clips from ${params.invitedBy || "the inviting creator"}'s videos`}
            </label>
          </div>
          {wantsClipper ? (
            <AgreementCheckbox
              agreement={AGREEMENTS.clipper}
              dialogRef={clipperDialog}
              checked={acceptClipper}
              onChange={setAcceptClipper}
              error={errors.acceptClipperAgreement}
            />
          ) : null}
        </fieldset>
      ) : null}

      <FormError message={errors.form} />
      <SubmitButton disabled={(hydrated && termsMissing) || busy}>{busy ? "Creating account..." : "Create Account"}</SubmitButton>

      <CreatorAgreementDialog dialogRef={creatorDialog} />
      <AgreementDialog id="clipper-agreement" title={AGREEMENTS.clipper.title} dialogRef={clipperDialog}>
        <AgreementText which="clipper" appName={appName} />
      </AgreementDialog>
    </Form>
  );
}
