import { useEffect } from "react";
import { data, Form, Link, redirect } from "react-router";
import { toast } from "sonner";
import { AuthLayout } from "~/modules/accounts/components/auth-layout";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { Field, SubmitButton } from "~/components/forms";
import { fieldErrors, forgotPasswordSchema, MESSAGES } from "~/modules/accounts/schema";
import { requestPasswordReset } from "~/modules/accounts/auth.server";
import { getOptionalUser } from "~/modules/accounts/guards.server";
import type { Route } from "./+types/forgot-password";

export const meta = () => [{ title: "Forgot password | Shortbeat" }];

export async function loader(args: Route.LoaderArgs) {
  const user = await getOptionalUser(args);
  if (user) throw redirect("/settings");
  return null;
}

export async function action({ request }: Route.ActionArgs) {
  const parsed = forgotPasswordSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) {
    return data(
      { sent: false, error: fieldErrors(parsed.error).email, toast: { title: MESSAGES.invalidEmailTitle, description: MESSAGES.invalidEmail } },
      { status: 400 },
    );
  }
  const result = await requestPasswordReset(request, parsed.data.email);
  if (!result.ok) {
    return data(
      { sent: false, error: undefined, toast: result.toast },
      { status: result.status, headers: { "Retry-After": String(result.retryAfterSeconds ?? 60) } },
    );
  }
  return { sent: true, error: undefined, toast: null };
}

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  useEffect(() => {
    if (actionData?.toast) toast.error(actionData.toast.title, { description: actionData.toast.description });
  }, [actionData]);
  return (
    <AuthLayout
      title="Forgot password?"
      subtitle="We'll e-mail you a link to choose a new one."
      footer={
        <Link to="/auth" className="font-semibold text-brand-700 hover:underline">
          Back to sign in
        </Link>
      }
    >
      {actionData?.sent ? (
        <p role="status" className="rounded-md bg-emerald-50 p-3 text-sm text-emerald-900">
          If an account exists for that e-mail address, we've sent a link to reset the password. It is valid for 1 hour.
        </p>
      ) : (
        <Form method="post" className="space-y-4" noValidate>
          <Field label="Email" name="email" type="email" autoComplete="email" required error={actionData?.error} />
          <SubmitButton>Send reset link</SubmitButton>
        </Form>
      )}
    </AuthLayout>
  );
}

export { retryAfterHeaders as headers } from "~/lib/toast";

export const ErrorBoundary = GeneralErrorBoundary;
