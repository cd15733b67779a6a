import { useEffect, useState } from "react";
import { Form, Link } from "react-router";
import { toast } from "~/ui/toaster";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { SubmitButton } from "~/ui/button";
import { checkToken, cookieHeaders, parseAccountForm, resetPassword } from "~/modules/accounts/accounts.server";
import { NewPasswordFields } from "~/modules/accounts/components/account-fields";
import { AuthLayout, BackToSignIn } from "~/modules/accounts/components/auth-layout";
import { resetPasswordSchema } from "~/modules/accounts/schema";
import { domainAction } from "~/platform/http.server";
import { redirectWithToast } from "~/platform/toast.server";
import type { Route } from "./+types/reset-password";

export const meta = () => [{ title: "Choose a new password | Shortbeat" }];

export async function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { token, valid: await checkToken(token, "password_reset") };
}

export const action = domainAction(async ({ request }: Route.ActionArgs) => {
  const input = await parseAccountForm(request, resetPasswordSchema);
  // The link proves the owner: this browser is signed in (also while password sign-in is locked).
  const { setCookie } = await resetPassword(request, input.token, input.password);
  if (!setCookie) {
    return redirectWithToast(request, "/auth", {
      type: "success",
      title: "Password updated",
      description: "Sign in with your new password. Your other sessions have been signed out.",
    });
  }
  return redirectWithToast(
    request,
    "/dashboard",
    { type: "success", title: "Password updated", description: "You are signed in. Your other sessions have been signed out." },
    { headers: cookieHeaders([setCookie]) },
  );
});

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const [password, setPassword] = useState("");
  useEffect(() => {
    if (actionData?.toast) toast.error(actionData.toast.title, { description: actionData.toast.description });
  }, [actionData]);
  const errors: Record<string, string> = actionData?.errors ?? {};
  return (
    <AuthLayout title="Choose a new password" footer={<BackToSignIn />}>
      {!loaderData.valid ? (
        <div className="space-y-4 text-center">
          <p role="alert" className="text-slate-700">
            This link is invalid or has expired.
          </p>
          <Link to="/auth/forgot-password" className="font-semibold text-brand-700 hover:underline">
            Ask for a new link
          </Link>
        </div>
      ) : (
        <Form method="post" className="space-y-4" noValidate>
          <input type="hidden" name="token" value={loaderData.token} />
          <NewPasswordFields label="New password" password={password} onPasswordChange={setPassword} errors={errors} required={false} />
          <SubmitButton>Update password</SubmitButton>
        </Form>
      )}
    </AuthLayout>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
