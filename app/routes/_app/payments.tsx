import { Form, Link, redirect, useNavigation } from "react-router";
import { PayoutMethodPanel } from "~/modules/payments/components/payout-method";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { actorOf } from "~/modules/accounts/accounts.server";
import { requireApprovedUser } from "~/modules/accounts/guards.server";
import { formatPayoutDay, isMonth, monthLabel, ordinalDay } from "~/modules/payments/calendar";
import { formatCents } from "~/modules/payments/money";
import { AgreementPanel } from "~/modules/payments/components/agreement-panel";
import { STATUS_LABEL } from "~/modules/payments/components/payment-status";
import { PayoutHistoryTable, StatementTable } from "~/modules/payments/components/statement-table";
import { STATEMENT_PRINT_CSS } from "~/modules/payments/components/statement-print";
import {
  agreementView,
  answerOffer,
  giveNotice,
  paymentsPage,
  payoutAccountView,
  payoutDashboardLink,
  startPayoutOnboarding,
  withdrawNotice,
} from "~/modules/payments/payments.server";
import { PAYOUT_MESSAGES, STATEMENT_ROUNDING_RULE } from "~/modules/payments/messages";
import { AGREEMENT_TITLES, paymentsPageSchema } from "~/modules/payments/schema";
import { formatBp } from "~/lib/split";
import { parseForm } from "~/platform/body.server";
import { domainAction, domainLoader } from "~/platform/http.server";
import { redirectWithToast } from "~/platform/toast.server";
import { Button, buttonClass } from "~/ui/button";
import { EmptyState } from "~/ui/empty-state";
import { PageHeader } from "~/ui/page-header";
import { Section } from "~/ui/section";
import { Select } from "~/ui/select";
import type { Route } from "./+types/payments";
import { FailureAlert, useActionFailure } from "~/ui/action-failure";
import { pendingCampaignEarnings } from "~/modules/campaigns/campaigns.server";
import { PendingEarnings } from "~/modules/campaigns/components/pending-earnings";

// /payments (issue 14, phase 1): the next payout, balances by status, the monthly statement
// (printable), payout history with references, and the CSV of every line. Amounts in USD cents,
// dates stored in UTC.

export const meta = () => [{ title: "Payments | Shortbeat" }];

export const loader = domainLoader(async (args: Route.LoaderArgs) => {
  const user = await requireApprovedUser(args);
  const actor = actorOf(user);
  const month = new URL(args.request.url).searchParams.get("month");
  // The campaigns module's part (earned, not settled) comes from the route: payments sits below campaigns (decision 0321).
  const [page, agreement, payoutAccount, pending] = await Promise.all([
    paymentsPage(actor, month && isMonth(month) ? month : null),
    agreementView(actor),
    payoutAccountView(actor),
    pendingCampaignEarnings(actor),
  ]);
  return { ...page, agreement, payoutAccount, pending };
});

// The creator's agreement steps (docs/decisions/0127-0130): each a guarded change, audit-logged and e-mailed.
export const action = domainAction(async (args: Route.ActionArgs) => {
  const user = await requireApprovedUser(args);
  const actor = actorOf(user);
  const input = await parseForm(args.request, paymentsPageSchema);
  switch (input.intent) {
    case "connect_payouts": {
      // Off to Stripe's hosted onboarding (a one-time link); it comes back to /payments/payout-account/return.
      const { url } = await startPayoutOnboarding(actor, args.request, { country: input.country });
      return redirect(url);
    }
    case "payout_dashboard": {
      const { url } = await payoutDashboardLink(actor, args.request);
      return redirect(url);
    }
    case "give_notice": {
      const done = await giveNotice(actor, args.request);
      return redirectWithToast(args.request, "/payments", {
        type: "success",
        title: "Notice given",
        description: `Your agreement ends on ${formatPayoutDay(done.endsOn)}. You can withdraw your notice before then.`,
      });
    }
    case "withdraw_notice":
      await withdrawNotice(actor, args.request);
      return redirectWithToast(args.request, "/payments", {
        type: "success",
        title: "Notice withdrawn",
        description: "Your agreement continues and renews as before.",
      });
    case "accept_offer": {
      const done = await answerOffer(actor, args.request, { offerId: input.offerId, accept: true });
      return redirectWithToast(args.request, "/payments", {
        type: "success",
        title: "Revised share accepted",
        description: `${formatBp(done.shareBp)} applies from ${monthLabel(done.effectiveMonth ?? "")}. A new 12-month term started today.`,
      });
    }
    case "decline_offer":
      await answerOffer(actor, args.request, { offerId: input.offerId, accept: false });
      return redirectWithToast(args.request, "/payments", { type: "success", title: "Offer declined", description: "Your current share stays." });
  }
}, AGREEMENT_TITLES);

