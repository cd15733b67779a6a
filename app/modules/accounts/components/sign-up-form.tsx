import { useRef, useState } from "react";
import { Form, useNavigation } from "react-router";
import { NewAccountFields } from "~/modules/accounts/components/account-fields";
import { SubmitButton } from "~/ui/button";
import { FormError } from "~/ui/form-error";
import { AGREEMENTS, AgreementCheckbox, AgreementDialog, AgreementText, ChannelDetailsFields, CreatorAgreementDialog, useHydrated } from "./agreement-fields";
import { type FormProps, preloadValidation, validateOnSubmit } from "./auth-form-submit";

export function SignUpForm({ params, errors, setErrors, action, appName }: FormProps & { appName: string }) {
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
