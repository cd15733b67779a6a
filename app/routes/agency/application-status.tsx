import { Link, redirect } from "react-router";
import { ApprovalBadge, Badge } from "~/ui/badge";
import { formatDate } from "~/lib/dates";
import { AuthLayout } from "~/modules/accounts/components/auth-layout";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { actorOf } from "~/modules/accounts/accounts.server";
import { requireUser } from "~/modules/accounts/guards.server";
import { ownApplications } from "~/modules/agencies/agencies.server";
import { domainLoader } from "~/platform/http.server";
import type { Route } from "./+types/application-status";

// /agency-application-status: where the derived agency state (spec section 4) sends pending and
// rejected applicants; it also explains an approved agency that an admin deactivated, and a
// manager whose own account is pending or rejected. None → the application form; approved and
// active with an approved account → the dashboard.

export const meta = () => [{ title: "Agency application status | Shortbeat" }];

export const loader = domainLoader(async (args: Route.LoaderArgs) => {
  const user = await requireUser(args);
  const { state, hasActiveAgency, accountApproved, agencies } = await ownApplications(actorOf(user));
  if (state === "none") throw redirect("/agency-application-signup");
  if (state === "approved" && hasActiveAgency) {
    if (accountApproved) throw redirect("/agency-dashboard");
    // The agency would let them in; their own account does not (yet).
    return { state: user.approvalStatus === "rejected" ? ("accountRejected" as const) : ("accountPending" as const), agencies };
  }
  return { state, agencies };
});

const HEADLINES = {
  pending: {
    title: "Your application is under review",
    text: "An admin reviews every agency. You will be notified and e-mailed when it is decided.",
  },
  rejected: { title: "Your application was not approved", text: "See the reason below. You can correct it and apply again." },
  accountPending: {
    title: "Your account is awaiting approval",
    text: "You manage an approved agency, but your own account has not been approved yet. The agency dashboard opens once an admin approves it.",
  },
  accountRejected: {
    title: "Your account was not approved",
    text: "You manage an approved agency, but your own account was not approved, so the agency dashboard stays closed. Contact support if you think this is a mistake.",
  },
  approved: {
    title: "Your agency is inactive",
    text: "Your agency is approved but an admin has deactivated it, so its dashboard and signup links are paused. Contact support to reactivate it.",
  },
} as const;

export default function ApplicationStatus({ loaderData }: Route.ComponentProps) {
  const { state, agencies } = loaderData;
  const headline = HEADLINES[state as keyof typeof HEADLINES] ?? HEADLINES.pending;
  return (
    <AuthLayout
      title="Agency application"
      subtitle={headline.title}
      footer={
        <Link to="/dashboard" className="font-medium text-slate-800 underline underline-offset-2">
          Go to your dashboard
        </Link>
      }
    >
      <p className="text-slate-700">{headline.text}</p>
      <ul className="mt-5 space-y-3">
        {agencies.map((a) => (
          <li key={a.id} className="rounded-lg border border-slate-200 p-4">
            <div className="flex flex-wrap items-center gap-2">
              <h2 className="font-semibold text-slate-900">{a.name}</h2>
              <ApprovalBadge status={a.approvalStatus} />
              {a.status === "inactive" ? <Badge tone="slate">Inactive</Badge> : null}
            </div>
            <p className="mt-1 text-sm text-slate-600">
              /{a.slug} · applied {formatDate(a.createdAt)}
            </p>
            {a.approvalStatus === "rejected" && a.rejectionReason ? (
              <p className="mt-2 rounded-md bg-red-50 px-3 py-2 text-sm text-red-900">
                <span className="font-semibold">Reason:</span> {a.rejectionReason}
              </p>
            ) : null}
          </li>
        ))}
      </ul>
      {state === "rejected" ? (
        <Link
          to="/agency-application-signup"
          className="mt-5 inline-flex w-full items-center justify-center rounded-md bg-brand-600 px-4 py-2.5 text-sm font-semibold text-white hover:bg-brand-700"
        >
          Apply again
        </Link>
      ) : null}
    </AuthLayout>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
