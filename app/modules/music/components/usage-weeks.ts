// The weeks of the licences-per-week chart, shared by its table (submissions-usage.tsx) and its
// drawing (submissions-usage-bars.client.tsx). Here, below both, so that the drawing does not import
// the table that loads it (no import cycle: tests/unit/architecture.test.ts).

export type UsagePointView = { week: string; licences: number };

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** "2026-03-02" → "2 Mar" (the chart's axis). */
export const shortWeek = (week: string) => {
  const [, m, d] = week.split("-");
  return `${Number(d)} ${MONTHS[Number(m) - 1]}`;
};
