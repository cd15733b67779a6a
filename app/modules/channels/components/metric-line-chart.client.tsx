import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatCount } from "~/lib/format";
import { formatCompact } from "~/modules/channels/analytics";
import type { ChartRow, ChartSeries } from "./channel-chart";

// The drawing of a MetricChart (channel-chart.tsx): recharts, in its own chunk, loaded with
// React.lazy once the page is hydrated, so it is not part of /analytics' first load
// (docs/decisions/0085). The figure, its caption and the data table stay in channel-chart.tsx.

// Distinct, dark enough on white (≥ 3:1) for lines; the total is always the first, in slate.
const COLORS = ["#0f172a", "#be123c", "#0369a1", "#047857", "#7c3aed", "#b45309", "#a21caf", "#4d7c0f"];

function shortDay(day: string): string {
  const [, m, d] = day.split("-");
  const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  return `${Number(d)} ${months[Number(m) - 1]}`;
}

export default function MetricLineChart({ rows, days, series }: { rows: ChartRow[]; days: string[]; series: ChartSeries[] }) {
  return (
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
  );
}
