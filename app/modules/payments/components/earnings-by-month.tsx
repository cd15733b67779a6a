import { Link } from "react-router";
import { Section } from "~/ui/section";
import { DataTable, Td } from "~/ui/table";
import type { LedgerStatus } from "../types";
import { AmountTd } from "./amount-cell";
import { PaymentStatusBadge } from "./payment-status";

// /analytics: the person's earnings by month from the ledger (payments module, issue 14).

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
              <AmountTd cents={e.amountCents} className="font-medium" />
              <Td>
                <PaymentStatusBadge status={e.status} />
              </Td>
            </>
          )}
        </DataTable>
      )}
    </Section>
  );
}
