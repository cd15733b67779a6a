import { useEffect, useState } from "react";
import { Form, Link, data, useNavigation } from "react-router";
import { toast } from "~/ui/toaster";
import type { FieldErrors } from "~/modules/accounts/schema";
import { musicPartnerSignUpSchema } from "~/modules/agencies/schema";
import { Checkbox, validateBeforeSubmit } from "~/modules/agencies/components/agency-forms";
import { AuthLayout } from "~/modules/accounts/components/auth-layout";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { Field } from "~/ui/field";
import { NewAccountFields } from "~/modules/accounts/components/account-fields";
import { SubmitButton } from "~/ui/button";
import { useAppName } from "~/components/public-layout";
import { activeAgencyBySlug } from "~/modules/agencies/agencies.server";
import { ACCOUNT_CREATED, parseAccountForm, signUpMusicPartner } from "~/modules/accounts/accounts.server";
import { getOptionalUser } from "~/modules/accounts/guards.server";
import { domainAction } from "~/platform/http.server";
import { redirectWithToast } from "~/platform/toast.server";
import type { Route } from "./+types/music-signup";

// /music-signup and /{agencySlug}/music-signup: music partners sign up (pending, flagged
// is_music_partner, with their artist or label name and catalogue link). With a slug, only an
// approved, active agency resolves, and the partner is linked to it.

export const meta = ({ loaderData }: Route.MetaArgs) => [
  { title: loaderData?.agency ? `Music partners · ${loaderData.agency.name} | Shortbeat` : "Music partner sign-up | Shortbeat" },
];

async function agencyFor(slug: string | undefined) {
  if (slug === undefined) return null;
  const agency = await activeAgencyBySlug(slug.toLowerCase());
  if (!agency) throw data("Not Found", { status: 404 });
  return agency;
}

export async function loader(args: Route.LoaderArgs) {
  const agency = await agencyFor(args.params.agencySlug);
  const user = await getOptionalUser(args);
  return {
    agency: agency ? { name: agency.name, slug: agency.slug } : null,
    signedInAs: user && !user.isBanned ? user.email : null,
  };
}

/** A refused attempt's Retry-After reaches the browser on document requests too. */
export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : new Headers();
};

export const action = domainAction(async (args: Route.ActionArgs) => {
  const agency = await agencyFor(args.params.agencySlug);
  const input = await parseAccountForm(args.request, musicPartnerSignUpSchema);
  await signUpMusicPartner(args.request, input, agency);
  return redirectWithToast(args.request, ACCOUNT_CREATED.to, ACCOUNT_CREATED.toast);
}, "Sign up failed");

export default function MusicSignup({ loaderData, actionData }: Route.ComponentProps) {
  const { agency, signedInAs } = loaderData;
  const appName = useAppName();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const [errors, setErrors] = useState<FieldErrors>({});
  const [accepted, setAccepted] = useState(false);
  useEffect(() => {
    if (!actionData) return;
    setErrors(actionData.errors);
    toast.error(actionData.toast.title, { description: actionData.toast.description });
  }, [actionData]);

  const banner = agency ? (
    <div className="mb-4 rounded-xl border border-indigo-200 bg-indigo-50 p-4 text-indigo-900" role="note">
      <p className="font-semibold">
        Join {agency.name} on {appName}
      </p>
      <p className="text-sm">You are signing up as a music partner through {agency.name}.</p>
    </div>
  ) : null;

  return (
    <AuthLayout
      title={agency ? `Join ${agency.name} as a music partner` : "Become a music partner"}
      subtitle={`Get your music into ${appName} creators' Shorts`}
      banner={banner}
      footer={
        <p>
          Already have an account?{" "}
          <Link to="/auth" className="font-semibold text-brand-700 underline-offset-2 hover:underline">
            Sign in
          </Link>
        </p>
      }
    >
      {signedInAs ? (
        <p role="note" className="mb-4 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          You are signed in as {signedInAs}. This form creates a new account; to add music partner access to your existing account, contact an admin.
        </p>
      ) : null}
      <Form
        method="post"
        noValidate
        className="space-y-4"
        onSubmit={(e) => validateBeforeSubmit(e, () => import("~/modules/agencies/schema").then((m) => [m.musicPartnerSignUpSchema]), setErrors)}
      >
        <NewAccountFields errors={errors} />
        <Field label="Artist or label name" name="artistName" autoComplete="organization" required maxLength={100} error={errors.artistName} />
        <Field
          label="Catalogue link"
          name="catalogueUrl"
          type="url"
          inputMode="url"
          placeholder="https://open.spotify.com/artist/…"
          required
          maxLength={500}
          error={errors.catalogueUrl}
          hint="Where we can hear your music: a streaming profile, SoundCloud, Bandcamp or your website."
        />
        <Checkbox name="acceptTerms" checked={accepted} onChange={(e) => setAccepted(e.currentTarget.checked)} error={errors.acceptTerms}>
          I accept the{" "}
          <a href="/music-partner-terms" target="_blank" rel="noreferrer" className="font-semibold text-brand-700 underline">
            Music Partner Terms
          </a>
        </Checkbox>
        <SubmitButton disabled={busy}>{busy ? "Creating account..." : "Create music partner account"}</SubmitButton>
        <p className="text-xs text-slate-600">Your account is reviewed by our team before you can submit music. We e-mail you a confirmation link first.</p>
      </Form>
    </AuthLayout>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
