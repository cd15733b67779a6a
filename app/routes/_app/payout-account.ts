import { redirect } from "react-router";
import { actorOf } from "~/modules/accounts/accounts.server";
import { requireApprovedUser } from "~/modules/accounts/guards.server";
import { syncPayoutAccount } from "~/modules/payments/payments.server";
import { domainLoader } from "~/platform/http.server";
import { redirectWithToast } from "~/platform/toast.server";
import type { Route } from "./+types/payout-account";

// Stripe's onboarding sends the person back here (docs/decisions/0224):
//   /payments/payout-account/return   their account's status is read from Stripe, then /payments says it
//   /payments/payout-account/refresh  the one-time link had expired or was used: /payments offers a new one
// Reading Stripe's status and storing it is idempotent (the same on every visit); nothing else changes on GET.
const BACK = "/payments#payout-method-heading";

export const loader = domainLoader(async (args: Route.LoaderArgs) => {
  const user = await requireApprovedUser(args);
  if (args.params.step === "refresh") {
    return redirectWithToast(args.request, BACK, {
      type: "info",
      title: "Set-up link expired",
      description: "Choose “Continue set-up” to get a new link to Stripe.",
    });
  }
  if (args.params.step !== "return") throw redirect("/payments");
  const view = await syncPayoutAccount(actorOf(user), args.request);
  const toast =
    view.status === "enabled"
      ? { type: "success" as const, title: "Payouts are set up", description: "Your payout account is enabled: your next payout goes there." }
      : view.status === "restricted"
        ? { type: "error" as const, title: "Stripe needs more information", description: view.statusReason ?? "Update your details with Stripe." }
        : { type: "info" as const, title: "Set-up not finished", description: "Continue when you are ready: your balance waits for you." };
  return redirectWithToast(args.request, BACK, toast);
});
