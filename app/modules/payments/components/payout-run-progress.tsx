import { Form } from "react-router";
import { Button } from "~/ui/button";
import { monthLabel } from "../calendar";
import { formatCents } from "../money";
import type { PayoutRunProgress } from "../types";

// A payout run's progress on /admin/payments (issue 45, docs/decisions/0331): counted from its payouts
// on every load, and "Retry" for the payouts of the run that are still waiting or unconfirmed.

export function RunProgress({ progress, stripeOn, busy }: { progress: PayoutRunProgress; stripeOn: boolean; busy: boolean }) {
  const { batch, gathered, totalCents, waiting, held, sent, paid, failed, manual } = progress;
  const figures: [string, number][] = [
    ["Gathered", gathered],
    ["Waiting to be sent", waiting],
    ["Sent, awaiting Stripe", sent],
    ["Paid", paid],
    ["Failed", failed],
    ["Outside Stripe, to mark paid", manual],
  ];
  return (
    <div className="mt-2 rounded-xl border border-slate-200 bg-white p-4 text-sm text-slate-700">
      <p className="font-medium text-slate-900">
        Progress of the {monthLabel(batch)} run · {formatCents(totalCents)}
      </p>
      <dl className="mt-2 grid grid-cols-2 gap-x-6 gap-y-1 sm:grid-cols-3">
        {figures.map(([label, n]) => (
          <div key={label} className="flex justify-between gap-2">
            <dt>{label}</dt>
            <dd className="font-medium tabular-nums">{n}</dd>
          </div>
        ))}
      </dl>
      {held > 0 ? (
        <p className="mt-2 text-amber-800">{`${held} of the waiting ${held === 1 ? "is" : "are"} held: the platform's Stripe balance is too low. They are sent again on the next daily run once it is topped up.`}</p>
      ) : null}
      {failed > 0 ? (
        <p className="mt-2 text-slate-600">Failed payouts were refused by Stripe: the amount is back in each balance and goes with the next run.</p>
      ) : null}
      {stripeOn && waiting + sent > 0 ? (
        <Form method="post" className="mt-3">
          <input type="hidden" name="intent" value="retry_payouts" />
          <input type="hidden" name="batch" value={batch} />
          <Button type="submit" disabled={busy}>
            Retry waiting and unconfirmed payouts <span className="sr-only">of the {monthLabel(batch)} run</span>
          </Button>
        </Form>
      ) : null}
    </div>
  );
}
