import { Badge, type Tone } from "~/ui/badge";
import { LocalTime } from "~/ui/local-time";
import { DataTable, Table, TableBody, TableHead, TableRegion, Td } from "~/ui/table";
import { formatPayoutDay, monthLabel } from "../calendar";
import { formatCents } from "../money";
import { formatBp } from "~/lib/split";
import type { PayoutRow, StatementLine } from "../types";
import { LEDGER_STATUS_LABEL, LEDGER_STATUS_TONE } from "./earnings-by-month";

// The creator's statement and payout history on /payments. Both stack as cards below 640 px, so
// the amounts are seen without a sideways scroll (issue 29).

export const STATUS_TONE: Record<string, Tone> = { ...LEDGER_STATUS_TONE, pending: "amber", processing: "blue", failed: "red" };
export const STATUS_LABEL: Record<string, string> = { ...LEDGER_STATUS_LABEL, pending: "Pending", processing: "Sending", failed: "Failed" };

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
            <Td label="Amount" className="text-right tabular-nums font-semibold">
              {formatCents(total)}
            </Td>
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
        <Td className="max-sm:font-medium">{l.source}</Td>
        <Td label="Net revenue" className="text-right tabular-nums">
          {formatCents(l.netCents)}
        </Td>
        <Td label="Share" className="text-right tabular-nums">
          {formatBp(l.shareBp)}
        </Td>
        <Td label="Amount" className="text-right tabular-nums font-medium">
          {formatCents(l.amountCents)}
        </Td>
        <Td label="Status">
          <Badge tone={STATUS_TONE[l.status]}>{STATUS_LABEL[l.status]}</Badge>
        </Td>
      </tr>
      {l.videos.map((v) => (
        <tr key={`${l.id}-${v.videoId}`} className="text-slate-600">
          <Td className="pl-8 max-sm:pl-4">
            <span className="sr-only">Video of the line above: </span>
            {v.videoId ? `Video ${v.videoId}` : "Rows without a video"}
          </Td>
          <Td label="Net revenue" className="text-right tabular-nums">
            {formatCents(v.netCents)}
          </Td>
          <Td />
          <Td label="Amount" className="text-right tabular-nums">
            {formatCents(v.amountCents)}
          </Td>
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
          <Td label="Amount" className="text-right tabular-nums">
            {formatCents(p.amountCents)}
          </Td>
          <Td label="Status">
            <span className="flex flex-col items-end gap-1 sm:items-start">
              <Badge tone={STATUS_TONE[p.status]}>{STATUS_LABEL[p.status]}</Badge>
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
