import { Form, Link, useLocation } from "react-router";
import { hrefWith } from "~/lib/href";
import { ConfirmActions } from "~/modules/admin/components/console";
import { ConfirmDialog } from "~/ui/confirm-dialog";
import { countOf } from "~/lib/format";
import { PAYMENT_CONFIRM, type MonthConfirm } from "../messages";
import { Badge, type Tone } from "~/ui/badge";
import { Button, buttonClass } from "~/ui/button";
import { LocalTime } from "~/ui/local-time";
import { RowList } from "~/ui/row-list";
import { Section } from "~/ui/section";
import { DataTable, Td } from "~/ui/table";
import { monthLabel } from "../calendar";
import { formatCents } from "../money";
import { formatBp } from "~/lib/split";
import { FORMAT_LABEL } from "./revenue-import";
import type { RevenueFormat } from "../revenue-columns";

// The months of revenue on /admin/payments (docs/decisions/0121): each month's live import, funds
// received, finalized; and the recent imports (a staged one can be discarded).

const IMPORT_STATUS: Record<"staged" | "live" | "replaced" | "discarded", { label: string; tone: Tone }> = {
  staged: { label: "Waiting to commit", tone: "amber" },
  live: { label: "Live", tone: "green" },
  replaced: { label: "Replaced", tone: "slate" },
  discarded: { label: "Discarded", tone: "slate" },
};

type MonthRow = {
  month: string;
  entryCount: number;
  liveImportId: string | null;
  fundsReceivedAt: string | null;
  finalizedAt: string | null;
  netCents: number | null;
  amountCents: number | null;
  shareBp: number | null;
  format: RevenueFormat | null;
  exactTotal: string | null;
};

type ImportRow = {
  id: string;
  month: string;
  status: keyof typeof IMPORT_STATUS;
  fileName: string | null;
  format: RevenueFormat;
  entryCount: number;
  netCents: number;
  createdAt: string;
};

export function MonthsSection({
  months,
  imports,
  busy,
  confirm,
  minimumCents,
}: {
  months: MonthRow[];
  imports: ImportRow[];
  busy: boolean;
  /** The money action asked about (a query parameter: the dialog works without JavaScript; decision 0322). */
  confirm: { intent: MonthConfirm; month: string } | null;
  minimumCents: number;
}) {
  const { pathname, search } = useLocation();
  const cancelTo = hrefWith(pathname, search, { confirm: null, month: null });
  const row = confirm ? months.find((m) => m.month === confirm.month) : undefined;
  // Only a step the month is ready for is asked about (a stale link shows nothing).
  const asking =
    confirm && row && (confirm.intent === "funds_received" ? row.liveImportId && !row.fundsReceivedAt : row.fundsReceivedAt && !row.finalizedAt)
      ? { ...confirm, row }
      : null;
  return (
    <>
      <Section id="months-heading" title="Months" className="mt-10">
        {months.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">No revenue imported yet.</p>
        ) : (
          <DataTable
            labelledBy="months-heading"
            className="mt-3"
            columns={["Month", "Net revenue", "Creators' share", "Status", { label: "Actions", className: "text-right" }]}
            rows={months}
            rowKey={(m) => m.month}
          >
            {(m) => (
              <>
                <Td className="font-medium">{monthLabel(m.month)}</Td>
                <Td>
                  {m.netCents === null ? "—" : formatCents(m.netCents)}
                  {m.exactTotal && m.exactTotal !== ((m.netCents ?? 0) / 100).toFixed(2) ? (
                    <span className="block text-xs text-slate-500">{m.exactTotal} exact</span>
                  ) : null}
                </Td>
                <Td>
                  {m.amountCents === null ? "—" : formatCents(m.amountCents)}
                  {m.shareBp ? <span className="text-slate-500"> ({formatBp(m.shareBp)})</span> : null}
                </Td>
                <Td>
                  {m.finalizedAt ? (
                    <Badge tone="green">
                      <span>
                        Finalized <LocalTime iso={m.finalizedAt} />
                      </span>
                    </Badge>
                  ) : m.fundsReceivedAt ? (
                    <Badge tone="blue">
                      <span>
                        Funds received <LocalTime iso={m.fundsReceivedAt} />
                      </span>
                    </Badge>
                  ) : m.liveImportId ? (
                    <Badge tone="amber">Estimated</Badge>
                  ) : (
                    <Badge>Not imported</Badge>
                  )}
                </Td>
                <Td className="text-right">
                  {m.liveImportId && !m.fundsReceivedAt ? (
                    <MonthLink to={hrefWith(pathname, search, { confirm: "funds_received", month: m.month })} month={m.month} label="Mark funds received" />
                  ) : null}
                  {m.fundsReceivedAt && !m.finalizedAt ? (
                    <MonthLink to={hrefWith(pathname, search, { confirm: "finalize", month: m.month })} month={m.month} label="Finalize" />
                  ) : null}
                </Td>
              </>
            )}
          </DataTable>
        )}
      </Section>

      {asking ? (
        <ConfirmDialog title={PAYMENT_CONFIRM[asking.intent].title(asking.month)} cancelTo={cancelTo}>
          <Form method="post" action={cancelTo} preventScrollReset>
            <p className="text-sm text-slate-700">
              {PAYMENT_CONFIRM[asking.intent].text({
                month: asking.month,
                net: formatCents(asking.row.netCents ?? 0),
                amount: formatCents(asking.row.amountCents ?? 0),
                lines: asking.row.entryCount,
                minimum: formatCents(minimumCents),
              })}
            </p>
            <input type="hidden" name="intent" value={asking.intent} />
            <input type="hidden" name="month" value={asking.month} />
            <ConfirmActions cancelTo={cancelTo} disabled={busy}>
              {PAYMENT_CONFIRM[asking.intent].label}
            </ConfirmActions>
          </Form>
        </ConfirmDialog>
      ) : null}

      <Section id="imports-heading" title="Recent imports" className="mt-10">
        <RowList items={imports} empty="None yet." card={false} className="text-sm">
          {(i) => (
            <li key={i.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <span>
                {monthLabel(i.month)} · {i.fileName ?? "file"} ({FORMAT_LABEL[i.format].split(" (")[0]}) · {countOf(i.entryCount, "line")} ·{" "}
                {formatCents(i.netCents)} · <LocalTime iso={i.createdAt} withTime />
              </span>
              <span className="flex items-center gap-2">
                <Badge tone={IMPORT_STATUS[i.status].tone}>{IMPORT_STATUS[i.status].label}</Badge>
                {i.status === "staged" ? (
                  <Form method="post">
                    <input type="hidden" name="intent" value="discard" />
                    <input type="hidden" name="importId" value={i.id} />
                    <Button type="submit" disabled={busy}>
                      Discard
                    </Button>
                  </Form>
                ) : null}
              </span>
            </li>
          )}
        </RowList>
      </Section>
    </>
  );
}

function MonthLink({ to, month, label }: { to: string; month: string; label: string }) {
  return (
    <Link to={to} preventScrollReset className={`${buttonClass.secondary} ml-2`}>
      {label} <span className="sr-only">for {monthLabel(month)}</span>
    </Link>
  );
}
