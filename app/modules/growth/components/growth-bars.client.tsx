import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { GrowthRow, GrowthSeries } from "./growth-chart";

// The drawing of a GrowthChart: recharts, in its own chunk (loaded after hydration).

// Distinct and dark enough on white (≥ 3:1).
const COLORS = ["#0f172a", "#be123c", "#0369a1", "#047857", "#7c3aed", "#b45309"];

export default function GrowthBars({ rows, series, kind, stacked }: { rows: GrowthRow[]; series: GrowthSeries[]; kind: "bar" | "line"; stacked: boolean }) {
  const axes = (
    <>
      <CartesianGrid stroke="#e2e8f0" strokeDasharray="3 3" />
      <XAxis dataKey="label" minTickGap={16} tick={{ fill: "#475569", fontSize: 12 }} stroke="#94a3b8" />
      <YAxis width={48} allowDecimals={false} tick={{ fill: "#475569", fontSize: 12 }} stroke="#94a3b8" />
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
            <Line
              key={s.key}
              type="linear"
              dataKey={s.key}
              name={s.label}
              stroke={COLORS[i % COLORS.length]}
              strokeWidth={2}
              dot={rows.length <= 12}
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      ) : (
        <BarChart data={rows} margin={{ top: 8, right: 12, bottom: 0, left: 0 }} accessibilityLayer={false}>
          {axes}
          {series.map((s, i) => (
            <Bar key={s.key} dataKey={s.key} name={s.label} fill={COLORS[i % COLORS.length]} stackId={stacked ? "a" : undefined} isAnimationActive={false} />
          ))}
        </BarChart>
      )}
    </ResponsiveContainer>
  );
}
