import { useEffect, useId, useState } from "react";
import { TableHead } from "~/ui/table";
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatCompact, formatCount, type Point, type Metric } from "~/modules/channels/analytics";

// A metric over time as a line chart (recharts, drawn in the browser) with the same numbers as
// a table. The table is what screen readers read (the chart is hidden from them), and it is
// what everyone sees before the page is hydrated or without JavaScript. See docs/decisions/0032.

export type ChartSeries = { key: string; label: string; points: Point[] };

// Distinct, dark enough on white (≥ 3:1) for lines; the total is always the first, in slate.
const COLORS = ["#0f172a", "#be123c", "#0369a1", "#047857", "#7c3aed", "#b45309", "#a21caf", "#4d7c0f"];

function shortDay(day: string): string {
  const [, m, d] = day.split("-");
  const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  return `${Number(d)} ${months[Number(m) - 1]}`;
}

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
    const row: Record<string, string | number | null> = { day };
    for (const s of series) row[s.key] = s.points[i]?.[metric] ?? null;
    return row;
  });
  const tableVisible = !hydrated || showTable;

  return (
    <figure className="relative rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5" aria-labelledby={`${id}-caption`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
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
        <div aria-hidden="true" className="mt-3 h-64 w-full" data-testid={`chart-${metric}`}>
          <ResponsiveContainer width="100%" height="100%">
            <LineChart data={rows} margin={{ top: 8, right: 12, bottom: 0, left: 0 }} accessibilityLayer={false}>
              <CartesianGrid stroke="#e2e8f0" strokeDasharray="3 3" />
              <XAxis dataKey="day" tickFormatter={shortDay} minTickGap={24} tick={{ fill: "#475569", fontSize: 12 }} stroke="#94a3b8" />
              <YAxis
                width={64}
                tickFormatter={(v: number) => formatCompact(v)}
                tick={{ fill: "#475569", fontSize: 12 }}
                stroke="#94a3b8"
                domain={["auto", "auto"]}
                allowDecimals={false}
              />
              <Tooltip formatter={(value) => formatCount(typeof value === "number" ? value : null)} labelFormatter={(label) => shortDay(String(label))} />
              {series.length > 1 ? <Legend wrapperStyle={{ fontSize: 12 }} /> : null}
              {series.map((s, i) => (
                <Line
                  key={s.key}
                  type="linear"
                  dataKey={s.key}
                  name={s.label}
                  stroke={COLORS[i % COLORS.length]}
                  strokeWidth={i === 0 && series.length > 1 ? 2.5 : 2}
                  dot={days.length <= 7}
                  connectNulls
                  isAnimationActive={false}
                />
              ))}
            </LineChart>
          </ResponsiveContainer>
        </div>
      ) : null}

      <div
        id={tableId}
        className={tableVisible ? "mt-3 max-h-80 overflow-auto" : "sr-only"}
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
