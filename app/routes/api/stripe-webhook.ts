import { data } from "react-router";
import { receiveStripeWebhook } from "~/modules/payments/payments.server";
import type { Route } from "./+types/stripe-webhook";

// POST /api/stripe/webhook: Stripe's events (docs/decisions/0225). No session and no Origin: the
// signature over the raw body is the authentication, checked by the payments module before anything
// is read into the app; each event is applied once. Other methods: 405.
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") throw data({ error: "Method Not Allowed" }, { status: 405, headers: { Allow: "POST" } });
  return receiveStripeWebhook(request);
}

export function loader() {
  throw data({ error: "Method Not Allowed" }, { status: 405, headers: { Allow: "POST" } });
}
