import { lazy } from "react";
import { ChartFigure } from "~/ui/chart-figure";
import { formatCount } from "~/lib/format";
import type { Metric, Point } from "~/modules/channels/analytics";

/** recharts, loaded when a chart is first drawn: not on /analytics' first load (docs/decisions/0085). A `.client` module: the server build gets an empty one, so recharts is not in the Worker (decision 0231). */
const MetricLineChart = lazy(() => import("./metric-line-chart.client"));

// A metric over time as a line chart (recharts, drawn in the browser) with the same numbers as
// a table. The table is what screen readers read (the chart is hidden from them), and it is
// what everyone sees before the page is hydrated or without JavaScript: ChartFigure (app/ui). See docs/decisions/0032.

export type ChartSeries = { key: string; label: string; points: Point[] };
export type ChartRow = Record<string, string | number | null>;

export function MetricChart({ title, metric, days, series }: { title: string; metric: Metric; days: string[]; series: ChartSeries[] }) {
  const rows = days.map((day, i) => {
    const row: ChartRow = { day };
    for (const s of series) row[s.key] = s.points[i]?.[metric] ?? null;
    return row;
  });
  return (
    <ChartFigure
      caption={title}
      tableLabel={title}
      tableCaption={`${title}, one row per day`}
      height="h-64"
      chartTestId={`chart-${metric}`}
      chart={<MetricLineChart rows={rows} days={days} series={series} />}
      columns={["Date", ...series.map((s) => ({ key: s.key, label: s.label, className: "text-right" }))]}
    >
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
    </ChartFigure>
  );
}
