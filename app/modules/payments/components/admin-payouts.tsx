import { RowList } from "~/ui/row-list";
import { Form } from "react-router";
import { Button, buttonClass } from "~/ui/button";
import { Field } from "~/ui/field";
import { LocalTime } from "~/ui/local-time";
import { Section } from "~/ui/section";
import { TextArea } from "~/ui/textarea";
import { monthLabel } from "../calendar";
import { PAYOUT_MESSAGES } from "../messages";
import { formatCents } from "../money";
import { PersonField } from "./person-field";
import { PaymentStatusBadge } from "./payment-status";
import { RunProgress } from "./payout-run-progress";
import type { PayoutRunProgress } from "../types";

// Payouts on /admin/payments (docs/decisions/0122, 0124, 0224): the payout rail (Stripe live, test,
// the local stand-in, or off — then the payout day pays only people paid outside Stripe, and says
// so here), the runs with each payout's status; "mark paid" with a bank reference only for people
// paid outside Stripe; and who those people are.

type PayoutAdminRow = {
  id: string;
  userId: string;
  batch: string;
  amountCents: number;
  status: string;
  method: string;
  reference: string | null;
  paidAt: string | null;
  failureReason: string | null;
  /** Held for the platform's Stripe balance (docs/decisions/0307): shown to admins, never to the person. */
  heldReason: string | null;
  name: string | null;
  email: string | null;
};

type Rail = { mode: "live" | "test" | "stand-in" | "off"; pending: number; processing: number };

const RAIL_TEXT: Record<Rail["mode"], string> = {
  live: "Payouts go out through Stripe (live).",
  test: "Payouts go out through Stripe in test mode: no real money moves.",
  "stand-in": "Development: payouts go to the local Stripe stand-in.",
  off: PAYOUT_MESSAGES.adminNotConfigured,
};

export function PayoutRail({ rail, busy }: { rail: Rail; busy: boolean }) {
  return (
    <div
      role={rail.mode === "off" ? "alert" : undefined}
      className={`mt-3 rounded-xl border p-4 text-sm ${rail.mode === "off" ? "border-red-300 bg-red-50 text-red-900" : "border-slate-200 bg-white text-slate-700"}`}
    >
      <p>
        {RAIL_TEXT[rail.mode]}
        {rail.mode === "stand-in" ? (
          <>
            {" "}
            <a className="underline" href="/dev/stripe">
              Open the stand-in's dashboard
            </a>
            .
          </>
        ) : null}
      </p>
      {rail.mode !== "off" && rail.pending + rail.processing > 0 ? (
        <Form method="post" className="mt-2 flex flex-wrap items-center gap-2">
          <input type="hidden" name="intent" value="send_transfers" />
          <span>
            {rail.pending} waiting to be sent, {rail.processing} sent and waiting for Stripe's confirmation.
          </span>
          <Button type="submit" disabled={busy || rail.pending === 0}>
            Send waiting transfers now
          </Button>
        </Form>
      ) : null}
    </div>
  );
}

type PayoutLists = { toMarkPaid: PayoutAdminRow[]; toMarkPaidCount: number; failed: PayoutAdminRow[]; failedCount: number };

/** "25 of 1,204 shown": a list capped at the server's PAYOUT_ROWS_SHOWN, the rest in the runs' CSVs. */
function MoreInCsv({ shown, total }: { shown: number; total: number }) {
  return total > shown ? (
    <p className="mt-1 text-sm text-slate-600">
      {shown} of {total.toLocaleString("en-US")} shown; each run's CSV lists all of its payouts.
    </p>
  ) : null;
}

function PayoutRow({ p, busy }: { p: PayoutAdminRow; busy: boolean }) {
  return (
    <li className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
      <span>
        <span className="font-medium">{p.name ?? p.email ?? p.userId}</span> · {formatCents(p.amountCents)} ·{" "}
        <span className="text-slate-600">
          {p.method === "stripe" ? "Stripe" : "Outside Stripe"} · {monthLabel(p.batch)} run
        </span>
      </span>
      {p.status === "pending" && p.method === "manual" ? (
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
      ) : (
        <span className="flex flex-wrap items-center gap-2">
          <PaymentStatusBadge status={p.status} />
          {p.reference ? <span className="text-slate-600">Ref. {p.reference}</span> : null}
          {p.failureReason ? <span className="text-red-800">{p.failureReason}</span> : null}
          {p.status === "pending" && p.heldReason ? <span className="text-amber-800">{p.heldReason}</span> : null}
          {p.paidAt ? (
            <span className="text-slate-600">
              · <LocalTime iso={p.paidAt} withTime />
            </span>
          ) : null}
        </span>
      )}
    </li>
  );
}

