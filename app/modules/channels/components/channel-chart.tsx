import { lazy, Suspense, useEffect, useId, useState } from "react";
import { TableHead } from "~/ui/table";
import { formatCount, type Point, type Metric } from "~/modules/channels/analytics";

/** recharts, loaded when a chart is first drawn: not on /analytics' first load (docs/decisions/0085). */
const MetricLineChart = lazy(() => import("./metric-line-chart"));

// A metric over time as a line chart (recharts, drawn in the browser) with the same numbers as
// a table. The table is what screen readers read (the chart is hidden from them), and it is
// what everyone sees before the page is hydrated or without JavaScript. See docs/decisions/0032.

export type ChartSeries = { key: string; label: string; points: Point[] };
export type ChartRow = Record<string, string | number | null>;

function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

export function MetricChart({ title, metric, days, series }: { title: string; metric: Metric; days: string[]; series: ChartSeries[] }) {
  const hydrated = useHydrated();
  const [showTable, setShowTable] = useState(false);
  const id = useId();
  const tableId = `${id}-table`;
  const rows = days.map((day, i) => {
    const row: ChartRow = { day };
    for (const s of series) row[s.key] = s.points[i]?.[metric] ?? null;
    return row;
  });
  const tableVisible = !hydrated || showTable;

  return (
    <figure className="relative rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5" aria-labelledby={`${id}-caption`}>
      <div className="flex min-h-7 flex-wrap items-center justify-between gap-2">
        <figcaption id={`${id}-caption`} className="text-base font-semibold text-slate-900">
          {title}
        </figcaption>
        {hydrated ? (
          <button
            type="button"
            aria-expanded={showTable}
            aria-controls={tableId}
            onClick={() => setShowTable((v) => !v)}
            className="rounded-md px-2 py-1 text-sm font-medium text-slate-700 underline underline-offset-2 hover:bg-slate-100"
          >
            {showTable ? "Hide data table" : "Show data table"}
          </button>
        ) : null}
      </div>

      {hydrated ? (
        // The chart code (recharts) loads after hydration, in its own chunk; the box keeps the
        // chart's size meanwhile, so nothing moves when it is drawn (docs/decisions/0085).
        <div aria-hidden="true" className="mt-3 h-64 w-full" data-testid={`chart-${metric}`}>
          <Suspense fallback={<div className="h-full w-full animate-pulse rounded-md bg-slate-50 motion-reduce:animate-none" />}>
            <MetricLineChart rows={rows} days={days} series={series} />
          </Suspense>
        </div>
      ) : null}

      <div
        id={tableId}
        // Before hydration the table sits in the chart's box (same height): nothing moves when the chart replaces it.
        className={!hydrated ? "mt-3 h-64 overflow-auto" : showTable ? "mt-3 max-h-80 overflow-auto" : "sr-only"}
        // A visible scrolling table must be reachable by keyboard.
        {...(tableVisible ? { tabIndex: 0, role: "region", "aria-label": `${title}, data table` } : {})}
      >
        <table className="min-w-full text-sm">
          <caption className="sr-only">{title}, one row per day</caption>
          <TableHead
            className="sticky top-0 bg-slate-50 text-left text-slate-700"
            cellClassName="px-3 py-2 font-semibold"
            columns={["Date", ...series.map((s) => ({ key: s.key, label: s.label, className: "text-right" }))]}
          />
          <tbody className="divide-y divide-slate-100">
            {rows.map((r) => (
              <tr key={String(r.day)}>
                <th scope="row" className="px-3 py-1.5 text-left font-normal whitespace-nowrap text-slate-700">
                  {String(r.day)}
                </th>
                {series.map((s) => (
                  <td key={s.key} className="px-3 py-1.5 text-right text-slate-900 tabular-nums">
                    {formatCount(r[s.key] as number | null)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
