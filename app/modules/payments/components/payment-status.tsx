import { Badge, type Tone } from "~/ui/badge";
import type { LedgerStatus } from "../types";

// How a ledger line's or a payout's status reads and looks, on every page that shows one
// (/analytics, /payments, /clipping, /admin/payments).

const LEDGER_STATUS_TONE: Record<LedgerStatus, Tone> = { estimated: "amber", finalized: "blue", paid: "green" };
const LEDGER_STATUS_LABEL: Record<LedgerStatus, string> = { estimated: "Estimated", finalized: "Finalized", paid: "Paid" };

/** A ledger status, or a payout's ("pending", "processing", "failed"; "paid" reads the same). */
const STATUS_TONE: Record<string, Tone> = { ...LEDGER_STATUS_TONE, pending: "amber", processing: "blue", failed: "red" };
export const STATUS_LABEL: Record<string, string> = { ...LEDGER_STATUS_LABEL, pending: "Pending", processing: "Sending", failed: "Failed" };

export function PaymentStatusBadge({ status }: { status: string }) {
  return <Badge tone={STATUS_TONE[status]}>{STATUS_LABEL[status]}</Badge>;
}
