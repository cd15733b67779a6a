// Pure analytics rules (client-safe, unit-tested): the date range, the daily series built from
// channel snapshots, growth over the range, and the CSV of what is shown.

import { formatCount } from "~/lib/format";
import { csvCell, toCsv } from "~/lib/csv";

// No 90-day range: YouTube statistics are kept 30 days (the snapshots older than SNAPSHOT_RETENTION_DAYS
// are pruned daily, decision 0304), so the charts show only what is kept.
export const ANALYTICS_RANGES = [7, 30] as const;
/** Days of daily channel snapshots kept before today: the 30-day range and its baseline day. */
export const SNAPSHOT_RETENTION_DAYS = 30;
export type AnalyticsRange = (typeof ANALYTICS_RANGES)[number];
export const DEFAULT_RANGE: AnalyticsRange = 30;

export const METRICS = ["subscribers", "views", "videos"] as const;
export type Metric = (typeof METRICS)[number];
export const METRIC_LABELS: Record<Metric, string> = { subscribers: "Subscribers", views: "Views", videos: "Videos" };

/** The range from the URL query; anything else is the default. */
export function parseRange(value: string | null | undefined): AnalyticsRange {
  const n = Number(value);
  return (ANALYTICS_RANGES as readonly number[]).includes(n) ? (n as AnalyticsRange) : DEFAULT_RANGE;
}

/** The UTC days of the range, oldest first, ending today: YYYY-MM-DD. */
export function rangeDays(range: number, today: Date = new Date()): string[] {
  const end = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  return Array.from({ length: range }, (_, i) => new Date(end - (range - 1 - i) * 86_400_000).toISOString().slice(0, 10));
}

export type Snapshot = { channelRowId: string; day: string; subscribers: number; views: number; videos: number };
export type Values = Record<Metric, number>;
export type Point = { day: string } & Record<Metric, number | null>;
export type Growth = { start: number | null; end: number | null; change: number | null; percent: number | null };
export type SeriesSummary = { points: Point[]; latest: Values | null; growth: Record<Metric, Growth> };
export type ChannelSeries = SeriesSummary & { id: string; channelId: string; title: string; handle: string | null };
export type AnalyticsData = {
  range: AnalyticsRange;
  days: string[];
  channels: ChannelSeries[];
  total: SeriesSummary;
  /** Some channel has at least one snapshot inside the range. */
  hasData: boolean;
};

export function growthOf(start: number | null, end: number | null): Growth {
  if (start === null || end === null) return { start, end, change: null, percent: null };
  const change = end - start;
  return { start, end, change, percent: start > 0 ? (change / start) * 100 : null };
}

function summarize(points: Point[], carried: (Values | null)[]): SeriesSummary {
  const first = carried.find((v) => v !== null) ?? null;
  const last = [...carried].reverse().find((v) => v !== null) ?? null;
  const growth = Object.fromEntries(METRICS.map((m) => [m, growthOf(first ? first[m] : null, last ? last[m] : null)])) as Record<Metric, Growth>;
  return { points, latest: last, growth };
}

/**
 * Builds the series. A channel's own line shows only the days it has a snapshot for; growth
 * and the total carry each channel's last known value forward (from the newest snapshot before
 * the range, when there is one), so a day a refresh missed is not a dip in the total.
 */
export function buildAnalytics(
  range: AnalyticsRange,
  days: string[],
  channels: { id: string; channelId: string; title: string; handle: string | null }[],
  snapshots: Snapshot[],
  baselines: Snapshot[] = [],
): AnalyticsData {
  const byChannel = new Map<string, Map<string, Values>>();
  for (const s of snapshots) {
    let days = byChannel.get(s.channelRowId);
    if (!days) {
      days = new Map();
      byChannel.set(s.channelRowId, days);
    }
    days.set(s.day, { subscribers: s.subscribers, views: s.views, videos: s.videos });
  }
  const baselineOf = new Map(baselines.map((b) => [b.channelRowId, { subscribers: b.subscribers, views: b.views, videos: b.videos }]));

  const carriedByChannel: (Values | null)[][] = [];
  const series: ChannelSeries[] = channels.map((c) => {
    const own = byChannel.get(c.id) ?? new Map<string, Values>();
    let last: Values | null = baselineOf.get(c.id) ?? null;
    const carried: (Values | null)[] = [];
    const points: Point[] = days.map((day) => {
      const v = own.get(day) ?? null;
      if (v) last = v;
      carried.push(last);
      return { day, subscribers: v?.subscribers ?? null, views: v?.views ?? null, videos: v?.videos ?? null };
    });
    carriedByChannel.push(carried);
    return { id: c.id, channelId: c.channelId, title: c.title, handle: c.handle, ...summarize(points, carried) };
  });

  const totalCarried: (Values | null)[] = days.map((_, i) => {
    const known = carriedByChannel.map((cs) => cs[i]).filter((v): v is Values => v !== null);
    if (known.length === 0) return null;
    return {
      subscribers: known.reduce((a, v) => a + v.subscribers, 0),
      views: known.reduce((a, v) => a + v.views, 0),
      videos: known.reduce((a, v) => a + v.videos, 0),
    };
  });
  const totalPoints: Point[] = days.map((day, i) => ({
    day,
    subscribers: totalCarried[i]?.subscribers ?? null,
    views: totalCarried[i]?.views ?? null,
    videos: totalCarried[i]?.videos ?? null,
  }));

  const [first, last] = [days[0], days.at(-1)];
  const hasData = first !== undefined && last !== undefined && snapshots.some((s) => s.day >= first && s.day <= last);
  return { range, days, channels: series, total: summarize(totalPoints, totalCarried), hasData };
}

/** A CSV cell (app/lib/csv.ts, shared with the payments downloads). */
export { csvCell };

/** The visible range as CSV: one row per channel and day with a snapshot, then the daily totals. */
export function analyticsCsv(data: AnalyticsData): string {
  const rows: (string | number | null)[][] = [["date", "channel", "channel_id", "subscribers", "views", "videos"]];
  for (const c of data.channels) {
    for (const p of c.points) {
      if (p.subscribers === null && p.views === null && p.videos === null) continue;
      rows.push([p.day, c.title, c.channelId, p.subscribers, p.views, p.videos]);
    }
  }
  for (const p of data.total.points) {
    if (p.subscribers === null) continue;
    rows.push([p.day, "All channels", "", p.subscribers, p.views, p.videos]);
  }
  return toCsv(rows);
}

const compact = new Intl.NumberFormat("en-US", { notation: "compact", maximumSignificantDigits: 4 });

export function formatCompact(n: number): string {
  return compact.format(n);
}

/** "+1,234 (+2.6%)", "−12 (−0.4%)", "0 (0.0%)", or "—" with nothing to compare. */
export function formatGrowth(g: Growth): string {
  if (g.change === null) return "—";
  const sign = g.change > 0 ? "+" : g.change < 0 ? "−" : "";
  const abs = formatCount(Math.abs(g.change));
  if (g.percent === null) return `${sign}${abs}`;
  const pct = Math.abs(g.percent).toFixed(1);
  return `${sign}${abs} (${sign}${pct}%)`;
}
