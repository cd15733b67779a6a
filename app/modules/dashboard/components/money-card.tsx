import { Wallet } from "~/ui/icons";
import { formatPayoutDay } from "~/modules/payments/calendar";
import { formatCents } from "~/modules/payments/money";
import { STATUS_LABEL } from "~/modules/payments/components/payment-status";
import type { MoneyAtAGlance } from "~/modules/payments/payments.server";

// The dashboard's money card (issue 42 §1, docs/decisions/0328): below the spec's cards, an approved
// creator's balance, next payout, the latest month's estimate and what waits on them, each as
// /payments words and formats it (amounts with formatCents, payout days with formatPayoutDay: a
// calendar day, the same in every time zone). The numbers come from the payments module. Its links
// are plain anchors (a <Link to>'s markup) inside the dashboard's marked element, followed client-side
// by the shell's one listener (app/ui/in-app-links.ts, 0346).

export function MoneyCard({ money }: { money: MoneyAtAGlance }) {
  const { latestMonth, waiting } = money;
  const carriesOver = money.payableCents > 0 && money.expectedCents === 0;
  return (
    <section aria-labelledby="money-heading" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="money-heading" className="flex items-center gap-2 text-lg font-semibold text-slate-900">
          <Wallet className="h-5 w-5 text-slate-400" aria-hidden="true" />
          Your money
        </h2>
        <a className="text-sm font-semibold text-brand-700 underline underline-offset-2" href="/payments" data-discover="true">
          Open Payments
        </a>
      </div>

      <dl className="mt-4 grid gap-4 sm:grid-cols-3">
        <div className="min-w-0">
          <dt className="text-sm text-slate-600">Balance</dt>
          <dd className="mt-1 text-2xl font-bold text-slate-900 tabular-nums" data-testid="money-balance">
            {formatCents(money.balanceCents)}
          </dd>
          <dd className="mt-1 text-xs text-slate-500">
            {formatCents(money.finalizedCents)} finalized, {formatCents(money.estimatedCents)} estimated
          </dd>
        </div>
        <div className="min-w-0">
          <dt className="text-sm text-slate-600">Next payout</dt>
          <dd className="mt-1 text-2xl font-bold text-slate-900 tabular-nums" data-testid="money-next-payout">
            {formatCents(money.expectedCents)}
          </dd>
          <dd className="mt-1 text-xs text-slate-500">
            {carriesOver
              ? `On ${formatPayoutDay(money.nextPayoutDate)}: ${formatCents(money.payableCents)} carries over, payouts start at ${formatCents(money.minimumCents)}`
              : `On ${formatPayoutDay(money.nextPayoutDate)}`}
          </dd>
        </div>
        <div className="min-w-0">
          <dt className="text-sm text-slate-600">This month's estimate</dt>
          <dd className="mt-1 text-2xl font-bold text-slate-900 tabular-nums" data-testid="money-month-estimate">
            {formatCents(latestMonth?.amountCents ?? 0)}
          </dd>
          <dd className="mt-1 text-xs text-slate-500">
            {latestMonth
              ? `${latestMonth.label} revenue, ${(STATUS_LABEL[latestMonth.status] ?? latestMonth.status).toLowerCase()}`
              : "Nothing imported yet: a month's revenue arrives after the month ends"}
          </dd>
        </div>
      </dl>

      <div className="mt-5 border-t border-slate-100 pt-4">
        <h3 id="money-waiting-heading" className="text-sm font-semibold text-slate-900">
          Waiting on you
        </h3>
        {waiting.length === 0 ? (
          <p className="mt-1 text-sm text-slate-600">Nothing: your payouts need nothing from you.</p>
        ) : (
          <ul aria-labelledby="money-waiting-heading" className="mt-2 space-y-2">
            {waiting.map((w) => (
              <li key={w.kind} className="rounded-lg bg-amber-50 p-3 text-sm ring-1 ring-amber-200">
                <a className="font-semibold text-amber-900 underline underline-offset-2" href={w.href} data-discover="true">
                  {w.title}
                </a>
                {w.text ? <p className="mt-1 text-amber-900">{w.text}</p> : null}
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
