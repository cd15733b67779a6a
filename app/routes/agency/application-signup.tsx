import { useEffect, useRef, useState } from "react";
import { Form, Link, redirect, useFetcher, useNavigation } from "react-router";
import { toast } from "~/ui/toaster";
import { isActionFailure, type ActionFailure, type FieldErrors } from "~/lib/errors";
import { agencyApplicationSchema, applicationWithAccountSchema, withFieldTitle } from "~/modules/agencies/schema";
import { AGENCY_MESSAGES, DESCRIPTION_MAX, SLUG_MAX, slugProblem, slugify } from "~/modules/agencies/messages";
import { Checkbox, TextArea, validateBeforeSubmit } from "~/modules/agencies/components/agency-forms";
import { AuthLayout } from "~/modules/accounts/components/auth-layout";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { Field } from "~/ui/field";
import { NewAccountFields } from "~/modules/accounts/components/account-fields";
import { SubmitButton } from "~/ui/button";
import { actorOf } from "~/modules/accounts/accounts.server";
import { getOptionalUser } from "~/modules/accounts/guards.server";
import { applicantView, applyForAgency, applyWithNewAccount, checkSlug } from "~/modules/agencies/agencies.server";
import { domainAction, domainLoader } from "~/platform/http.server";
import { parseForm } from "~/platform/body.server";
import { redirectWithToast } from "~/platform/toast.server";
import type { Route } from "./+types/application-signup";

// /agency/signup and /agency-application-signup (one screen): apply with the agency's name,
// slug (checked live), contact e-mail and description, and sign up in the same form when
// signed out. The applicant becomes the agency's first manager.

export const meta = () => [{ title: "Apply as an agency | Shortbeat" }];

export const loader = domainLoader(async (args: Route.LoaderArgs) => {
  const url = new URL(args.request.url);
  // The live slug check: a fetcher asks this loader with ?check=…
  const check = url.searchParams.get("check");
  if (check !== null) return { kind: "check" as const, slugCheck: { slug: check, ...(await checkSlug(check.slice(0, 100))) } };

  const user = await getOptionalUser(args);
  const signedIn = user && !user.isBanned ? user : null;
  const view = signedIn ? await applicantView(actorOf(signedIn)) : null;
  if (view?.state === "approved") throw redirect("/agency-dashboard");
  if (view?.state === "pending") throw redirect("/agency-application-status");
  return {
    kind: "page" as const,
    signedIn: signedIn ? { email: signedIn.email, name: signedIn.fullName } : null,
    previous: view?.previous ?? null,
    submitted: url.searchParams.get("submitted") === "1",
  };
});

/** A refused attempt's Retry-After reaches the browser on document requests too. */
export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : new Headers();
};

export const action = domainAction(async (args: Route.ActionArgs) => {
  const user = await getOptionalUser(args);
  const signedIn = user && !user.isBanned ? user : null;
  if (signedIn) {
    const input = await parseForm(args.request, agencyApplicationSchema).catch(withFieldTitle);
    await applyForAgency(actorOf(signedIn), input, args.request);
    return redirectWithToast(args.request, "/agency-application-status", {
      type: "success",
      title: "Application submitted",
      description: "An admin will review your agency. You will be notified of the decision.",
    });
  }
  const input = await parseForm(args.request, applicationWithAccountSchema).catch(withFieldTitle);
  await applyWithNewAccount(input, input, args.request);
  return redirectWithToast(args.request, `${new URL(args.request.url).pathname.replace(/\.data$/, "")}?submitted=1`, {
    type: "success",
    title: "Application received",
    description: "Check your e-mail to confirm your address.",
  });
}, AGENCY_MESSAGES.create);

export default function AgencyApplication({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.kind !== "page") return null;
  const { signedIn, previous, submitted } = loaderData;
  if (submitted) {
    return (
      <AuthLayout title="Application received" subtitle="One more step: confirm your e-mail address.">
        <div className="space-y-3 text-slate-700">
          <p>
            We have sent a confirmation link to your e-mail address. Once you have confirmed it, sign in to follow your application. An admin reviews every
            agency, and you will be notified of the decision.
          </p>
          <p className="text-sm text-slate-600">Already had an account with that e-mail? Then we have e-mailed you instead: sign in and apply from there.</p>
          <Link
            to="/auth?redirectTo=%2Fagency-application-status"
            className="inline-flex w-full items-center justify-center rounded-md bg-brand-600 px-4 py-2.5 text-sm font-semibold text-white hover:bg-brand-700"
          >
            Sign in
          </Link>
        </div>
      </AuthLayout>
    );
  }
  return <ApplicationForm signedIn={signedIn} previous={previous} failure={isActionFailure(actionData) ? actionData : undefined} />;
}

type SlugCheck = { slug: string; available: boolean; message: string };

