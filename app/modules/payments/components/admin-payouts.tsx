import { Form } from "react-router";
import { Badge } from "~/ui/badge";
import { Button, buttonClass } from "~/ui/button";
import { Field } from "~/ui/field";
import { LocalTime } from "~/ui/local-time";
import { Section } from "~/ui/section";
import { monthLabel } from "../calendar";
import { formatCents } from "../money";

type PayoutAdminRow = {
  id: string;
  userId: string;
  batch: string;
  amountCents: number;
  status: string;
  reference: string | null;
  paidAt: string | null;
  name: string | null;
  email: string | null;
};

export function PayoutsSection({ payouts, busy }: { payouts: PayoutAdminRow[]; busy: boolean }) {
  const batches = [...new Set(payouts.map((p) => p.batch))];
  return (
    <Section id="payouts-heading" title="Payouts" className="mt-10">
      {batches.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">No payouts yet. They are gathered on the payout day from finalized months.</p>
      ) : (
        batches.map((batch) => (
          <div key={batch} className="mt-4">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h3 className="font-semibold text-slate-900">Payout run {monthLabel(batch)}</h3>
              <a className={`${buttonClass.secondary} whitespace-nowrap`} href={`/admin/payments/batches/${batch}.csv`} download>
                Export CSV <span className="sr-only">of the {monthLabel(batch)} run</span>
              </a>
            </div>
            {payouts.some((p) => p.batch === batch && p.status === "pending") ? (
              <Form method="post" className="mt-2 flex flex-wrap items-end gap-2">
                <input type="hidden" name="intent" value="mark_batch_paid" />
                <input type="hidden" name="batch" value={batch} />
                <Field label={`Reference for the whole ${monthLabel(batch)} run`} name="reference" required maxLength={100} className="w-full sm:w-80" />
                <Button type="submit" variant="primary" disabled={busy}>
                  Mark all paid
                </Button>
              </Form>
            ) : null}
            <ul className="mt-2 divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white px-4 text-sm">
              {payouts
                .filter((p) => p.batch === batch)
                .map((p) => (
                  <li key={p.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
                    <span>
                      <span className="font-medium">{p.name ?? p.email ?? p.userId}</span> · {formatCents(p.amountCents)}
                    </span>
                    {p.status === "paid" ? (
                      <span>
                        <Badge tone="green">Paid</Badge> <span className="text-slate-600">Ref. {p.reference}</span>{" "}
                        <span className="text-slate-600">
                          · <LocalTime iso={p.paidAt} withTime />
                        </span>
                      </span>
                    ) : (
                      <Form method="post" className="flex w-full items-end gap-2 sm:w-auto">
                        <input type="hidden" name="intent" value="mark_paid" />
                        <input type="hidden" name="payoutId" value={p.id} />
                        <Field
                          label={`Reference for ${p.name ?? p.email ?? "payout"}`}
                          name="reference"
                          required
                          maxLength={100}
                          className="min-w-0 flex-1 sm:w-64 sm:flex-none"
                        />
                        <Button type="submit" variant="primary" disabled={busy} className="shrink-0 whitespace-nowrap">
                          Mark paid
                        </Button>
                      </Form>
                    )}
                  </li>
                ))}
            </ul>
          </div>
        ))
      )}
    </Section>
  );
}
