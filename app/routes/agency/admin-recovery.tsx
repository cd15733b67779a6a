import { Form, data, useNavigation } from "react-router";
import { recoverySchema } from "~/modules/admin/schema";
import { AuthLayout, BackToSignIn } from "~/modules/accounts/components/auth-layout";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { Field } from "~/ui/field";
import { FormError } from "~/ui/form-error";
import { SubmitButton } from "~/ui/button";
import { isActionFailure } from "~/lib/errors";
import { RECOVERY_ANSWER, recoverAdmin } from "~/modules/admin/admin.server";
import { domainAction } from "~/platform/http.server";
import { parseForm } from "~/platform/body.server";
import type { Route } from "./+types/admin-recovery";

export const meta = () => [{ title: "Admin recovery | Shortbeat" }, { name: "robots", content: "noindex" }];

// Break-glass: whoever holds the deployment's ADMIN_RECOVERY_SECRET can make an existing
// account an admin. Public by design (the secret is the guard), rate-limited per address,
// logged as a critical event, and always the same answer. See docs/decisions/0020-admin-recovery.md.

/** A refused attempt's Retry-After reaches the browser on document requests too. */
export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : new Headers();
};

export const action = domainAction(async ({ request }: Route.ActionArgs) => {
  const input = await parseForm(request, recoverySchema);
  await recoverAdmin(request, input);
  return data({ ok: true as const, message: RECOVERY_ANSWER });
});

export default function AdminRecovery({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const failure = isActionFailure(actionData) ? actionData : null;
  const errors = failure?.errors ?? {};
  return (
    <AuthLayout
      title="Admin recovery"
      subtitle="For the people who run this deployment."
      footer={<BackToSignIn className="font-medium text-slate-800 underline underline-offset-2" />}
    >
      <p className="text-sm text-slate-700">
        Enter the deployment's recovery secret (<code className="rounded bg-slate-100 px-1">ADMIN_RECOVERY_SECRET</code>) and the e-mail of an existing account.
        Every attempt is logged as a critical security event.
      </p>
      {actionData?.ok ? (
        <p role="status" className="mt-4 rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-800">
          {actionData.message}
        </p>
      ) : null}
      <Form method="post" className="mt-5 space-y-4" key={actionData?.ok ? "done" : "form"}>
        {failure && Object.keys(errors).length === 0 ? <FormError message={`${failure.toast.title}. ${failure.toast.description}`} /> : null}
        <Field label="Account e-mail" name="email" type="email" autoComplete="email" required maxLength={254} error={errors.email} />
        <Field label="Recovery secret" name="secret" type="password" autoComplete="off" required maxLength={512} error={errors.secret} />
        <SubmitButton disabled={busy}>{busy ? "Checking..." : "Grant admin access"}</SubmitButton>
      </Form>
    </AuthLayout>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
