import { data } from "react-router";
import { handleDevStripeApi } from "~/dev/dev-stripe.server";
import { devToolsEnabled } from "~/platform/env.server";
import type { Route } from "./+types/stripe-api";

// The Stripe stand-in's API over HTTP (the app itself calls it in-process). DEV_TOOLS only.
export async function loader({ request }: Route.LoaderArgs) {
  if (!devToolsEnabled()) throw data("Not Found", { status: 404 });
  return handleDevStripeApi(request);
}

export async function action({ request }: Route.ActionArgs) {
  if (!devToolsEnabled()) throw data("Not Found", { status: 404 });
  return handleDevStripeApi(request);
}
