import { countOf } from "~/lib/format";
import { monthLabel } from "./calendar";

// What the money screens say. Client-safe.

export const PAYMENT_MESSAGES = {
  finalized: (month: string) => `${monthLabel(month)} is finalized: its revenue can no longer be replaced. Corrections are made as adjustments.`,
  changedSincePreview: (month: string) =>
    `Another import of ${monthLabel(month)} went live while this one was waiting. Nothing was changed: preview the file again to replace it.`,
  importGone: "This import is no longer waiting to be committed: it went live or was discarded.",
  importNotFound: "Import not found.",
  fileRequired: "Choose a CSV file.",
  monthNotOver: (month: string, last: string) =>
    `${monthLabel(month)} is not over yet: a month's revenue can be imported once it has ended. The last full month is ${monthLabel(last)}.`,
  uploadGone: "The file is no longer waiting for its column mapping. Choose it again.",
  mappingColumnUnknown: "Choose one of the file's columns.",
  mappingPeriodRequired: "Choose the column with the month or the date.",
  mappingAmountRequired: "Choose the column with the revenue amount.",
  mappingPersonRequired: "Choose the channel or creator ID column, or enter the ID every row belongs to.",
  mappingColumnTwice: "A column can be used for one thing only.",
  personUnknown: (id: string) => `No channel or creator has the ID ${id}.`,
  adjustmentAlready: "This adjustment was already added.",
  adjustmentFutureMonth: "An adjustment is for this month or an earlier one.",
  fileTooLarge: "The file is larger than 10 MB. Split it by month.",
  notCsv: "The file must be a CSV file.",
  nothingImported: (month: string) => `No revenue has been imported for ${monthLabel(month)} yet.`,
  fundsAlready: (month: string) => `The funds for ${monthLabel(month)} are already marked as received.`,
  fundsFirst: (month: string) => `Mark the funds for ${monthLabel(month)} as received before finalizing it.`,
  finalizedAlready: (month: string) => `${monthLabel(month)} is already finalized.`,
  payoutNotFound: "Payout not found.",
  paidAlready: "This payout is already marked paid.",
  batchNotFound: "Payout run not found.",
  batchPaidAlready: (batch: string) => `Every payout of the ${monthLabel(batch)} run is already marked paid.`,
  unknownChannel: (id: string) => `Unknown channel id ${id}.`,
  unknownCreator: (id: string) => `Unknown creator id ${id}.`,
  mismatch: (channel: string, creator: string) => `Channel ${channel} does not belong to creator ${creator}.`,
} as const;

/** The month's money steps on /admin/payments ask once, saying what, to whom and how much (decision 0322). */
export type MonthConfirm = "funds_received" | "finalize";
type MonthFacts = { month: string; net: string; amount: string; lines: number; minimum: string };
export const PAYMENT_CONFIRM: Record<MonthConfirm, { title: (month: string) => string; text: (f: MonthFacts) => string; label: string }> = {
  funds_received: {
    title: (month) => `Mark funds received for ${monthLabel(month)}?`,
    text: (f) =>
      `This records that the platform has paid us ${f.net} of net revenue for ${monthLabel(f.month)}. No money moves yet: it lets you finalize the month, which makes ${f.amount} payable across ${countOf(f.lines, "statement line")}.`,
    label: "Mark funds received",
  },
  finalize: {
    title: (month) => `Finalize ${monthLabel(month)}?`,
    text: (f) =>
      `${f.amount} becomes payable to the people of ${countOf(f.lines, "statement line")}: their lines turn Finalized and are paid on the next payout day (balances under ${f.minimum} carry over). ${monthLabel(f.month)}'s revenue can then no longer be replaced: corrections are made as adjustments.`,
    label: "Finalize",
  },
};

/** Toast titles per admin intent (when the module names none). */
export const PAYMENT_TITLES = {
  preview: "Import failed",
  map: "Import failed",
  remap: "Import failed",
  commit: "Import failed",
  discard: "Discard failed",
  funds_received: "Could not mark funds received",
  finalize: "Could not finalize",
  mark_paid: "Could not mark paid",
  mark_batch_paid: "Could not mark the run paid",
  offer_share: "Could not make the offer",
  withdraw_offer: "Could not withdraw the offer",
  terminate: "Could not terminate",
  hold: "Could not hold payouts",
  release_hold: "Could not release the hold",
  adjust: "Could not add the adjustment",
  pay_outside: "Could not change how they are paid",
  pay_through_stripe: "Could not change how they are paid",
  send_transfers: "Could not send the transfers",
  retry_payouts: "Could not retry the run",
} as const;

