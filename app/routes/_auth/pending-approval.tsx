import { Form, redirect } from "react-router";
import { useBackgroundRevalidation } from "~/ui/use-background-revalidation";
import { useAccountEvents } from "~/modules/notifications/components/account-events";
import { AuthLayout } from "~/modules/accounts/components/auth-layout";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { APPROVAL_CHECK_DELAY_MS, PROFILE_POLL_MS } from "~/lib/constants";
import { isApproved } from "~/lib/permissions";
import { rejectionReasonOf } from "~/modules/accounts/accounts.server";
import { greetingName, requireUser, viewerOf } from "~/modules/accounts/guards.server";
import type { Route } from "./+types/pending-approval";

export const meta = () => [{ title: "Pending approval | Shortbeat" }];

export async function loader(args: Route.LoaderArgs) {
  const user = await requireUser(args);
  if (isApproved(viewerOf(user))) throw redirect("/dashboard");
  return {
    name: greetingName(user),
    email: user.email,
    status: user.approvalStatus,
    rejectionReason: await rejectionReasonOf(user),
  };
}

export default function PendingApproval({ loaderData }: Route.ComponentProps) {
  // An approval or a ban arrives on the notifications socket and takes effect at once.
  useAccountEvents();
  // Re-read the profile shortly after arriving and then every 30 s: an approval moves the
  // user into the app without a reload (the loader redirects once approved). Never while the
  // server is out of reach (app/ui/use-background-revalidation.ts).
  useBackgroundRevalidation(PROFILE_POLL_MS, { firstAfterMs: APPROVAL_CHECK_DELAY_MS });
  return (
    <AuthLayout title="Pending Approval" subtitle={`Signed in as ${loaderData.email}`}>
      <div className="space-y-4 text-center">
        <p className="text-lg text-slate-800">Your account is being reviewed. You'll receive an email once approved.</p>
        {loaderData.status === "rejected" ? (
          <div className="rounded-md border border-red-200 bg-red-50 p-3 text-left text-sm text-red-900">
            <p className="font-semibold">Your application was not approved.</p>
            {loaderData.rejectionReason ? <p className="mt-1">Reason: {loaderData.rejectionReason}</p> : null}
          </div>
        ) : null}
        <p className="text-sm text-slate-600">
          Meanwhile you can update your{" "}
          <a className="font-semibold text-brand-700 underline" href="/profile">
            profile
          </a>{" "}
          and{" "}
          <a className="font-semibold text-brand-700 underline" href="/settings">
            settings
          </a>
          .
        </p>
        <Form method="post" action="/auth/sign-out" reloadDocument>
          <button type="submit" className="rounded-md border border-slate-300 px-4 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50">
            Sign out
          </button>
        </Form>
      </div>
    </AuthLayout>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
