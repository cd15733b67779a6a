import { Form } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { LocalTime } from "~/ui/local-time";
import { cancelAccountDeletion } from "~/modules/accounts/accounts.server";
import { AuthLayout } from "~/modules/accounts/components/auth-layout";
import { requirePendingDeletion } from "~/modules/accounts/guards.server";
import { domainAction } from "~/platform/http.server";
import { redirectWithToast } from "~/platform/toast.server";
import type { Route } from "./+types/account-deletion";

export const meta = () => [{ title: "Account scheduled for deletion | Shortbeat" }];

// An account waiting out its 30-day deletion grace period is frozen: signing in lands here, where
// it can be kept, its data downloaded (0292), or the person signs out again (issue 28, docs/decisions/0213).
export async function loader(args: Route.LoaderArgs) {
  const user = await requirePendingDeletion(args);
  return { email: user.email, dueAt: user.deletionDueAt };
}

export const action = domainAction(async (args: Route.ActionArgs) => {
  const user = await requirePendingDeletion(args);
  await cancelAccountDeletion(args.request, user);
  return redirectWithToast(args.request, "/dashboard", {
    type: "success",
    title: "Your account is kept",
    description: "We will not delete it. Welcome back!",
  });
}, "Action failed");

export default function AccountDeletion({ loaderData }: Route.ComponentProps) {
  return (
    <AuthLayout title="Your account is scheduled for deletion" subtitle={`Signed in as ${loaderData.email}`}>
      <div className="space-y-4 text-center">
        <p className="text-slate-800">
          On{" "}
          <strong>
            <LocalTime iso={loaderData.dueAt} />
          </strong>{" "}
          we will delete or anonymise your personal data. Until then your account is frozen.
        </p>
        <p className="text-sm text-slate-600">
          Until then you can still{" "}
          <a href="/settings/export" download className="font-medium text-brand-700 underline hover:text-brand-800">
            download a copy of your data
          </a>
          .
        </p>
        <p className="text-sm text-slate-600">Changed your mind? Keep your account and carry on where you left off.</p>
        <Form method="post">
          <button type="submit" className="w-full rounded-md bg-brand-600 px-4 py-2.5 text-sm font-semibold text-white hover:bg-brand-700">
            Keep my account
          </button>
        </Form>
        <Form method="post" action="/auth/sign-out" reloadDocument>
          <button type="submit" className="w-full rounded-md border border-slate-300 px-4 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50">
            Sign out and let it be deleted
          </button>
        </Form>
      </div>
    </AuthLayout>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
