import { lazy } from "react";
import { ChartFigure } from "~/ui/chart-figure";
import { formatCount } from "~/lib/format";

/** recharts (the analytics page's chart library), loaded after hydration in its own chunk (docs/decisions/0085). A `.client` module: the server build gets an empty one, so recharts is not in the Worker (decision 0231). */
const GrowthBars = lazy(() => import("./growth-bars.client"));

// A weekly series as a chart with the same numbers as a table (issue 18). The table is what screen
// readers read (the chart is hidden from them) and what everyone sees before hydration; a button
// shows it on screen too: ChartFigure (app/ui), as the analytics page's MetricChart (docs/decisions/0032).

export type GrowthSeries = { key: string; label: string };
export type GrowthRow = { label: string } & Record<string, number | string>;

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
  return (
    <ChartFigure
      caption={title}
      tableLabel={title}
      tableCaption={title}
      height="h-56"
      chart={<GrowthBars rows={rows} series={series} kind={kind} stacked={stacked} />}
      columns={[firstColumn, ...series.map((s) => ({ key: s.key, label: s.label, className: "text-right" }))]}
    >
      {rows.map((r) => (
        <tr key={r.label}>
          <th scope="row" className="px-3 py-1.5 text-left font-normal whitespace-nowrap text-slate-700">
            {r.label}
          </th>
          {series.map((s) => (
            <td key={s.key} className="px-3 py-1.5 text-right text-slate-900 tabular-nums">
              {typeof r[s.key] === "number" ? formatCount(r[s.key] as number) : r[s.key]}
            </td>
          ))}
        </tr>
      ))}
    </ChartFigure>
  );
}