function ApplicationForm({
  signedIn,
  previous,
  failure,
}: {
  signedIn: { email: string; name: string | null } | null;
  previous: { name: string; reason: string | null } | null;
  failure: ActionFailure | undefined;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const [errors, setErrors] = useState<FieldErrors>({});
  const [name, setName] = useState("");
  const [slug, setSlug] = useState("");
  const slugTouched = useRef(false);
  const [accepted, setAccepted] = useState(false);
  const [origin, setOrigin] = useState("");
  const fetcher = useFetcher<{ kind: "check"; slugCheck: SlugCheck }>();

  useEffect(() => setOrigin(window.location.origin), []);
  useEffect(() => {
    if (!failure) return;
    setErrors(failure.errors);
    toast.error(failure.toast.title, { description: failure.toast.description });
  }, [failure]);

  // The live check: a short pause after typing, then ask the server whether the slug is free.
  const localProblem = slug ? slugProblem(slug) : null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the fetcher object changes every render; the check depends on the slug only
  useEffect(() => {
    if (!slug || localProblem) return;
    const t = window.setTimeout(() => fetcher.load(`/agency-application-signup?check=${encodeURIComponent(slug)}`), 300);
    return () => window.clearTimeout(t);
  }, [slug, localProblem]);
  const remote = fetcher.data?.slugCheck?.slug === slug ? fetcher.data.slugCheck : null;
  const slugStatus = !slug
    ? null
    : localProblem
      ? { ok: false, text: localProblem }
      : remote
        ? { ok: remote.available, text: remote.message }
        : { ok: true, text: "Checking..." };

  return (
    <AuthLayout
      title="Apply as an agency"
      subtitle="Onboard your creators with your own signup links."
      footer={
        signedIn ? (
          <p>
            Applying as <span className="font-semibold">{signedIn.email}</span>.
          </p>
        ) : (
          <p>
            Already have an account?{" "}
            <Link to="/auth?redirectTo=%2Fagency-application-signup" className="font-semibold text-brand-700 underline-offset-2 hover:underline">
              Sign in
            </Link>{" "}
            first, then apply.
          </p>
        )
      }
    >
      {previous ? (
        <div role="note" className="mb-5 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          <p className="font-semibold">Your application for {previous.name} was not approved.</p>
          {previous.reason ? <p>Reason: {previous.reason}</p> : null}
          <p>You can apply again below.</p>
        </div>
      ) : null}
      <Form
        method="post"
        noValidate
        className="space-y-5"
        onSubmit={(e) =>
          validateBeforeSubmit(
            e,
            () =>
              import("~/modules/agencies/schema").then((m) => (signedIn ? [m.agencyApplicationSchema] : [m.applicantAccountSchema, m.agencyApplicationSchema])),
            setErrors,
          )
        }
      >
        <fieldset className="space-y-4">
          <legend className="text-base font-semibold text-slate-900">Your agency</legend>
          <Field
            label="Agency name"
            name="agencyName"
            required
            maxLength={100}
            value={name}
            onChange={(e) => {
              const v = e.currentTarget.value;
              setName(v);
              if (!slugTouched.current) setSlug(slugify(v));
            }}
            error={errors.agencyName}
          />
          <div>
            <Field
              label="Slug (your link)"
              name="slug"
              required
              maxLength={SLUG_MAX}
              autoCapitalize="none"
              autoCorrect="off"
              spellCheck={false}
              pattern="[a-z0-9]+(-[a-z0-9]+)*"
              value={slug}
              onChange={(e) => {
                slugTouched.current = true;
                setSlug(e.currentTarget.value.toLowerCase().replace(/\s+/g, "-"));
              }}
              error={errors.slug}
              hint={
                <span>
                  Creators sign up at{" "}
                  <span className="font-mono break-all text-slate-800">
                    {origin}/{slug || "your-slug"}/signup
                  </span>
                  . Lowercase letters, numbers and hyphens.
                </span>
              }
            />
            <p aria-live="polite" className={`mt-1 min-h-5 text-sm ${slugStatus?.ok ? "text-emerald-700" : "text-red-700"}`}>
              {slugStatus && !errors.slug ? (
                <>
                  <span aria-hidden="true">{slugStatus.text === "Checking..." ? "" : slugStatus.ok ? "✓ " : "✗ "}</span>
                  {slugStatus.text}
                </>
              ) : null}
            </p>
          </div>
          <Field
            label="Contact e-mail"
            name="contactEmail"
            type="email"
            autoComplete="email"
            required
            maxLength={254}
            defaultValue={signedIn?.email ?? ""}
            error={errors.contactEmail}
          />
          <TextArea
            label="Description"
            name="description"
            rows={4}
            maxLength={DESCRIPTION_MAX}
            error={errors.description}
            hint="Who you represent and how you work with creators (optional)."
          />
        </fieldset>

        {signedIn ? null : (
          <fieldset className="space-y-4 border-t border-slate-200 pt-5">
            <legend className="text-base font-semibold text-slate-900">Your account</legend>
            <p className="text-sm text-slate-600">You become the agency's first manager. We e-mail you a confirmation link.</p>
            <NewAccountFields errors={errors} />
            <Checkbox name="acceptTerms" checked={accepted} onChange={(e) => setAccepted(e.currentTarget.checked)} error={errors.acceptTerms}>
              I accept the{" "}
              <a href="/terms-of-service" target="_blank" rel="noreferrer" className="font-semibold text-brand-700 underline">
                Terms of Service
              </a>{" "}
              and the{" "}
              <a href="/privacy-policy" target="_blank" rel="noreferrer" className="font-semibold text-brand-700 underline">
                Privacy Policy
              </a>
            </Checkbox>
          </fieldset>
        )}
        <SubmitButton disabled={busy}>{busy ? "Submitting..." : "Submit application"}</SubmitButton>
      </Form>
    </AuthLayout>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
