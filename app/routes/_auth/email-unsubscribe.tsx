import { Form, Link } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { SubmitButton } from "~/ui/button";
import { checkUnsubscribeLink, unsubscribeWithLink } from "~/modules/accounts/accounts.server";
import { AuthLayout } from "~/modules/accounts/components/auth-layout";
import { unsubscribeSchema } from "~/modules/accounts/schema";
import { domainAction } from "~/platform/http.server";
import { parseForm } from "~/platform/body.server";
import type { Route } from "./+types/email-unsubscribe";

export const meta = () => [{ title: "Unsubscribe | Shortbeat" }];

// The link in the footer and the List-Unsubscribe header of optional e-mail (docs/decisions/0212).
// Opening it shows the address and a button (no change on GET: mail scanners prefetch links); the
// POST unsubscribes, also when a mail client sends RFC 8058's one-click body
// (List-Unsubscribe=One-Click) without a page.
export async function loader({ request }: Route.LoaderArgs) {
  const link = await checkUnsubscribeLink(new URL(request.url));
  return { address: link?.address ?? null };
}

export const action = domainAction(async ({ request }: Route.ActionArgs) => {
  await parseForm(request, unsubscribeSchema);
  const { address } = await unsubscribeWithLink(new URL(request.url));
  return { done: true as const, address };
}, "Unsubscribe failed");

export default function EmailUnsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const done = actionData && "done" in actionData;
  return (
    <AuthLayout title="E-mail updates">
      {done ? (
        <div className="space-y-4 text-center" role="status">
          <p className="text-slate-700">
            You are unsubscribed: <strong className="break-all">{actionData.address}</strong> no longer gets optional e-mails (nudges, summaries, campaign
            news). Account and payment e-mails still reach you.
          </p>
          <Link to="/settings#email" className="font-semibold text-brand-700 hover:underline">
            E-mail settings
          </Link>
        </div>
      ) : loaderData.address ? (
        <Form method="post" className="space-y-4 text-center">
          <p className="text-slate-700">
            Stop optional e-mails (nudges, summaries, campaign news) to <strong className="break-all">{loaderData.address}</strong>? Account and payment e-mails
            still reach you.
          </p>
          <SubmitButton>Unsubscribe</SubmitButton>
        </Form>
      ) : (
        <div className="space-y-4 text-center">
          <p role="alert" className="text-slate-700">
            This unsubscribe link is not valid. You can change your e-mail settings in Settings.
          </p>
          <Link to="/settings#email" className="font-semibold text-brand-700 hover:underline">
            Go to settings
          </Link>
        </div>
      )}
    </AuthLayout>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
