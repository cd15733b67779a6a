import { useNavigation } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { isActionFailure } from "~/lib/errors";
import { actorOf } from "~/modules/accounts/accounts.server";
import { requireAdmin } from "~/modules/accounts/guards.server";
import { isMonth, lastFullMonth, monthLabel, monthOf } from "~/modules/payments/calendar";
import { getSettings } from "~/platform/settings.server";
import { formatCents } from "~/modules/payments/money";
import {
  addAdjustment,
  startAgreementsOverview,
  startManualPayees,
  startPayoutRail,
  startPayoutRunsProgress,
  startRecentAdjustments,
  retryPayoutRun,
  sendTransfersNow,
  setPayoutMethod,
  commitImport,
  offerShare,
  setHold,
  terminateForCause,
  withdrawOffer,
  discardImport,
  finalizeMonth,
  markFundsReceived,
  markBatchPaid,
  markPayoutPaid,
  startPayoutBatches,
  paymentsBodyLimit,
  previewImport,
  startRevenueOverview,
  startLatestReport,
} from "~/modules/payments/payments.server";
import { PAYMENT_TITLES, paymentsAdminSchema } from "~/modules/payments/schema";
import { countOf } from "~/lib/format";
import type { MonthConfirm } from "~/modules/payments/messages";
import { formatBp } from "~/lib/split";
import { AdjustmentsSection } from "~/modules/payments/components/admin-adjustments";
import { AgreementsSection } from "~/modules/payments/components/admin-agreements";
import { MonthsSection } from "~/modules/payments/components/admin-months";
import { ManualPayeesSection, PayoutsSection } from "~/modules/payments/components/admin-payouts";
import { RevenueImportSection } from "~/modules/payments/components/revenue-import";
import { RevenueReportSection } from "~/modules/payments/components/revenue-report";
import { parseFields, readForm } from "~/platform/body.server";
import { domainAction, domainLoader } from "~/platform/http.server";
import { redirectWithToast } from "~/platform/toast.server";
import { PageHeader } from "~/ui/page-header";
import type { Route } from "./+types/payments";
import { FailureAlert, useActionFailure } from "~/ui/action-failure";

// The admin console's money (issue 14, phase 1): import a month's platform revenue (preview, then
// commit all or nothing), mark its funds received, finalize it; the payout batches with 'mark paid'
// and the CSV for the bank. docs/decisions/0121, 0122.

export const meta = () => [{ title: "Payments | Shortbeat" }];

export const loader = domainLoader(async (args: Route.LoaderArgs) => {
  // Every statement of the page rides in the session lookup's batch: one D1 round trip (decision
  // 0352). Started before the guard; each part authorizes the guard's actor before its rows are used.
  const parts = [
    startRevenueOverview(args),
    startPayoutBatches(args),
    startAgreementsOverview(args),
    startRecentAdjustments(args),
    startPayoutRail(args),
    startManualPayees(args),
    startPayoutRunsProgress(args),
    startLatestReport(args),
  ] as const;
  const admin = await requireAdmin(args);
  const actor = actorOf(admin);
  const [overview, payouts, agreements, adjustments, rail, manual, runs, report] = await Promise.all([
    parts[0](actor),
    parts[1](actor),
    parts[2](actor),
    parts[3](actor),
    parts[4](actor),
    parts[5](actor),
    parts[6](actor),
    parts[7](actor),
  ]);
  const now = new Date();
  // A money step asked about (?confirm=funds_received|finalize&month=YYYY-MM): its dialog (decision 0322).
  const url = new URL(args.request.url);
  const intent = url.searchParams.get("confirm");
  const month = url.searchParams.get("month") ?? "";
  const confirm = (intent === "funds_received" || intent === "finalize") && isMonth(month) ? { intent: intent as MonthConfirm, month } : null;
  return {
    ...overview,
    confirm,
    minimumCents: (await getSettings()).payoutMinimumUsd * 100,
    payouts,
    agreements,
    adjustments,
    rail,
    manual,
    runs,
    report,
    adjustmentToken: crypto.randomUUID(),
    defaultMonth: lastFullMonth(now),
    thisMonth: monthOf(now),
  };
});

