// The look the recharts drawings share (/analytics, /growth, the music partner's usage; each in its
// own *.client.tsx chunk inside a ChartFigure): one palette, the grid, the axes' ticks, and how a
// series is drawn as a line.

/** Distinct and dark enough on white (≥ 3:1) for lines and bars; the first, slate, is the total or the only series. */
export const CHART_COLORS = ["#0f172a", "#be123c", "#0369a1", "#047857", "#7c3aed", "#b45309", "#a21caf", "#4d7c0f"];

/** The i-th series' colour (the palette again from the start past its end). */
export const chartColor = (i: number) => CHART_COLORS[i % CHART_COLORS.length];

/** The dashed background grid (`<CartesianGrid {...CHART_GRID} />`). */
export const CHART_GRID = { stroke: "#e2e8f0", strokeDasharray: "3 3" };

/** An axis' line and tick labels (`<XAxis {...CHART_AXIS} />`). */
export const CHART_AXIS = { tick: { fill: "#475569", fontSize: 12 }, stroke: "#94a3b8" };

/** The i-th series as a straight-segment line in its colour, drawn at once (`<Line key={s.key} {...seriesLine(s, i)} />`). */
export function seriesLine(s: { key: string; label: string }, i: number) {
  return { type: "linear" as const, dataKey: s.key, name: s.label, stroke: chartColor(i), isAnimationActive: false };
}
