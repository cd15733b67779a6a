import { Link } from "react-router";
import { formatCents } from "~/modules/payments/money";
import { formatPayoutDay } from "~/modules/payments/calendar";
import { AmountTd } from "~/modules/payments/components/amount-cell";
import { DataTable, Td } from "~/ui/table";
import { Section } from "~/ui/section";
import type { PendingCampaignEarning } from "../participate.server";

// /payments' "Pending — not yet in your balance" (docs/decisions/0321): campaign earnings approved
// but not settled, by source, with when they will be paid by the campaign terms. Settling moves
// them into the statement; until then they are counted in no balance above.

export function PendingEarnings({ items }: { items: PendingCampaignEarning[] }) {
  const [first] = items;
  if (!first) return null;
  const total = items.reduce((s, i) => s + i.amountCents, 0);
  return (
    <Section id="pending-heading" title="Pending — not yet in your balance" className="mt-10">
      <p className="mt-1 text-sm text-slate-600">
        {formatCents(total)} earned in campaigns that are not settled yet. Each moves into your balance when the campaign is settled, and is paid up to{" "}
        {first.windowDays} days after the campaign ends (the{" "}
        <Link to="/campaigns" className="underline">
          campaign terms
        </Link>
        ).
      </p>
      <DataTable
        labelledBy="pending-heading"
        className="mt-3"
        stacked
        columns={["Source", "Campaign", { label: "Earned so far", className: "text-right" }, "Expected payout"]}
        rows={items}
        rowKey={(i) => i.campaignId}
      >
        {(i) => (
          <>
            <Td className="max-sm:font-medium">
              Campaign: {i.brand} — {i.title}
            </Td>
            <Td label="Campaign">{i.state === "live" ? `Live until ${formatPayoutDay(i.endsOn)}` : `Ended ${formatPayoutDay(i.endsOn)}, being settled`}</Td>
            <AmountTd label="Earned so far" cents={i.amountCents} />
            <Td label="Expected payout">By {formatPayoutDay(i.payBy)} at the latest</Td>
          </>
        )}
      </DataTable>
    </Section>
  );
}