const BACK = "/admin/payments";
const AGREEMENTS = "/admin/payments#agreements-heading";
const ADJUSTMENTS = "/admin/payments#adjustments-heading";
const MANUAL = "/admin/payments#manual-payees-heading";
const PAYOUTS = "/admin/payments#payouts-heading";

export const action = domainAction(async (args: Route.ActionArgs) => {
  const admin = await requireAdmin(args);
  const actor = actorOf(admin);
  const input = parseFields(await readForm(args.request, paymentsBodyLimit()), paymentsAdminSchema);
  switch (input.intent) {
    case "preview":
    case "remap":
      return { ok: true as const, ...(await previewImport(actor, args.request, input)) };
    case "map": {
      const { period, channel, creator, video, amount, currency, person, month, uploadId } = input;
      return {
        ok: true as const,
        ...(await previewImport(actor, args.request, {
          intent: "map",
          month,
          uploadId,
          person,
          mapping: { period, channel, creator, video, amount, currency },
        })),
      };
    }
    case "commit": {
      const done = await commitImport(actor, args.request, input);
      return redirectWithToast(args.request, BACK, {
        type: "success",
        title: "Revenue imported",
        description: `${monthLabel(done.month)}: ${countOf(done.entryCount, "statement line")} ${done.entryCount === 1 ? "is" : "are"} live as estimated.`,
      });
    }
    case "discard":
      await discardImport(actor, args.request, input.importId);
      return redirectWithToast(args.request, BACK, { type: "success", title: "Import discarded", description: "Nothing was changed." });
    case "funds_received":
      await markFundsReceived(actor, args.request, input.month);
      return redirectWithToast(args.request, BACK, {
        type: "success",
        title: "Funds received",
        description: `${monthLabel(input.month)} can now be finalized.`,
      });
    case "finalize": {
      const done = await finalizeMonth(actor, args.request, input.month);
      return redirectWithToast(args.request, BACK, {
        type: "success",
        title: "Month finalized",
        description: `${monthLabel(input.month)}: ${countOf(done.entries, "line")} finalized. They are paid on the next payout day.`,
      });
    }
    case "mark_paid": {
      const done = await markPayoutPaid(actor, args.request, input);
      return redirectWithToast(args.request, BACK, {
        type: "success",
        title: "Payout marked paid",
        description: `${formatCents(done.amountCents)} recorded as paid. The creator has been notified.`,
      });
    }
    case "mark_batch_paid": {
      const done = await markBatchPaid(actor, args.request, input);
      return redirectWithToast(args.request, BACK, {
        type: "success",
        title: "Payout run marked paid",
        description: `${monthLabel(input.batch)}: ${countOf(done.paid, "payout")}, ${formatCents(done.amountCents)}, recorded as paid${done.alreadyPaid ? ` (${done.alreadyPaid} ${done.alreadyPaid === 1 ? "was" : "were"} already paid)` : ""}. The creators have been notified.`,
      });
    }
    case "offer_share": {
      const done = await offerShare(actor, args.request, { person: input.person, shareBp: input.sharePercent, note: input.note });
      return redirectWithToast(args.request, AGREEMENTS, {
        type: "success",
        title: "Revised share offered",
        description: `${done.name} is offered ${formatBp(input.sharePercent)}. It applies once they accept it on their Payments page.`,
      });
    }
    case "withdraw_offer":
      await withdrawOffer(actor, args.request, input.offerId);
      return redirectWithToast(args.request, AGREEMENTS, { type: "success", title: "Offer withdrawn", description: "The current share stays." });
    case "terminate": {
      const done = await terminateForCause(actor, args.request, input);
      return redirectWithToast(args.request, AGREEMENTS, {
        type: "success",
        title: "Agreement terminated",
        description: `${done.name}: terminated for cause with immediate effect. Nothing is earned after today.`,
      });
    }
    case "hold": {
      const done = await setHold(actor, args.request, { person: input.person, reason: input.reason });
      return redirectWithToast(args.request, AGREEMENTS, {
        type: "success",
        title: "Payouts on hold",
        description: `${done.name}: the payout day leaves their balance alone.`,
      });
    }
    case "adjust": {
      const done = await addAdjustment(actor, args.request, { ...input, amountCents: input.amount });
      const carried =
        done.balanceCents < 0
          ? ` Their payable balance is now ${formatCents(done.balanceCents)}: it carries over and is taken from their next earnings.`
          : " It is paid with their next payout.";
      return redirectWithToast(args.request, ADJUSTMENTS, {
        type: "success",
        title: "Adjustment added",
        description: `${done.amountCents < 0 ? "−" : "+"}${formatCents(Math.abs(done.amountCents))} for ${done.name} (${monthLabel(input.month)}).${carried}`,
      });
    }
    case "pay_outside": {
      const done = await setPayoutMethod(actor, args.request, { person: input.person, method: "manual", reason: input.reason });
      return redirectWithToast(args.request, MANUAL, {
        type: "success",
        title: "Paid outside Stripe",
        description: `${done.name}'s payouts are now marked paid by hand with the bank's reference.`,
      });
    }
    case "pay_through_stripe": {
      const done = await setPayoutMethod(actor, args.request, { person: input.person, method: "stripe", reason: "" });
      return redirectWithToast(args.request, MANUAL, {
        type: "success",
        title: "Paid through Stripe",
        description: `${done.name} is paid through Stripe once their payout account is enabled.`,
      });
    }
    case "send_transfers": {
      const done = await sendTransfersNow(actor, args.request);
      return redirectWithToast(args.request, PAYOUTS, {
        type: "success",
        title: "Transfers queued",
        description: `${countOf(done.queued, "payout")} queued: they go out at the payout queue's pace, within Stripe's rate limit. Stripe confirms each by webhook.`,
      });
    }
    case "retry_payouts": {
      const done = await retryPayoutRun(actor, args.request, input.batch);
      return redirectWithToast(args.request, PAYOUTS, {
        type: "success",
        title: "Run retried",
        description: `${monthLabel(input.batch)}: ${countOf(done.waiting, "payout")} waiting and ${done.sent} unconfirmed go out again through the queue. Refused payouts stay in their balances for the next run.`,
      });
    }
    case "release_hold": {
      const done = await setHold(actor, args.request, { person: input.person, reason: null });
      return redirectWithToast(args.request, AGREEMENTS, {
        type: "success",
        title: "Hold released",
        description: `${done.name} is paid on the next payout day.`,
      });
    }
  }
}, PAYMENT_TITLES);

