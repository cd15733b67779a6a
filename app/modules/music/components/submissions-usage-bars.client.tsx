import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { shortWeek, type UsagePointView } from "./submissions-usage";

// The drawing of the usage chart (submissions-usage.tsx): recharts in its own chunk, loaded with
// React.lazy after hydration, so /music/submissions' first load does not carry it.

export default function SubmissionsUsageBars({ usage }: { usage: UsagePointView[] }) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={usage} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
        <CartesianGrid stroke="#e2e8f0" strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="week" tickFormatter={shortWeek} minTickGap={16} tick={{ fill: "#475569", fontSize: 12 }} stroke="#94a3b8" />
        <YAxis width={40} allowDecimals={false} tick={{ fill: "#475569", fontSize: 12 }} stroke="#94a3b8" />
        <Tooltip labelFormatter={(label) => `Week of ${shortWeek(String(label))}`} />
        <Bar dataKey="licences" name="Licences" fill="#0f172a" isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}
