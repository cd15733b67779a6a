import { Form, redirect } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { Field } from "~/ui/field";
import { SubmitButton } from "~/ui/button";
import { parseAccountForm, requestPasswordReset } from "~/modules/accounts/accounts.server";
import { AuthLayout, BackToSignIn } from "~/modules/accounts/components/auth-layout";
import { getOptionalUser } from "~/modules/accounts/guards.server";
import { forgotPasswordSchema } from "~/modules/accounts/schema";
import { domainAction } from "~/platform/http.server";
import type { Route } from "./+types/forgot-password";
import { useActionFailure } from "~/ui/action-failure";

export const meta = () => [{ title: "Forgot password | Shortbeat" }];

export async function loader(args: Route.LoaderArgs) {
  const user = await getOptionalUser(args);
  if (user) throw redirect("/settings");
  return null;
}

// The same answer whether or not the address has an account.
export const action = domainAction(async ({ request }: Route.ActionArgs) => {
  const { email } = await parseAccountForm(request, forgotPasswordSchema);
  await requestPasswordReset(request, email);
  return { sent: true as const };
});

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const failure = useActionFailure(actionData);
  return (
    <AuthLayout title="Forgot password?" subtitle="We'll e-mail you a link to choose a new one." footer={<BackToSignIn />}>
      {actionData && !failure ? (
        <p role="status" className="rounded-md bg-emerald-50 p-3 text-sm text-emerald-900">
          If an account exists for that e-mail address, we've sent a link to reset the password. It is valid for 1 hour.
        </p>
      ) : (
        <Form method="post" className="space-y-4" noValidate>
          <Field label="Email" name="email" type="email" autoComplete="email" required error={failure?.errors.email} />
          <SubmitButton>Send reset link</SubmitButton>
        </Form>
      )}
    </AuthLayout>
  );
}

export { retryAfterHeaders as headers } from "~/lib/toast";

export const ErrorBoundary = GeneralErrorBoundary;
