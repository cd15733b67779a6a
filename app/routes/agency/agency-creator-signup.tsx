import { data } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { authFieldTitle, authParams, authenticate, cookieHeaders, parseAccountForm } from "~/modules/accounts/accounts.server";
import { AuthScreen } from "~/modules/accounts/components/auth-screen";
import { requireSignedOut } from "~/modules/accounts/guards.server";
import { AUTH_FORM_TITLES, authFormSchema } from "~/modules/accounts/schema";
import { activeAgencyBySlug } from "~/modules/agencies/agencies.server";
import { domainAction } from "~/platform/http.server";
import { redirectWithToast } from "~/platform/toast.server";
import type { Route } from "./+types/agency-creator-signup";

// /{agencySlug}/signup: the sign-up screen preset to an agency ('Join {agency}' and its banner).
// Only an approved, active agency's slug resolves; anything else is the not-found page. A
// ?token=… from the agency's dashboard attributes the creator to it (see accounts signUp).

export const meta = ({ loaderData }: Route.MetaArgs) => [{ title: loaderData ? `Join ${loaderData.agency.name} | Shortbeat` : "Page not found | Shortbeat" }];

async function agencyOr404(slug: string | undefined) {
  const agency = slug ? await activeAgencyBySlug(slug.toLowerCase()) : null;
  if (!agency) throw data("Not Found", { status: 404 });
  return agency;
}

export async function loader(args: Route.LoaderArgs) {
  const agency = await agencyOr404(args.params.agencySlug);
  await requireSignedOut(args);
  const url = new URL(args.request.url);
  // Sign-up by default; the screen's own 'Sign In' tab links here with the agency in the query.
  const mode = url.searchParams.get("mode") === "signup" || !url.searchParams.has("agency_slug") ? "signup" : undefined;
  return {
    agency: { name: agency.name, slug: agency.slug, logoUrl: agency.logoUrl },
    params: authParams(args.request, { agencySlug: agency.slug, agencyName: agency.name, mode }),
  };
}

export const action = domainAction(async (args: Route.ActionArgs) => {
  const agency = await agencyOr404(args.params.agencySlug);
  const input = await parseAccountForm(args.request, authFormSchema, authFieldTitle(args.request));
  const next = await authenticate(args.request, input, { agencySlug: agency.slug, agencyName: agency.name });
  return redirectWithToast(args.request, next.to, next.toast, { headers: cookieHeaders(next.cookies) });
}, AUTH_FORM_TITLES);

export default function AgencyCreatorSignup({ loaderData, actionData }: Route.ComponentProps) {
  return <AuthScreen params={loaderData.params} actionData={actionData} />;
}

export const ErrorBoundary = GeneralErrorBoundary;
