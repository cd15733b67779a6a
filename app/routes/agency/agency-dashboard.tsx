import { useEffect } from "react";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { invalid, isActionFailure } from "~/lib/errors";
import { pageUrl } from "~/lib/page-url";
import { actorOf } from "~/modules/accounts/accounts.server";
import { agencyDashboard, agencyDashboardAction } from "~/modules/agencies/agencies.server";
import { AgencyDashboard } from "~/modules/agencies/components/agency-dashboard";
import { requireAgencyAccess } from "~/modules/agencies/guards.server";
import { AGENCY_MESSAGES, LOGO_MAX_BYTES } from "~/modules/agencies/messages";
import { DASHBOARD_TITLES, dashboardActionSchema } from "~/modules/agencies/schema";
import { parseForm } from "~/platform/body.server";
import { domainAction, domainLoader } from "~/platform/http.server";
import { redirectWithToast } from "~/platform/toast.server";
import { Card } from "~/ui/card";
import { EmptyState } from "~/ui/empty-state";
import { PageHeader } from "~/ui/page-header";
import { toast } from "~/ui/toaster";
import type { Route } from "./+types/agency-dashboard";

// /agency-dashboard: managers of an approved, active agency (and admins, who see every agency
// with a switcher). Every action names its agency by id; the agencies module checks it against
// the user's own agencies, and another agency's id answers 403 and is audit-logged.

export const meta = () => [{ title: "Agency | Shortbeat" }];

export const loader = domainLoader(async (args: Route.LoaderArgs) => {
  const user = await requireAgencyAccess(args);
  const url = new URL(args.request.url);
  const rosterPage = Math.max(1, Number.parseInt(url.searchParams.get("roster") ?? "1", 10) || 1);
  const page = await agencyDashboard(actorOf(user), { agencyId: url.searchParams.get("agency"), rosterPage });
  if (page.kind !== "dashboard") return { ...page, isAdmin: user.isAdmin };
  const confirm = url.searchParams.get("confirm");
  return {
    ...page,
    isAdmin: user.isAdmin,
    userId: user.id,
    origin: url.origin,
    confirm: confirm === "revoke_token" || confirm === "remove_manager" ? confirm : null,
    confirmId: url.searchParams.get("id"),
  };
});

export const action = domainAction(async (args: Route.ActionArgs) => {
  const user = await requireAgencyAccess(args);
  // A body larger than any logo is refused before it is read.
  if (Number(args.request.headers.get("Content-Length") ?? "0") > LOGO_MAX_BYTES + 64 * 1024) {
    throw invalid("The logo must be 2 MB or smaller.", { title: AGENCY_MESSAGES.update });
  }
  const input = await parseForm(args.request, dashboardActionSchema);
  const message = await agencyDashboardAction(actorOf(user), input, args.request);
  // Removing oneself may end access: then the guard sends them on from the dashboard.
  return redirectWithToast(args.request, pageUrl(args.request, { agency: input.agencyId, confirm: null, id: null }), {
    type: "success",
    title: message,
  });
}, DASHBOARD_TITLES);

export default function AgencyDashboardPage({ loaderData, actionData }: Route.ComponentProps) {
  useEffect(() => {
    if (loaderData.kind === "failed") toast.error(AGENCY_MESSAGES.fetch);
  }, [loaderData.kind]);
  useEffect(() => {
    if (isActionFailure(actionData)) toast.error(actionData.toast.title, { description: actionData.toast.description });
  }, [actionData]);

  if (loaderData.kind === "failed") {
    return (
      <>
        <PageHeader title="Agency" />
        <Card>
          <p role="alert" className="text-red-800">
            {AGENCY_MESSAGES.fetch}
          </p>
        </Card>
      </>
    );
  }
  if (loaderData.kind === "empty") {
    return (
      <>
        <PageHeader title="Agency" />
        <EmptyState title="No agencies yet" action={loaderData.isAdmin ? { to: "/admin/agencies", label: "Review applications" } : undefined}>
          <p>Agencies appear here once they apply.</p>
        </EmptyState>
      </>
    );
  }
  return <AgencyDashboard data={loaderData} failure={isActionFailure(actionData) ? actionData : undefined} />;
}

export const ErrorBoundary = GeneralErrorBoundary;
