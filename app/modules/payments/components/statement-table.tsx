import { LocalTime } from "~/ui/local-time";
import { DataTable, Table, TableBody, TableHead, TableRegion, Td } from "~/ui/table";
import { formatPayoutDay, monthLabel } from "../calendar";
import { AmountTd } from "./amount-cell";
import { formatBp } from "~/lib/split";
import type { PayoutRow, StatementLine } from "../types";
import { PaymentStatusBadge } from "./payment-status";

// The creator's statement and payout history on /payments. Both stack as cards below 640 px, so
// the amounts are seen without a sideways scroll (issue 29).

/** A statement's lines, each with its videos below it (their amounts add up to the line), and the total. */
export function StatementTable({ lines }: { lines: StatementLine[] }) {
  const total = lines.reduce((s, l) => s + l.amountCents, 0);
  return (
    <TableRegion labelledBy="statement-heading" className="mt-3">
      <Table stacked>
        <TableHead
          columns={[
            "Source",
            { label: "Net revenue", className: "text-right" },
            { label: "Share", className: "text-right" },
            { label: "Amount", className: "text-right" },
            "Status",
          ]}
        />
        <TableBody>
          {lines.map((l) => (
            <StatementRows key={l.id} line={l} />
          ))}
          <tr>
            <Td className="font-semibold">Total</Td>
            <Td />
            <Td />
            <AmountTd label="Amount" cents={total} className="font-semibold" />
            <Td />
          </tr>
        </TableBody>
      </Table>
    </TableRegion>
  );
}

function StatementRows({ line: l }: { line: StatementLine }) {
  return (
    <>
      <tr>
        <Td className="max-sm:font-medium max-sm:[overflow-wrap:anywhere]">{l.source}</Td>
        <AmountTd label="Net revenue" cents={l.netCents} />
        <Td label="Share" className="text-right tabular-nums">
          {formatBp(l.shareBp)}
        </Td>
        <AmountTd label="Amount" cents={l.amountCents} className="font-medium" />
        <Td label="Status">
          <PaymentStatusBadge status={l.status} />
        </Td>
      </tr>
      {l.videos.map((v) => (
        <tr key={`${l.id}-${v.videoId}`} className="text-slate-600">
          <Td className="pl-8 max-sm:pl-4">
            <span className="sr-only">Video of the line above: </span>
            {v.videoId ? `Video ${v.videoId}` : "Rows without a video"}
          </Td>
          <AmountTd label="Net revenue" cents={v.netCents} />
          <Td />
          <AmountTd label="Amount" cents={v.amountCents} />
          <Td />
        </tr>
      ))}
    </>
  );
}

/** The person's payouts: run, date, amount, status (and why one failed), how it was paid, when. */
export function PayoutHistoryTable({ payouts }: { payouts: PayoutRow[] }) {
  return (
    <DataTable
      labelledBy="payouts-heading"
      className="mt-3"
      stacked
      columns={["Payout run", "Payout date", { label: "Amount", className: "text-right" }, "Status", "Paid through", "Paid on"]}
      rows={payouts}
      rowKey={(p) => p.id}
    >
      {(p) => (
        <>
          <Td className="max-sm:font-medium">{monthLabel(p.batch)}</Td>
          <Td label="Payout date" className="whitespace-nowrap">
            {formatPayoutDay(p.payoutDate)}
          </Td>
          <AmountTd label="Amount" cents={p.amountCents} />
          <Td label="Status">
            <span className="flex flex-col items-end gap-1 sm:items-start">
              <PaymentStatusBadge status={p.status} />
              {p.status === "failed" && p.failureReason ? <span className="text-xs text-red-800">{p.failureReason}. Back in your balance.</span> : null}
            </span>
          </Td>
          <Td label="Paid through">
            <span className="min-w-0">
              {p.method === "stripe" ? "Stripe" : "Outside Stripe"}
              {p.reference ? <span className="block text-xs break-all text-slate-500">Ref. {p.reference}</span> : null}
            </span>
          </Td>
          <Td label="Paid on">
            <LocalTime iso={p.paidAt} withTime />
          </Td>
        </>
      )}
    </DataTable>
  );
}