export default function AdminPayments({ loaderData, actionData }: Route.ComponentProps) {
  const { months, imports, payouts, agreements, adjustments, adjustmentToken, defaultMonth, thisMonth, rail, manual, runs } = loaderData;
  const failure = useActionFailure(actionData);
  const ok = actionData && !isActionFailure(actionData) ? actionData : null;
  const preview = ok && "preview" in ok ? (ok.preview ?? null) : null;
  const mappingStep = ok && "mappingStep" in ok ? (ok.mappingStep ?? null) : null;
  const busy = useNavigation().state !== "idle";

  return (
    <>
      <PageHeader title="Payments" description="Import a month's platform revenue, confirm the funds, finalize, and pay out." />
      <FailureAlert failure={failure} />
      <RevenueImportSection preview={preview} mappingStep={mappingStep} failure={failure} busy={busy} defaultMonth={defaultMonth} />
      <RevenueReportSection report={loaderData.report} defaultMonth={defaultMonth} busy={busy} />
      <MonthsSection months={months} imports={imports} busy={busy} confirm={loaderData.confirm} minimumCents={loaderData.minimumCents} />
      <PayoutsSection payouts={payouts} rail={rail} runs={runs} busy={busy} />
      <ManualPayeesSection rows={manual} busy={busy} errors={failure?.errors ?? {}} values={failure?.values ?? {}} />
      <AdjustmentsSection
        rows={adjustments}
        token={adjustmentToken}
        month={thisMonth}
        busy={busy}
        errors={failure?.errors ?? {}}
        values={failure?.values ?? {}}
      />
      <AgreementsSection rows={agreements} busy={busy} errors={failure?.errors ?? {}} values={failure?.values ?? {}} />
    </>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