export default function Payments({ loaderData, actionData }: Route.ComponentProps) {
  const {
    nextPayoutDate,
    payoutDay,
    expectedCents,
    shareBp,
    balances,
    months,
    month,
    lines,
    payouts,
    agreement,
    payoutAccount,
    minimumCents,
    payableCents,
    pending,
  } = loaderData;
  const failure = useActionFailure(actionData);
  const busy = useNavigation().state !== "idle";
  return (
    <>
      {/* The printable statement: the page's content alone, tables unclipped (print only). */}
      <style>{STATEMENT_PRINT_CSS}</style>
      <PageHeader
        title="Payments"
        description={`Your earnings and payouts. Your share is ${formatBp(shareBp)} of net revenue; payouts are made on or around the ${ordinalDay(payoutDay)} of each month, once we have received the funds from the platform.`}
        actions={
          <a className={`${buttonClass.secondary} whitespace-nowrap print:hidden`} href="/payments/statement.csv" download>
            Export CSV
          </a>
        }
      />

      <section aria-label="Summary" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <Stat
          label="Next payout"
          value={formatPayoutDay(nextPayoutDate)}
          hint={
            payableCents > 0 && expectedCents === 0
              ? `${formatCents(payableCents)} carries over: payouts start at ${formatCents(minimumCents)}`
              : `Expected ${formatCents(expectedCents)}`
          }
        />
        <Stat label="Estimated" value={formatCents(balances.estimated)} hint="Imported, funds not yet final" />
        <Stat
          label="Finalized"
          value={formatCents(balances.finalized)}
          hint={payableCents < 0 ? "A debit larger than your balance: it comes off your next earnings" : "Funds received, to be paid"}
        />
        <Stat label="Paid" value={formatCents(balances.paid)} hint="Sent to you" />
      </section>
      <p className="mt-2 text-sm text-slate-600" data-testid="payout-minimum">
        {PAYOUT_MESSAGES.minimumNote(formatCents(minimumCents))} They are paid on the first payout day they reach it.
      </p>

      <FailureAlert failure={failure} className="mt-4 print:hidden" />

      <PendingEarnings items={pending} />

      <Section id="statement-heading" title={month ? `Statement: ${monthLabel(month)}` : "Statement"} className="mt-10">
        {months.length === 0 ? (
          <div className="mt-3">
            <EmptyState title="No earnings yet">
              <p>Your monthly statement appears here once a month's revenue has been imported.</p>
            </EmptyState>
          </div>
        ) : (
          <>
            <Form method="get" className="mt-3 flex flex-wrap items-end gap-2 print:hidden">
              <Select
                label="Month"
                name="month"
                defaultValue={month ?? ""}
                className="w-full sm:w-auto"
                options={months.map((m) => ({ value: m.month, label: `${m.label} · ${formatCents(m.amountCents)} · ${STATUS_LABEL[m.status]}` }))}
              />
              <Button type="submit">Show</Button>
              <Button onClick={() => window.print()}>Print</Button>
            </Form>
            <StatementTable lines={lines} />
            <p className="mt-3 text-sm text-slate-600">{STATEMENT_ROUNDING_RULE}</p>
          </>
        )}
      </Section>

      <Section id="payouts-heading" title="Payout history" className="mt-10">
        {payouts.length === 0 ? <p className="mt-2 text-sm text-slate-600">No payouts yet.</p> : <PayoutHistoryTable payouts={payouts} />}
      </Section>
      <PayoutMethodPanel view={payoutAccount} minimumCents={minimumCents} payableCents={payableCents} busy={busy} errors={failure?.errors ?? {}} />
      <AgreementPanel agreement={agreement} busy={busy} errors={failure?.errors ?? {}} />

      <p className="mt-8 text-sm text-slate-600 print:hidden">
        Questions about a statement? See the{" "}
        <Link to="/terms-of-service" className="underline">
          Creator Agreement
        </Link>
        .
      </p>
    </>
  );
}

function Stat({ label, value, hint }: { label: string; value: string; hint: string }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-4">
      <p className="text-sm text-slate-600">{label}</p>
      <p className="mt-1 text-xl font-semibold text-slate-900 tabular-nums">{value}</p>
      <p className="mt-1 text-xs text-slate-500">{hint}</p>
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
