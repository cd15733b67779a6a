import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { GrowthRow, GrowthSeries } from "./growth-chart";
import { CHART_AXIS, CHART_GRID, chartColor, seriesLine } from "~/ui/chart-style";

// The drawing of a GrowthChart: recharts, in its own chunk (loaded after hydration).

export default function GrowthBars({ rows, series, kind, stacked }: { rows: GrowthRow[]; series: GrowthSeries[]; kind: "bar" | "line"; stacked: boolean }) {
  const axes = (
    <>
      <CartesianGrid {...CHART_GRID} />
      <XAxis dataKey="label" minTickGap={16} {...CHART_AXIS} />
      <YAxis width={48} allowDecimals={false} {...CHART_AXIS} />
      <Tooltip />
      {series.length > 1 ? <Legend wrapperStyle={{ fontSize: 12 }} /> : null}
    </>
  );
  return (
    <ResponsiveContainer width="100%" height="100%">
      {kind === "line" ? (
        <LineChart data={rows} margin={{ top: 8, right: 12, bottom: 0, left: 0 }} accessibilityLayer={false}>
          {axes}
          {series.map((s, i) => (
            <Line key={s.key} {...seriesLine(s, i)} strokeWidth={2} dot={rows.length <= 12} />
          ))}
        </LineChart>
      ) : (
        <BarChart data={rows} margin={{ top: 8, right: 12, bottom: 0, left: 0 }} accessibilityLayer={false}>
          {axes}
          {series.map((s, i) => (
            <Bar key={s.key} dataKey={s.key} name={s.label} fill={chartColor(i)} stackId={stacked ? "a" : undefined} isAnimationActive={false} />
          ))}
        </BarChart>
      )}
    </ResponsiveContainer>
  );
}
