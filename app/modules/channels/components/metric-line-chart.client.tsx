import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatCount } from "~/lib/format";
import { formatCompact } from "~/modules/channels/analytics";
import { CHART_AXIS, CHART_GRID, seriesLine } from "~/ui/chart-style";
import type { ChartRow, ChartSeries } from "./channel-chart";

// The drawing of a MetricChart (channel-chart.tsx): recharts, in its own chunk, loaded with
// React.lazy once the page is hydrated, so it is not part of /analytics' first load
// (docs/decisions/0085). The figure, its caption and the data table stay in channel-chart.tsx.

// The total is always the first series: the palette's slate (app/ui/chart-style.ts).

function shortDay(day: string): string {
  const [, m, d] = day.split("-");
  const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  return `${Number(d)} ${months[Number(m) - 1]}`;
}

export default function MetricLineChart({ rows, days, series }: { rows: ChartRow[]; days: string[]; series: ChartSeries[] }) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <LineChart data={rows} margin={{ top: 8, right: 12, bottom: 0, left: 0 }} accessibilityLayer={false}>
        <CartesianGrid {...CHART_GRID} />
        <XAxis dataKey="day" tickFormatter={shortDay} minTickGap={24} {...CHART_AXIS} />
        <YAxis width={64} tickFormatter={(v: number) => formatCompact(v)} {...CHART_AXIS} domain={["auto", "auto"]} allowDecimals={false} />
        <Tooltip formatter={(value) => formatCount(typeof value === "number" ? value : null)} labelFormatter={(label) => shortDay(String(label))} />
        {series.length > 1 ? <Legend wrapperStyle={{ fontSize: 12 }} /> : null}
        {series.map((s, i) => (
          <Line key={s.key} {...seriesLine(s, i)} strokeWidth={i === 0 && series.length > 1 ? 2.5 : 2} dot={days.length <= 7} connectNulls />
        ))}
      </LineChart>
    </ResponsiveContainer>
  );
}
