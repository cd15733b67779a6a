import { split, WHOLE_BP } from "~/lib/split";

// The clip split of one month's clip revenue (docs/decisions/0150-clip-split.md). Pure and
// client-safe; tests/unit/clipping/split-days.test.ts (property tests).
//
// A clip's revenue is music-pool revenue: the creator's share of it (what the creator would get
// for the video) is divided between clipper and creator. A split applies from the moment the
// creator confirmed it; a month is shared pro rata by UTC days, each day under the split in force
// when the day began (00:00 UTC), so a split confirmed during a day applies from the next day and
// never to revenue from before its confirmation. The pool part is first divided among the days'
// runs without losing a cent (cumulative floors), then each run by its split with split().

export type SplitChange = { at: string; bps: number };

export type DaySegment = { fromDay: number; toDay: number; bps: number; poolCents: number; clipperCents: number };

export type ClipSplitResult = { poolCents: number; clipperCents: number; creatorCents: number; segments: DaySegment[] };

export function daysInMonth(month: string): number {
  const [y = Number.NaN, m = Number.NaN] = month.split("-").map(Number); // a missing part is NaN, as before
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** The clipper's share (basis points) in force at `instant`: the latest change at or before it, else `initialBps`. */
export function bpsAt(changes: readonly SplitChange[], initialBps: number, instant: number): number {
  let bps = initialBps;
  let latest = -Infinity;
  for (const c of changes) {
    const t = Date.parse(c.at);
    if (t <= instant && t >= latest) {
      latest = t;
      bps = c.bps;
    }
  }
  return bps;
}

/** Runs of days (1-based, inclusive) of `month` under one split. */
export function daySegments(month: string, changes: readonly SplitChange[], initialBps: number): { fromDay: number; toDay: number; bps: number }[] {
  const [y = Number.NaN, m = Number.NaN] = month.split("-").map(Number); // a missing part is NaN, as before
  const days = daysInMonth(month);
  const runs: { fromDay: number; toDay: number; bps: number }[] = [];
  for (let d = 1; d <= days; d++) {
    const bps = bpsAt(changes, initialBps, Date.UTC(y, m - 1, d));
    const last = runs.at(-1);
    if (last && last.bps === bps) last.toDay = d;
    else runs.push({ fromDay: d, toDay: d, bps });
  }
  return runs;
}

/**
 * Splits a clip's month: `netCents` is the clip's revenue, `creatorShareBp` the creator's share of
 * the music pool. clipperCents + creatorCents === poolCents === split(netCents, creatorShareBp).share.
 */
export function splitClipMonth(netCents: number, creatorShareBp: number, month: string, changes: readonly SplitChange[], initialBps: number): ClipSplitResult {
  const poolCents = split(netCents, creatorShareBp).share;
  const days = daysInMonth(month);
  const runs = daySegments(month, changes, initialBps);
  const segments: DaySegment[] = [];
  let cumulative = 0;
  let allocated = 0;
  for (const run of runs) {
    cumulative += run.toDay - run.fromDay + 1;
    // floor(pool × cumulative / days), exactly (BigInt), so the runs add up to the pool.
    const upTo = Number((BigInt(poolCents) * BigInt(cumulative)) / BigInt(days));
    const part = upTo - allocated;
    allocated = upTo;
    segments.push({ ...run, poolCents: part, clipperCents: split(part, run.bps).share });
  }
  const clipperCents = segments.reduce((s, x) => s + x.clipperCents, 0);
  return { poolCents, clipperCents, creatorCents: poolCents - clipperCents, segments };
}

/** The clipper's effective share of the clip's net revenue, in basis points (for the entry's record). */
export function effectiveBp(partCents: number, netCents: number): number {
  if (netCents <= 0) return 0;
  return Math.min(WHOLE_BP, Math.max(0, Math.round((partCents * WHOLE_BP) / netCents)));
}