/** Toast titles per intent of the creator's /payments. */
export const AGREEMENT_TITLES = {
  connect_payouts: "Could not start the payout set-up",
  payout_dashboard: "Could not open your Stripe dashboard",
  give_notice: "Could not give notice",
  withdraw_notice: "Could not withdraw notice",
  accept_offer: "Could not accept the offer",
  decline_offer: "Could not decline the offer",
} as const;

/** What the agreement steps say (the creator's /payments and the admin's Agreements). */
export const AGREEMENT_MESSAGES = {
  noticeAlready: "You have already given notice. It is shown under Agreement.",
  terminatedAlready: "Your Creator Agreement has ended.",
  noNotice: "There is no notice to withdraw.",
  noticeTookEffect: "Your notice has already taken effect: the agreement has ended.",
  withdrawNoticeFirst: "Withdraw your notice before accepting a revised share: accepting starts a new 12-month term.",
  offerNotFound: "Offer not found.",
  offerAnswered: "This offer has already been answered or withdrawn.",
  personNotFound: "No account has that e-mail or creator ID.",
  offerOpen: (name: string) => `${name} already has an open offer. Withdraw it before making another.`,
  offerNotActive: (name: string) => `${name}'s agreement is under notice or has ended: no revised share can be offered.`,
  endedAlready: (name: string) => `${name}'s agreement has already ended.`,
  heldAlready: (name: string) => `Payouts to ${name} are already on hold.`,
  notHeld: (name: string) => `Payouts to ${name} are not on hold.`,
} as const;

/** The rounding rule, as the creator's statement states it (docs/decisions/0220). */
export const STATEMENT_ROUNDING_RULE =
  "How amounts are rounded: the platform's revenue is added up at full precision for each channel, video and month, and rounded once to the cent — the month's total half up, then shared among the lines by largest remainder, so each line is its exact amount rounded down or up by less than a cent and the lines add up to the month exactly. Your share of a line is then rounded down to the cent.";

/** What the payout rail says (issue 29; the creator's /payments and the admin's /admin/payments). */
export const PAYOUT_MESSAGES = {
  notConfigured: "Payouts through Stripe are not set up on this deployment yet. Nothing was changed.",
  adminNotConfigured:
    "Payouts through Stripe are off: STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are not set. The payout day pays only the people paid outside Stripe until they are; everyone else's balance waits.",
  paidOutside: "You are paid outside Stripe, as arranged with us: there is no payout account to set up.",
  notEnabled: "Your payout account is not enabled yet.",
  accountBeingCreated: "Your payout account is being set up by another request. Try again in a moment.",
  accountNotCreated: "Setting up your payout account did not finish. Nothing was changed: try again.",
  chooseCountry: "Choose the country of your bank account.",
  stripeRefused: "Stripe refused:",
  stripeUnreachable: "Stripe did not answer. Nothing was changed: try again in a few minutes.",
  reasonNotFinished: "Finish setting up your payout account with Stripe.",
  reasonVerifying: "Stripe is verifying your details. This usually takes a few minutes, sometimes a day or two.",
  reasonRejected: "Stripe could not accept this account. Contact us.",
  reasonMoreInfo: "Stripe needs more information before it can pay you.",
  reasonRestricted: "Stripe has restricted payouts to this account.",
  reasonDueSoon: "Stripe will need more information soon: update your details to keep payouts on.",
  alreadyManual: (name: string) => `${name} is already paid outside Stripe.`,
  alreadyStripe: (name: string) => `${name} is already paid through Stripe.`,
  manualOnly: "Only a payout made outside Stripe is marked paid by hand: Stripe's own confirmation marks the others.",
  transferRefused: "Stripe refused the transfer",
  transferReversed: "The transfer was reversed in Stripe",
  heldBalance: "Held: the platform's Stripe balance is too low for this transfer; it is sent again on the next daily run once the balance is topped up.",
  heldAdminAlert: (n: number) =>
    `Stripe refused ${n === 1 ? "a payout's transfer" : `${n} payouts' transfers`} for insufficient funds in the platform's Stripe balance. The payouts are held (still pending) and go out on the next daily run after the balance is topped up. Creators have not been told of a failure.`,
  nothingToSend: "No payout is waiting to be sent through Stripe.",
  nothingToRetry:
    "Nothing of this run is waiting or unconfirmed: there is nothing to retry. Refused payouts are back in their balances and go with the next run.",
  retryUnderWay: "A retry of this run has just started. Its progress shows here; try again in 10 minutes if some payouts still wait.",
  /** The payout minimum (an admin setting), said wherever a balance is shown or promised (issue 42 §1). */
  minimumNote: (minimum: string) => `Balances under ${minimum} carry over to the next payout day.`,
} as const;
