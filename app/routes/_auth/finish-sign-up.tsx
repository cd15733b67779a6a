import { useEffect, useRef, useState } from "react";
import { Form, useNavigation } from "react-router";
import { useAppName } from "~/components/public-layout";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { safeRedirect } from "~/lib/permissions";
import { finishSignUp, finishSignUpDefaults, parseAccountForm } from "~/modules/accounts/accounts.server";
import { AuthLayout } from "~/modules/accounts/components/auth-layout";
import { ChannelDetailsFields, CreatorAgreementDialog } from "~/modules/accounts/components/agreement-fields";
import { requireUnfinishedSignUp } from "~/modules/accounts/guards.server";
import { finishSignUpSchema } from "~/modules/accounts/schema";
import { domainAction } from "~/platform/http.server";
import { redirectWithToast } from "~/platform/toast.server";
import { SubmitButton } from "~/ui/button";
import { Field } from "~/ui/field";
import { FormError } from "~/ui/form-error";
import { toast } from "~/ui/toaster";
import type { Route } from "./+types/finish-sign-up";

export const meta = () => [{ title: "Finish signing up | Shortbeat" }];

// A new Google account gives what the sign-up form asks (the channel details, the Creator
// Agreement) before it waits for approval (docs/decisions/0324). The guards send it here.
export async function loader(args: Route.LoaderArgs) {
  const user = await requireUnfinishedSignUp(args);
  return finishSignUpDefaults(user);
}

export const action = domainAction(async (args: Route.ActionArgs) => {
  const user = await requireUnfinishedSignUp(args);
  const input = await parseAccountForm(args.request, finishSignUpSchema);
  await finishSignUp(args.request, user, input);
  // Where the Google sign-up was headed (a campaign's page), else the waiting page; same-origin paths only.
  const next = safeRedirect(new URL(args.request.url).searchParams.get("redirectTo"), "/pending-approval");
  return redirectWithToast(args.request, next, {
    type: "success",
    title: "Thanks! Your sign-up is complete",
    description: "Your account will now be reviewed. You'll receive an email once approved.",
  });
}, "Sign up failed");

export default function FinishSignUp({ loaderData, actionData }: Route.ComponentProps) {
  const appName = useAppName();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const [acceptTerms, setAcceptTerms] = useState(false);
  const creatorDialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (actionData?.toast) toast.error(actionData.toast.title, { description: actionData.toast.description });
  }, [actionData]);
  const errors: Record<string, string | undefined> = actionData?.errors ?? {};
  return (
    <AuthLayout title="Finish signing up" subtitle={`Signed in with Google as ${loaderData.email}`}>
      <p className="mb-4 text-sm text-slate-700">
        Tell us about your channel and accept the Creator Agreement. Your account is then reviewed, as every {appName} account is.
      </p>
      <Form method="post" noValidate className="space-y-4">
        <Field label="Full name" name="fullName" autoComplete="name" required maxLength={100} defaultValue={loaderData.fullName} error={errors.fullName} />
        <ChannelDetailsFields errors={errors} acceptTerms={acceptTerms} onAcceptTermsChange={setAcceptTerms} agreementDialog={creatorDialog} />
        <FormError message={errors.form} />
        <SubmitButton disabled={busy}>{busy ? "Sending..." : "Finish signing up"}</SubmitButton>
        <CreatorAgreementDialog dialogRef={creatorDialog} />
      </Form>
      <Form method="post" action="/auth/sign-out" reloadDocument className="mt-4 text-center">
        <button type="submit" className="text-sm font-medium text-slate-700 underline hover:text-slate-900">
          Sign out
        </button>
      </Form>
    </AuthLayout>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
