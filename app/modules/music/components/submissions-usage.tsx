import { lazy } from "react";
import { ChartFigure } from "~/ui/chart-figure";
import { shortWeek, type UsagePointView } from "./usage-weeks";

/** recharts, loaded when the chart is first drawn: never on the page's first load. A `.client` module: the server build gets an empty one, so recharts is not in the Worker (decision 0231). */
const SubmissionsUsageBars = lazy(() => import("./submissions-usage-bars.client"));

// Licences of the partner's tracks per week (12 weeks) as a bar chart, drawn in the browser,
// with the same numbers as a table: the table is what screen readers read and what shows before
// hydration or without JavaScript (the pattern of docs/decisions/0032).

/** "2026-03-02" → "2 Mar 2026" (the table). */
const weekLabel = (week: string) => `${shortWeek(week)} ${week.slice(0, 4)}`;

export function SubmissionsUsage({ usage }: { usage: UsagePointView[] }) {
  const total = usage.reduce((sum, p) => sum + p.licences, 0);
  return (
    <ChartFigure
      caption={
        <>
          Licences per week{" "}
          <span className="font-normal text-slate-600">
            ({total} in the last {usage.length} weeks)
          </span>
        </>
      }
      tableLabel="Licences per week"
      tableCaption="Licences of your tracks, one row per week"
      height="h-48"
      tableMaxHeight="max-h-64"
      chartTestId="usage-chart"
      chart={<SubmissionsUsageBars usage={usage} />}
      columns={["Week of", { key: "licences", label: "Licences", className: "text-right" }]}
    >
      {usage.map((p) => (
        <tr key={p.week}>
          <th scope="row" className="px-3 py-1.5 text-left font-normal whitespace-nowrap text-slate-700">
            {weekLabel(p.week)}
          </th>
          <td className="px-3 py-1.5 text-right tabular-nums text-slate-900">{p.licences}</td>
        </tr>
      ))}
    </ChartFigure>
  );
}
