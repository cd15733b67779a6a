import { Form, Link, useNavigation } from "react-router";
import { isActionFailure } from "~/lib/errors";
import { actorOf } from "~/modules/accounts/accounts.server";
import { AuthLayout } from "~/modules/accounts/components/auth-layout";
import { requireUser } from "~/modules/accounts/guards.server";
import { acceptInvitation, invitationView, type InvitationView } from "~/modules/agencies/agencies.server";
import { acceptInvitationSchema } from "~/modules/agencies/schema";
import { AGENCY_MESSAGES, INVITATION_MESSAGES } from "~/modules/agencies/messages";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { SubmitButton, buttonClass } from "~/ui/button";
import { FormError } from "~/ui/form-error";
import { domainAction, domainLoader } from "~/platform/http.server";
import { parseForm } from "~/platform/body.server";
import { redirectWithToast } from "~/platform/toast.server";
import type { Route } from "./+types/agency-invitation";

// /agency-invitation?token=…: the link of an agency manager invitation (docs/decisions/0065).
// Signed out → sign in first (and back here). The signed-in account's verified e-mail must be the
// invited one, the account approved and not banned; accepting makes them a manager, once.

export const meta = () => [{ title: "Agency invitation | Shortbeat" }, { name: "robots", content: "noindex" }];

export const loader = domainLoader(async (args: Route.LoaderArgs) => {
  const user = await requireUser(args);
  const token = new URL(args.request.url).searchParams.get("token")?.slice(0, 200) ?? "";
  const view = await invitationView({ ...actorOf(user), emailVerified: user.emailVerified }, token);
  return { view, token: view.kind === "ready" ? token : "", email: user.email };
});

export const action = domainAction(async (args: Route.ActionArgs) => {
  const user = await requireUser(args);
  const input = await parseForm(args.request, acceptInvitationSchema);
  const { agencyId, agencyName } = await acceptInvitation({ ...actorOf(user), emailVerified: user.emailVerified }, input.token, args.request);
  return redirectWithToast(args.request, `/agency-dashboard?agency=${agencyId}`, {
    type: "success",
    title: `You now manage ${agencyName}`,
  });
}, AGENCY_MESSAGES.addUser);

const REFUSALS: Record<Exclude<InvitationView["kind"], "ready">, string> = {
  invalid: INVITATION_MESSAGES.invalid,
  wrongAccount: INVITATION_MESSAGES.wrongAccount,
  unverified: INVITATION_MESSAGES.unverified,
  unapproved: INVITATION_MESSAGES.unapproved,
};

export default function AgencyInvitation({ loaderData, actionData }: Route.ComponentProps) {
  const { view, token, email } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const failure = isActionFailure(actionData) ? actionData : null;
  const agencyName = view.kind === "invalid" || view.kind === "wrongAccount" ? null : view.agencyName;
  return (
    <AuthLayout
      title="Agency invitation"
      subtitle={agencyName ? `Manage ${agencyName}` : undefined}
      footer={
        <Link to="/dashboard" className="font-medium text-slate-800 underline underline-offset-2">
          Go to your dashboard
        </Link>
      }
    >
      <p className="text-sm break-words text-slate-700">
        Signed in as <span className="font-medium text-slate-900">{email}</span>
      </p>
      {view.kind === "ready" ? (
        <Form method="post" className="mt-5 space-y-4">
          {failure ? <FormError message={`${failure.toast.title}. ${failure.toast.description}`} /> : null}
          <p className="text-slate-700">
            You have been invited to manage <span className="font-semibold break-words text-slate-900">{view.agencyName}</span>. As a manager you see its signup
            links, tokens and roster, and can edit its profile.
          </p>
          <input type="hidden" name="token" value={token} />
          <SubmitButton disabled={busy}>{busy ? "Accepting..." : "Accept invitation"}</SubmitButton>
        </Form>
      ) : (
        <div className="mt-5 space-y-4">
          <p role="alert" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
            {REFUSALS[view.kind]}
          </p>
          {view.kind === "wrongAccount" ? (
            <Form method="post" action="/auth/sign-out">
              <button type="submit" className={`${buttonClass.secondary} w-full`}>
                Sign out
              </button>
            </Form>
          ) : null}
        </div>
      )}
    </AuthLayout>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
