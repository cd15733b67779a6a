import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { shortWeek, type UsagePointView } from "./usage-weeks";
import { CHART_AXIS, CHART_GRID, chartColor } from "~/ui/chart-style";

// The drawing of the usage chart (submissions-usage.tsx): recharts in its own chunk, loaded with
// React.lazy after hydration, so /music/submissions' first load does not carry it.

export default function SubmissionsUsageBars({ usage }: { usage: UsagePointView[] }) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={usage} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
        <CartesianGrid {...CHART_GRID} vertical={false} />
        <XAxis dataKey="week" tickFormatter={shortWeek} minTickGap={16} {...CHART_AXIS} />
        <YAxis width={40} allowDecimals={false} {...CHART_AXIS} />
        <Tooltip labelFormatter={(label) => `Week of ${shortWeek(String(label))}`} />
        <Bar dataKey="licences" name="Licences" fill={chartColor(0)} isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}
