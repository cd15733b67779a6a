import { Form } from "react-router";
import { Badge } from "~/ui/badge";
import { Button } from "~/ui/button";
import { Field } from "~/ui/field";
import { LocalTime } from "~/ui/local-time";
import { Section } from "~/ui/section";
import { Select } from "~/ui/select";
import { DataTable, Td } from "~/ui/table";
import { TextArea } from "~/ui/textarea";
import { monthLabel } from "../calendar";
import { formatCents } from "../money";
import { PersonField } from "./person-field";

// Adjustments on /admin/payments (docs/decisions/0223): a credit or debit for a person and a
// statement month, with a reason; paid with the next payout. The form carries a token made by the
// loader, so a double click adds it once.

type Row = { id: string; name: string; email: string; month: string; amountCents: number; reason: string; status: string; createdAt: string };

export function AdjustmentsSection({
  rows,
  token,
  month,
  busy,
  errors,
  values,
}: {
  rows: Row[];
  token: string;
  /** The default and latest month an adjustment can be for (this month). */
  month: string;
  busy: boolean;
  errors: Record<string, string>;
  values: Record<string, string>;
}) {
  const mine = values.intent === "adjust";
  const err = (k: string) => (mine ? errors[k] : undefined);
  const val = (k: string) => (mine ? values[k] : undefined);
  return (
    <Section id="adjustments-heading" title="Adjustments" className="mt-10">
      <p className="mt-1 text-sm text-slate-600">
        A credit or a debit on a person's statement, with the reason they will read. It is paid with their next payout; a debit larger than their balance
        carries over and is taken from later earnings.
      </p>
      <Form method="post" className="mt-3 grid gap-3 rounded-xl border border-slate-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-4">
        <input type="hidden" name="intent" value="adjust" />
        <input type="hidden" name="token" value={token} />
        <PersonField intent="adjust" values={values} errors={errors} />
        <Field label="Statement month" name="month" type="month" required max={month} defaultValue={val("month") ?? month} error={err("month")} />
        <Select
          label="Credit or debit"
          name="direction"
          defaultValue={val("direction") ?? "credit"}
          error={err("direction")}
          options={[
            { value: "credit", label: "Credit (adds to the balance)" },
            { value: "debit", label: "Debit (takes from the balance)" },
          ]}
        />
        <Field label="Amount (USD)" name="amount" required inputMode="decimal" placeholder="12.50" defaultValue={val("amount")} error={err("amount")} />
        {/* The column span is the frame's: a className on TextArea would replace the control's own (border, focus ring). */}
        <div className="sm:col-span-2 lg:col-span-3">
          <TextArea label="Reason" name="reason" required maxLength={500} rows={2} defaultValue={val("reason")} error={err("reason")} />
        </div>
        <div className="flex items-end">
          <Button type="submit" variant="primary" disabled={busy}>
            Add adjustment
          </Button>
        </div>
      </Form>
      {rows.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">No adjustments yet.</p>
      ) : (
        <DataTable
          labelledBy="adjustments-heading"
          className="mt-3"
          stacked
          columns={["Person", "Month", { label: "Amount", className: "text-right" }, "Reason", "Status", "Added"]}
          rows={rows}
          rowKey={(r) => r.id}
        >
          {(r) => (
            <>
              <Td className="max-sm:font-medium">
                {r.name}
                <span className="block text-xs text-slate-500">{r.email}</span>
              </Td>
              <Td label="Month">{monthLabel(r.month)}</Td>
              <Td label="Amount" className={`text-right tabular-nums ${r.amountCents < 0 ? "text-red-800" : ""}`}>
                {r.amountCents < 0 ? `−${formatCents(-r.amountCents)}` : `+${formatCents(r.amountCents)}`}
              </Td>
              <Td label="Reason">{r.reason}</Td>
              <Td label="Status">
                <Badge tone={r.status === "paid" ? "green" : "blue"}>{r.status === "paid" ? "Paid" : "In the next payout"}</Badge>
              </Td>
              <Td label="Added">
                <LocalTime iso={r.createdAt} withTime />
              </Td>
            </>
          )}
        </DataTable>
      )}
    </Section>
  );
}
