import { Form, Link, data, useNavigation } from "react-router";
import { recoverySchema } from "~/modules/admin/schema";
import { fieldErrors } from "~/modules/accounts/schema";
import { AuthLayout } from "~/modules/accounts/components/auth-layout";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { Field, FormError, SubmitButton } from "~/components/forms";
import { RECOVERY_ANSWER, recoverAdmin } from "~/modules/admin/admin.server";
import { tooManyAttempts, LIMITS } from "~/platform/rate-limit.server";
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

type ActionData =
  | { ok: true; message: string }
  | { ok: false; errors: Record<string, string>; message: string };

export async function action({ request }: Route.ActionArgs) {
  const parsed = recoverySchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    return data<ActionData>({ ok: false, errors, message: Object.values(errors)[0] ?? "Please check the form." }, { status: 400 });
  }
  const result = await recoverAdmin(request, parsed.data.email, parsed.data.secret);
  if (!result.ok) {
    const t = tooManyAttempts(LIMITS.generic);
    return data<ActionData>(
      { ok: false, errors: {}, message: `${t.title}. ${t.description}` },
      { status: 429, headers: { "Retry-After": String(result.retryAfterSeconds) } },
    );
  }
  return data<ActionData>({ ok: true, message: RECOVERY_ANSWER });
}

export default function AdminRecovery({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const errors = actionData && !actionData.ok ? actionData.errors : {};
  return (
    <AuthLayout
      title="Admin recovery"
      subtitle="For the people who run this deployment."
      footer={
        <Link to="/auth" className="font-medium text-slate-800 underline underline-offset-2">
          Back to sign in
        </Link>
      }
    >
      <p className="text-sm text-slate-700">
        Enter the deployment's recovery secret (<code className="rounded bg-slate-100 px-1">ADMIN_RECOVERY_SECRET</code>) and the
        e-mail of an existing account. Every attempt is logged as a critical security event.
      </p>
      {actionData?.ok ? (
        <p role="status" className="mt-4 rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-800">
          {actionData.message}
        </p>
      ) : null}
      <Form method="post" className="mt-5 space-y-4" key={actionData?.ok ? "done" : "form"}>
        {actionData && !actionData.ok && Object.keys(errors).length === 0 ? <FormError message={actionData.message} /> : null}
        <Field label="Account e-mail" name="email" type="email" autoComplete="email" required maxLength={254} error={errors.email} />
        <Field
          label="Recovery secret"
          name="secret"
          type="password"
          autoComplete="off"
          required
          maxLength={512}
          error={errors.secret}
        />
        <SubmitButton disabled={busy}>{busy ? "Checking..." : "Grant admin access"}</SubmitButton>
      </Form>
    </AuthLayout>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
