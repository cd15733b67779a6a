import { formatCents } from "../money";
import { formatBp } from "~/lib/split";
import type { ClipEarning } from "../types";
import { PaymentStatusBadge } from "./payment-status";

// One clip's earnings on /clipping (docs/decisions/0255): the ledger's figures only.

function splitText(segments: { fromDay: number; toDay: number; bps: number }[]): string {
  const [only] = segments;
  if (segments.length === 1 && only) return formatBp(only.bps);
  return segments.map((s) => `${formatBp(s.bps)} on days ${s.fromDay}–${s.toDay}`).join(", ");
}

/** $0.4512 per 1,000 views → "$0.45"; under a cent → "under $0.01". */
function perThousand(cents: number): string {
  return cents > 0 && cents < 1 ? "under $0.01" : formatCents(Math.round(cents));
}

export function ClipEarningCell({ earning, side, approved }: { earning: ClipEarning | undefined; side: "creator" | "clipper"; approved: boolean }) {
  if (!earning) return <span className="text-slate-600">—</span>;
  const latest = earning.latest;
  if (!latest) {
    return (
      <span className="block max-w-56 text-xs text-slate-600">
        {approved ? (
          <>
            Nothing imported yet. Its revenue comes with the month's report: {formatBp(earning.clipperBpsNow)} to the clipper of the creator's{" "}
            {formatBp(earning.creatorShareBpNow)} share.
          </>
        ) : (
          "Only approved clips share revenue."
        )}
      </span>
    );
  }
  const yours = side === "clipper" ? latest.clipperCents : latest.creatorCents;
  return (
    <span className="block max-w-64">
      <span className="flex flex-wrap items-baseline gap-x-2">
        <strong className="tabular-nums">{formatCents(yours)}</strong>
        <PaymentStatusBadge status={latest.status} />
        <span className="text-xs text-slate-600">{latest.label}</span>
      </span>
      <span className="mt-1 block text-xs text-slate-600">
        Clipper {splitText(latest.segments)}: {formatCents(latest.clipperCents)} · creator {formatCents(latest.creatorCents)} · of{" "}
        {formatCents(latest.poolCents)} (the creator's {formatBp(latest.creatorShareBp)} share)
      </span>
      {earning.yourCentsPerThousandViews !== null ? (
        <span className="mt-1 block text-xs text-slate-600">
          {perThousand(earning.yourCentsPerThousandViews)} per 1,000 views so far (your {formatCents(earning.yourTotalCents)} in all)
        </span>
      ) : null}
    </span>
  );
}

/** Under the clip tables: where the figures come from and how they are computed. */
export function ClipEarningsNote({ currentMonthLabel }: { currentMonthLabel: string }) {
  return (
    <p className="mt-2 text-xs text-slate-600">
      Earnings are each clip's latest month in the platform's revenue report, as imported: Estimated until the platform has paid us, then Finalized and Paid. A
      clip's revenue is music-pool revenue: the creator's share of it is split between clipper and creator by the split in force each day. Per 1,000 views is
      your part so far divided by the clip's views today. {currentMonthLabel}'s revenue is imported after the month ends.
    </p>
  );
}
