import { Link } from "react-router";
import { Badge, type Tone } from "~/ui/badge";
import { Section } from "~/ui/section";
import { DataTable, Td } from "~/ui/table";
import { formatCents } from "../money";
import type { LedgerStatus } from "../types";

// /analytics: the person's earnings by month from the ledger (payments module, issue 14).

/** A ledger status's badge (also /payments, which adds a payout's "pending"). */
export const LEDGER_STATUS_TONE: Record<LedgerStatus, Tone> = { estimated: "amber", finalized: "blue", paid: "green" };
export const LEDGER_STATUS_LABEL: Record<LedgerStatus, string> = { estimated: "Estimated", finalized: "Finalized", paid: "Paid" };

export function EarningsByMonth({ earnings }: { earnings: { month: string; label: string; amountCents: number; status: LedgerStatus }[] }) {
  return (
    <Section id="earnings-heading" title="Earnings by month">
      {earnings.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">No earnings in the last 12 months yet. They appear once a month's revenue has been imported.</p>
      ) : (
        <DataTable
          labelledBy="earnings-heading"
          className="mt-3"
          columns={["Month", { label: "Earnings", className: "text-right" }, "Status"]}
          rows={earnings}
          rowKey={(e) => e.month}
        >
          {(e) => (
            <>
              <Td>
                <Link to={`/payments?month=${e.month}`} className="underline underline-offset-2">
                  {e.label}
                </Link>
              </Td>
              <Td className="text-right tabular-nums font-medium">{formatCents(e.amountCents)}</Td>
              <Td>
                <Badge tone={LEDGER_STATUS_TONE[e.status]}>{LEDGER_STATUS_LABEL[e.status]}</Badge>
              </Td>
            </>
          )}
        </DataTable>
      )}
    </Section>
  );
}
