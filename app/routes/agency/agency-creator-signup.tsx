import { data } from "react-router";
import { AuthScreen } from "~/modules/accounts/components/auth-screen";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { findPublicAgency } from "~/modules/agencies/agencies.server";
import { authAction, authLoader, authParams } from "~/modules/accounts/auth-actions.server";
import type { Route } from "./+types/agency-creator-signup";

// /{agencySlug}/signup: the sign-up screen preset to an agency ('Join {agency}' and its banner).
// Only an approved, active agency's slug resolves; anything else is the not-found page. A
// ?token=… from the agency's dashboard attributes the creator to it (see auth.server.ts signUp).

export const meta = ({ loaderData }: Route.MetaArgs) => [
  { title: loaderData ? `Join ${loaderData.agency.name} | Shortbeat` : "Page not found | Shortbeat" },
];

async function agencyOr404(slug: string | undefined) {
  const agency = slug ? await findPublicAgency(slug) : null;
  if (!agency) throw data("Not Found", { status: 404 });
  return agency;
}

export async function loader(args: Route.LoaderArgs) {
  const agency = await agencyOr404(args.params.agencySlug);
  await authLoader(args);
  const url = new URL(args.request.url);
  // Sign-up by default; the screen's own 'Sign In' tab links here with the agency in the query.
  const mode = url.searchParams.get("mode") === "signup" || !url.searchParams.has("agency_slug") ? "signup" : undefined;
  return {
    agency: { name: agency.name, slug: agency.slug, logoUrl: agency.logo_url },
    params: authParams(args.request, { agencySlug: agency.slug, agencyName: agency.name, mode }),
  };
}

export async function action(args: Route.ActionArgs) {
  const agency = await agencyOr404(args.params.agencySlug);
  return authAction(args, { agencySlug: agency.slug, agencyName: agency.name });
}

export default function AgencyCreatorSignup({ loaderData, actionData }: Route.ComponentProps) {
  return <AuthScreen params={loaderData.params} actionData={actionData} />;
}

export const ErrorBoundary = GeneralErrorBoundary;
