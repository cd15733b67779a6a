import { Form } from "react-router";
import { Badge, type Tone } from "~/ui/badge";
import { Button } from "~/ui/button";
import { Section } from "~/ui/section";
import { Select } from "~/ui/select";
import { formatCents } from "../money";
import type { PayoutAccountView } from "../types";

// "Payout method" on /payments (issue 29; docs/decisions/0224): set up a Stripe Express account
// (Stripe's hosted onboarding), see its status (needs information / enabled / restricted) and why,
// continue or update the set-up, open the Stripe dashboard; or read that one is paid outside Stripe.

const STATUS: Record<Exclude<PayoutAccountView["status"], "none">, { label: string; tone: Tone }> = {
  needs_information: { label: "Needs information", tone: "amber" },
  enabled: { label: "Enabled", tone: "green" },
  restricted: { label: "Restricted", tone: "red" },
};

export function PayoutMethodPanel({
  view,
  minimumCents,
  payableCents,
  busy,
  errors,
}: {
  view: PayoutAccountView;
  minimumCents: number;
  payableCents: number;
  busy: boolean;
  errors: Record<string, string>;
}) {
  const waiting = payableCents >= minimumCents && view.method === "stripe" && view.status !== "enabled";
  return (
    <Section id="payout-method-heading" title="Payout method" className="mt-10 print:hidden">
      <div className="mt-3 rounded-xl border border-slate-200 bg-white p-4 text-sm">
        {view.method === "manual" ? (
          <p className="text-slate-700">
            You are paid outside Stripe, by bank transfer as arranged with us{view.manualReason ? ` (${view.manualReason})` : ""}. Each payout shows its bank
            reference in the history below.
          </p>
        ) : !view.available ? (
          <p className="text-slate-700">Payouts through Stripe are not available yet. Your balance is kept for you and paid once they are.</p>
        ) : view.status === "none" ? (
          <Form method="post" className="space-y-3">
            <input type="hidden" name="intent" value="connect_payouts" />
            <p className="text-slate-700">
              We pay you through Stripe, into your own bank account. Setting up takes a few minutes on Stripe's secure pages: your name, date of birth and bank
              details. We never see your bank details.
            </p>
            <Select
              label="Country of your bank account"
              name="country"
              defaultValue={view.countries[0]?.code}
              className="max-w-xs"
              error={errors.country}
              options={view.countries.map((c) => ({ value: c.code, label: c.name }))}
            />
            <Button type="submit" variant="primary" disabled={busy}>
              Set up payouts
            </Button>
          </Form>
        ) : (
          <div className="space-y-3">
            <p className="flex flex-wrap items-center gap-2">
              <span className="font-medium text-slate-900">Stripe payout account</span>
              <Badge tone={STATUS[view.status].tone}>{STATUS[view.status].label}</Badge>
            </p>
            {view.statusReason ? <p className="text-slate-700">{view.statusReason}</p> : null}
            {view.status === "enabled" ? (
              <p className="text-slate-700">Your payouts go to your Stripe account, and Stripe sends them on to your bank.</p>
            ) : null}
            <div className="flex flex-wrap gap-2">
              {view.status === "enabled" ? (
                <Form method="post">
                  <input type="hidden" name="intent" value="payout_dashboard" />
                  <Button type="submit" disabled={busy}>
                    Open your Stripe dashboard
                  </Button>
                </Form>
              ) : null}
              {view.status !== "enabled" || view.statusReason ? (
                <Form method="post">
                  <input type="hidden" name="intent" value="connect_payouts" />
                  <Button type="submit" variant={view.status === "enabled" ? "secondary" : "primary"} disabled={busy}>
                    {view.status === "needs_information" ? "Continue set-up" : "Update your details with Stripe"}
                  </Button>
                </Form>
              ) : null}
            </div>
          </div>
        )}
        <p className="mt-3 text-slate-600">
          Payouts start at {formatCents(minimumCents)}: a smaller balance carries over to the next payout day.
          {waiting ? ` Your ${formatCents(payableCents)} is ready: it is paid once your payout account is enabled.` : ""}
        </p>
        {view.standIn ? <p className="mt-2 text-xs text-amber-800">Development: the local Stripe stand-in answers instead of Stripe.</p> : null}
      </div>
    </Section>
  );
}
