// The Payments module's public surface (issue 14, phase 1): routes and the Worker's scheduled
// handler import from here, never from the files behind it. See docs/how-a-request-flows.md.
//   imports.server.ts  the admin's revenue import (preview/stage, commit), funds received, finalize;
//                      its steps: import-parse.ts → import-match.server.ts → import-price.ts → import-stage.server.ts
//   payouts.server.ts  the payout day in one call (tests, dev tool), marking payouts paid, the batch CSV
//   payout-run.server.ts  a run's gathering, a chunk of people at a time (the Workflow's steps)
//   payout-day.server.ts  the cron's start of the payout-day Workflow, its Queue's consumer, progress, retry
//   ledger.server.ts   what /payments shows, and its CSV
//   share.server.ts    the creator's share at a month (the admin settings, accepted revised shares)
//   agreement.server.ts the Creator Agreement: the view, notice, answering an offer (agreement-admin.server.ts:
//                      revised-share offers, termination for cause, holds; agreement-common.server.ts: shared)
//   cleanup.server.ts  the daily job's discarding of abandoned staged imports
//   earnings.server.ts earnings by month (/analytics) and per roster member (agency dashboard)
//   credits.server.ts  ledger entries other domains write (campaigns, later clips, referrals)
//   adjustments.server.ts an admin's credits and debits with a reason (paid with the next payout)
//   payout-accounts.server.ts  where each person is paid: their Stripe Express account, or outside Stripe
//   transfers.server.ts  the Stripe transfers of a payout run; paid and failed payouts
//   stripe-webhooks.server.ts  POST /api/stripe/webhook: verified, stored once, applied
//   records.server.ts  a person's whole payments records (the privacy export)
//   clip-earnings.server.ts  per-clip earnings on /clipping (the ledger's clip entries)
//   glance.server.ts   the dashboard's money card (balances.server: the balance math it shares with /payments)
export * from "./imports.server";
export * from "./payouts.server";
export * from "./ledger.server";
export * from "./agreement.server";
export * from "./agreement-admin.server";
export * from "./cleanup.server";
export * from "./earnings.server";
export * from "./credits.server";
export * from "./adjustments.server";
export * from "./payout-accounts.server";
export { sendPendingTransfers, transfersWaiting } from "./transfers.server";
export { auditStripeRefusal, gatherChunk, madeByRun, payoutRunPlanFor, type GatherChunk, type PayoutRunPlan } from "./payout-run.server";
export * from "./payout-day.server";
export { receiveStripeWebhook } from "./stripe-webhooks.server";
export { paymentRecordsOf } from "./records.server";
export * from "./referral-bonus.server";
export { creatorShareBpAt } from "./share.server";
export * from "./privacy.server";
export { startClipEarnings } from "./clip-earnings.server";
export { startMoneyAtAGlance, type MoneyAtAGlance, type MoneyWaiting } from "./glance.server";
// A revenue report of any size, read by the RevenueImportWorkflow (issue 45 §1, docs/decisions/0334).
export * from "./import-report.server";
export { readReportRange, failReport } from "./import-report-read.server";
export { finishSteps } from "./import-report-stage.server";
