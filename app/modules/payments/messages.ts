import { monthLabel } from "./calendar";

// What the money screens say. Client-safe.

export const PAYMENT_MESSAGES = {
  finalized: (month: string) => `${monthLabel(month)} is finalized: its revenue can no longer be replaced. Corrections are made as adjustments.`,
  changedSincePreview: (month: string) =>
    `Another import of ${monthLabel(month)} went live while this one was waiting. Nothing was changed: preview the file again to replace it.`,
  importGone: "This import is no longer waiting to be committed: it went live or was discarded.",
  importNotFound: "Import not found.",
  fileRequired: "Choose a CSV file.",
  fileTooLarge: "The file is larger than 5 MB. Split it by month.",
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

/** Toast titles per admin intent (when the module names none). */
export const PAYMENT_TITLES = {
  preview: "Import failed",
  commit: "Import failed",
  discard: "Discard failed",
  funds_received: "Could not mark funds received",
  finalize: "Could not finalize",
  mark_paid: "Could not mark paid",
  mark_batch_paid: "Could not mark the run paid",
} as const;