// The newest three runs, each as its figures (the payouts' kept totals), its CSV, "Mark all paid" and
// "Retry"; then the payouts that need the admin: to mark paid by hand, refused by Stripe (decision
// 0333). Every payout of a run is in its CSV: a run of 100,000 payouts is not a page.
export function PayoutsSection({ payouts, rail, runs, busy }: { payouts: PayoutLists; rail: Rail; runs: PayoutRunProgress[]; busy: boolean }) {
  return (
    <Section id="payouts-heading" title="Payouts" className="mt-10">
      <PayoutRail rail={rail} busy={busy} />
      {runs.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">No payouts yet. They are gathered on the payout day from finalized months.</p>
      ) : (
        runs.map((r) => (
          <div key={r.batch} className="mt-4">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h3 className="font-semibold text-slate-900">Payout run {monthLabel(r.batch)}</h3>
              <a className={`${buttonClass.secondary} whitespace-nowrap`} href={`/admin/payments/batches/${r.batch}.csv`} download>
                Export CSV <span className="sr-only">of the {monthLabel(r.batch)} run</span>
              </a>
            </div>
            <RunProgress progress={r} stripeOn={rail.mode !== "off"} busy={busy} />
            {r.manual > 0 ? (
              <Form method="post" className="mt-2 flex flex-wrap items-end gap-2">
                <input type="hidden" name="intent" value="mark_batch_paid" />
                <input type="hidden" name="batch" value={r.batch} />
                <Field
                  label={`Bank reference for the ${monthLabel(r.batch)} run's payouts outside Stripe`}
                  name="reference"
                  required
                  maxLength={100}
                  className="w-full sm:w-96"
                />
                <Button type="submit" variant="primary" disabled={busy}>
                  Mark all paid
                </Button>
              </Form>
            ) : null}
          </div>
        ))
      )}
      {payouts.toMarkPaid.length > 0 ? (
        <>
          <h3 className="mt-6 font-semibold text-slate-900">Outside Stripe, to mark paid</h3>
          <ul className="mt-2 divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white px-4 text-sm">
            {payouts.toMarkPaid.map((p) => (
              <PayoutRow key={p.id} p={p} busy={busy} />
            ))}
          </ul>
          <MoreInCsv shown={payouts.toMarkPaid.length} total={payouts.toMarkPaidCount} />
        </>
      ) : null}
      {payouts.failed.length > 0 ? (
        <>
          <h3 className="mt-6 font-semibold text-slate-900">Refused by Stripe</h3>
          <ul className="mt-2 divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white px-4 text-sm">
            {payouts.failed.map((p) => (
              <PayoutRow key={p.id} p={p} busy={busy} />
            ))}
          </ul>
          <MoreInCsv shown={payouts.failed.length} total={payouts.failedCount} />
        </>
      ) : null}
    </Section>
  );
}

type ManualRow = { userId: string; name: string | null; email: string; reason: string | null };

/** The people paid outside Stripe, and the form that adds one. */
export function ManualPayeesSection({
  rows,
  busy,
  errors,
  values,
}: {
  rows: ManualRow[];
  busy: boolean;
  errors: Record<string, string>;
  values: Record<string, string>;
}) {
  const mine = values.intent === "pay_outside";
  return (
    <Section id="manual-payees-heading" title="Paid outside Stripe" className="mt-10">
      <p className="mt-1 text-sm text-slate-600">
        For people Stripe cannot pay (a country it does not serve, an agreed bank transfer). Their payouts are gathered on the payout day as everyone's, and you
        mark each paid with the bank's reference.
      </p>
      <Form method="post" className="mt-3 grid gap-3 rounded-xl border border-slate-200 bg-white p-4 sm:grid-cols-[1fr_2fr_auto] sm:items-end">
        <input type="hidden" name="intent" value="pay_outside" />
        <PersonField intent="pay_outside" values={values} errors={errors} />
        <TextArea
          label="Reason"
          name="reason"
          required
          maxLength={500}
          rows={1}
          defaultValue={mine ? values.reason : undefined}
          error={mine ? errors.reason : undefined}
        />
        <Button type="submit" disabled={busy}>
          Pay outside Stripe
        </Button>
      </Form>
      <RowList items={rows} empty="Everyone is paid through Stripe." spacing="mt-3" className="text-sm">
        {(r) => (
          <li key={r.userId} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
            <span>
              <span className="font-medium">{r.name ?? r.email}</span> <span className="text-slate-600">{r.email}</span>
              {r.reason ? <span className="block text-slate-700">{r.reason}</span> : null}
            </span>
            <Form method="post">
              <input type="hidden" name="intent" value="pay_through_stripe" />
              <input type="hidden" name="person" value={r.email} />
              <Button type="submit" disabled={busy}>
                Pay through Stripe <span className="sr-only">: {r.name ?? r.email}</span>
              </Button>
            </Form>
          </li>
        )}
      </RowList>
    </Section>
  );
}
