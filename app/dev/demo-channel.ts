// The demo channel's statistics ("Casey Creates", linked by creator@shortbeat.test). The seed
// stores 90 days of them as snapshots; the local stand-in provider answers with today's, so
// reconnecting the demo channel in development continues its history without a jump.

export const DEMO_CHANNEL = {
  channelId: "UCdemoCaseyCreates0001",
  title: "Casey Creates",
  handle: "@caseycreates",
  description: "Daily Shorts about cooking fails and wins.",
} as const;

/**
 * The demo channel's daily numbers: steady growth since it was linked (15 September 2025) with
 * a weekly rhythm (busier weekends), deterministic for each date and never decreasing.
 */
export function demoChannelSnapshots(today: Date, days: number) {
  const linked = Date.UTC(2025, 8, 15);
  const end = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  const rhythm = [3, 5, 8, 6, 4, 9, 7];
  const weekSum = rhythm.reduce((a, b) => a + b, 0);
  // Sum of the rhythm over the first n days.
  const pulse = (n: number) => Math.floor(n / 7) * weekSum + rhythm.slice(0, n % 7).reduce((a, b) => a + b, 0);
  return Array.from({ length: days }, (_, i) => {
    const at = end - (days - 1 - i) * 86_400_000;
    const day = new Date(at).toISOString().slice(0, 10);
    const n = Math.max(0, Math.round((at - linked) / 86_400_000));
    return {
      id: `00000000-0000-4000-8201-${day.replace(/-/g, "").padStart(12, "0")}`,
      day,
      subscribers: 30_000 + 30 * n + 2 * pulse(n),
      views: 5_000_000 + 7_000 * n + 600 * pulse(n),
      videos: 200 + Math.floor(n / 4),
    };
  });
}
