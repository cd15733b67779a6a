import { lazy, Suspense, useEffect, useId, useState } from "react";
import { TableHead } from "~/ui/table";

/** recharts, loaded when the chart is first drawn: never on the page's first load. */
const SubmissionsUsageBars = lazy(() => import("./submissions-usage-bars"));

// Licences of the partner's tracks per week (12 weeks) as a bar chart, drawn in the browser,
// with the same numbers as a table: the table is what screen readers read and what shows before
// hydration or without JavaScript (the pattern of docs/decisions/0032).

export type UsagePointView = { week: string; licences: number };

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** "2026-03-02" → "2 Mar" (the chart's axis). */
export const shortWeek = (week: string) => {
  const [, m, d] = week.split("-");
  return `${Number(d)} ${MONTHS[Number(m) - 1]}`;
};
/** "2026-03-02" → "2 Mar 2026" (the table). */
const weekLabel = (week: string) => `${shortWeek(week)} ${week.slice(0, 4)}`;

export function SubmissionsUsage({ usage }: { usage: UsagePointView[] }) {
  const [hydrated, setHydrated] = useState(false);
  const [showTable, setShowTable] = useState(false);
  useEffect(() => setHydrated(true), []);
  const id = useId();
  const total = usage.reduce((sum, p) => sum + p.licences, 0);
  const tableVisible = !hydrated || showTable;
  return (
    <figure className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5" aria-labelledby={`${id}-caption`}>
      <div className="flex min-h-7 flex-wrap items-center justify-between gap-2">
        <figcaption id={`${id}-caption`} className="text-base font-semibold text-slate-900">
          Licences per week{" "}
          <span className="font-normal text-slate-600">
            ({total} in the last {usage.length} weeks)
          </span>
        </figcaption>
        {hydrated ? (
          <button
            type="button"
            aria-expanded={showTable}
            aria-controls={`${id}-table`}
            onClick={() => setShowTable((v) => !v)}
            className="rounded-md px-2 py-1 text-sm font-medium text-slate-700 underline underline-offset-2 hover:bg-slate-100"
          >
            {showTable ? "Hide data table" : "Show data table"}
          </button>
        ) : null}
      </div>
      {hydrated ? (
        <div aria-hidden="true" className="mt-3 h-48 w-full" data-testid="usage-chart">
          <Suspense fallback={<div className="h-full w-full animate-pulse rounded-md bg-slate-50 motion-reduce:animate-none" />}>
            <SubmissionsUsageBars usage={usage} />
          </Suspense>
        </div>
      ) : null}
      <div
        id={`${id}-table`}
        className={!hydrated ? "mt-3 h-48 overflow-auto" : showTable ? "mt-3 max-h-64 overflow-auto" : "sr-only"}
        {...(tableVisible ? { tabIndex: 0, role: "region", "aria-label": "Licences per week, data table" } : {})}
      >
        <table className="min-w-full text-sm">
          <caption className="sr-only">Licences of your tracks, one row per week</caption>
          <TableHead
            className="sticky top-0 bg-slate-50 text-left text-slate-700"
            cellClassName="px-3 py-2 font-semibold"
            columns={["Week of", { key: "licences", label: "Licences", className: "text-right" }]}
          />
          <tbody className="divide-y divide-slate-100">
            {usage.map((p) => (
              <tr key={p.week}>
                <th scope="row" className="px-3 py-1.5 text-left font-normal whitespace-nowrap text-slate-700">
                  {weekLabel(p.week)}
                </th>
                <td className="px-3 py-1.5 text-right tabular-nums text-slate-900">{p.licences}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
