import { receiveStripeWebhook } from "~/modules/payments/payments.server";
import type { Route } from "./+types/stripe-webhook";

// POST /api/stripe/webhook: Stripe's events (docs/decisions/0225, 0295). No session and no Origin:
// the signature over the raw body is the authentication, checked by the payments module before
// anything is read into the app; each event is applied once. Every other method: 405 with
// `Allow: POST`, answered as a Response (never thrown), so no method reaches an error path.
const methodNotAllowed = () =>
  Response.json({ error: "Method Not Allowed: Stripe's webhooks are POST." }, { status: 405, headers: { Allow: "POST", "Cache-Control": "no-store" } });

export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  return receiveStripeWebhook(request);
}

export function loader() {
  return methodNotAllowed();
}
