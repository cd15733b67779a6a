import { Form, Link } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { SubmitButton } from "~/ui/button";
import { safeRedirect } from "~/lib/permissions";
import { checkToken, verifyEmail } from "~/modules/accounts/accounts.server";
import { AuthLayout } from "~/modules/accounts/components/auth-layout";
import { verifyEmailSchema } from "~/modules/accounts/schema";
import { domainAction } from "~/platform/http.server";
import { parseForm } from "~/platform/body.server";
import { redirectWithToast } from "~/platform/toast.server";
import type { Route } from "./+types/verify-email";

export const meta = () => [{ title: "Confirm your e-mail | Shortbeat" }];

// The link opens a page; confirming is a POST (no state change on GET, and mail scanners that
// prefetch links cannot use up the token). A link made at a sign-up that started on another page
// (a campaign's public page) carries that page (redirectTo, same-origin only): the sign-in screen
// it leads to keeps it, so the person lands back there.
const signInHref = (back: string) => (back ? `/auth?redirectTo=${encodeURIComponent(back)}` : "/auth");

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const token = url.searchParams.get("token") ?? "";
  return { token, redirectTo: safeRedirect(url.searchParams.get("redirectTo"), ""), valid: await checkToken(token, "email_verification") };
}

export const action = domainAction(async ({ request }: Route.ActionArgs) => {
  const { token, redirectTo } = await parseForm(request, verifyEmailSchema);
  await verifyEmail(request, token);
  return redirectWithToast(request, signInHref(safeRedirect(redirectTo, "")), {
    type: "success",
    title: "Email confirmed",
    description: "Sign in to continue. Your account is being reviewed. You'll receive an email once approved.",
  });
}, "Verification failed");

export default function VerifyEmail({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <AuthLayout title="Confirm your e-mail address">
      {loaderData.valid && !actionData ? (
        <Form method="post" className="space-y-4 text-center">
          <input type="hidden" name="token" value={loaderData.token} />
          {loaderData.redirectTo ? <input type="hidden" name="redirectTo" value={loaderData.redirectTo} /> : null}
          <p className="text-slate-700">Confirm that this e-mail address is yours.</p>
          <SubmitButton>Confirm my e-mail</SubmitButton>
        </Form>
      ) : (
        <div className="space-y-4 text-center">
          <p role="alert" className="text-slate-700">
            This link is invalid or has expired. Sign in to get a new one.
          </p>
          <Link to={signInHref(loaderData.redirectTo)} className="font-semibold text-brand-700 hover:underline">
            Go to sign in
          </Link>
        </div>
      )}
    </AuthLayout>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
