import { lazy, Suspense, useEffect, useId, useState } from "react";
import { TableHead } from "~/ui/table";

/** recharts (the analytics page's chart library), loaded after hydration in its own chunk (docs/decisions/0085). */
const GrowthBars = lazy(() => import("./growth-bars"));

// A weekly series as a chart with the same numbers as a table (issue 18). The table is what screen
// readers read (the chart is hidden from them) and what everyone sees before hydration; a button
// shows it on screen too. The same pattern as the analytics page's MetricChart (docs/decisions/0032).

export type GrowthSeries = { key: string; label: string };
export type GrowthRow = { label: string } & Record<string, number | string>;

function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

export function GrowthChart({
  title,
  rows,
  series,
  kind = "bar",
  stacked = false,
  firstColumn = "Week",
}: {
  title: string;
  rows: GrowthRow[];
  series: GrowthSeries[];
  kind?: "bar" | "line";
  stacked?: boolean;
  firstColumn?: string;
}) {
  const hydrated = useHydrated();
  const [showTable, setShowTable] = useState(false);
  const id = useId();
  const tableId = `${id}-table`;
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
        <div aria-hidden="true" className="mt-3 h-56 w-full">
          <Suspense fallback={<div className="h-full w-full animate-pulse rounded-md bg-slate-50 motion-reduce:animate-none" />}>
            <GrowthBars rows={rows} series={series} kind={kind} stacked={stacked} />
          </Suspense>
        </div>
      ) : null}
      <div
        id={tableId}
        className={!hydrated ? "mt-3 h-56 overflow-auto" : showTable ? "mt-3 max-h-80 overflow-auto" : "sr-only"}
        {...(tableVisible ? { tabIndex: 0, role: "region", "aria-label": `${title}, data table` } : {})}
      >
        <table className="min-w-full text-sm">
          <caption className="sr-only">{title}</caption>
          <TableHead
            className="sticky top-0 bg-slate-50 text-left text-slate-700"
            cellClassName="px-3 py-2 font-semibold"
            columns={[firstColumn, ...series.map((s) => ({ key: s.key, label: s.label, className: "text-right" }))]}
          />
          <tbody className="divide-y divide-slate-100">
            {rows.map((r) => (
              <tr key={r.label}>
                <th scope="row" className="px-3 py-1.5 text-left font-normal whitespace-nowrap text-slate-700">
                  {r.label}
                </th>
                {series.map((s) => (
                  <td key={s.key} className="px-3 py-1.5 text-right text-slate-900 tabular-nums">
                    {typeof r[s.key] === "number" ? (r[s.key] as number).toLocaleString("en-US") : r[s.key]}
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
