import { AuthScreen } from "~/modules/accounts/components/auth-screen";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { authAction, authLoader, authParams } from "~/modules/accounts/auth-actions.server";
import type { Route } from "./+types/auth";

export const meta = () => [{ title: "Sign in | Shortbeat" }];

export async function loader(args: Route.LoaderArgs) {
  await authLoader(args);
  return { params: authParams(args.request) };
}

export async function action(args: Route.ActionArgs) {
  return authAction(args);
}

export default function Auth({ loaderData, actionData }: Route.ComponentProps) {
  return <AuthScreen params={loaderData.params} actionData={actionData} />;
}

export { retryAfterHeaders as headers } from "~/lib/toast";

export const ErrorBoundary = GeneralErrorBoundary;
