import { Form, redirect } from "react-router";
import { useBackgroundRevalidation } from "~/ui/use-background-revalidation";
import { useAccountEvents } from "~/modules/notifications/components/account-events";
import { AuthLayout } from "~/modules/accounts/components/auth-layout";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { APPROVAL_CHECK_DELAY_MS, PROFILE_POLL_MS } from "~/lib/constants";
import { isApproved } from "~/lib/permissions";
import { actorOf, rejectionReasonOf } from "~/modules/accounts/accounts.server";
import { clipperRequestsOf } from "~/modules/clipping/clipping.server";
import { greetingName, requireUser, viewerOf } from "~/modules/accounts/guards.server";
import type { Route } from "./+types/pending-approval";

export const meta = () => [{ title: "Pending approval | Shortbeat" }];

export async function loader(args: Route.LoaderArgs) {
  const user = await requireUser(args);
  // A clipper's requests (clipping, a domain above accounts: this route asks both). An invited
  // clipper waits for two approvals, the creator's and the admin's; the page says where each stands.
  const clipperRequests = await clipperRequestsOf(actorOf(user));
  // Approved: a person who joined to clip lands where their creators are.
  if (isApproved(viewerOf(user))) throw redirect(clipperRequests.length > 0 ? "/clipping" : "/dashboard");
  return {
    name: greetingName(user),
    email: user.email,
    status: user.approvalStatus,
    rejectionReason: await rejectionReasonOf(user),
    clipperRequests,
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
        {loaderData.clipperRequests.length > 0 && loaderData.status !== "rejected" ? <ClipperSteps requests={loaderData.clipperRequests} /> : null}
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

/** An invited clipper's two approvals, each with where it stands (issue 42 §3). */
function ClipperSteps({ requests }: { requests: Route.ComponentProps["loaderData"]["clipperRequests"] }) {
  const creatorStep = { waiting: "waiting for their approval", approved: "approved", declined: "declined" } as const;
  return (
    <div className="rounded-md border border-slate-200 bg-slate-50 p-3 text-left text-sm text-slate-800">
      <p className="font-semibold">To clip, two approvals are needed:</p>
      <ol className="mt-1 list-decimal space-y-1 pl-5">
        {requests.map((r) => (
          <li key={r.creatorName}>
            {r.creatorName} approves you as their clipper: <strong>{creatorStep[r.step]}</strong>.
          </li>
        ))}
        <li>
          An admin approves your account: <strong>waiting for review</strong>.
        </li>
      </ol>
      <p className="mt-1 text-slate-600">Once both are done, you'll find their source videos on the Clipping page.</p>
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
