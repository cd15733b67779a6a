import { expectAt } from "~/lib/arrays";
import type { BatchItem } from "drizzle-orm/batch";
import { and, lt, ne, or, sql } from "drizzle-orm";
import { channelSnapshots, youtubeChannels } from "~/db/schema";
import { DomainError } from "~/lib/errors";
import { auditQuery } from "~/platform/audit.server";
import { db } from "~/platform/db.server";
import { jobRequest } from "~/platform/env.server";
import { SNAPSHOT_RETENTION_DAYS } from "./analytics";
import { channelsToSync, syncChannel } from "./links.server";

// The daily job (wrangler.toml: crons = ["17 3 * * *"]): refresh every linked channel that has
// a stored authorization, in batches of parallel refreshes. One bad channel never stops the
// rest (Promise.allSettled); each failure is recorded in the audit log. See docs/decisions/0031.
// The same run prunes the snapshots older than 30 days (decision 0304).

/** Refreshes in flight at once. */
export const CRON_BATCH_SIZE = 20;
/**
 * Channels per run. Each refresh costs one or two provider calls plus D1 queries, and one
 * invocation has a subrequest budget; least recently synced go first, so a backlog drains
 * over consecutive runs.
 */
export const CRON_MAX_CHANNELS = 400;

export type CronFailure = { channelRowId: string; channelId: string; reason: string; reconnect: boolean };
export type CronSummary = { total: number; refreshed: number; failed: CronFailure[] };

/**
 * Deletes the daily snapshots older than the kept window (decision 0304): YouTube's API policies
 * limit how long statistics are stored (developers.google.com/youtube/terms/developer-policies,
 * "Refreshing, Storing, and Displaying API Data": 30 days), and the charts read no further back.
 */
export function pruneSnapshotsQuery(now: Date) {
  const oldest = new Date(now.getTime() - SNAPSHOT_RETENTION_DAYS * 86_400_000).toISOString().slice(0, 10);
  return db().delete(channelSnapshots).where(lt(channelSnapshots.day, oldest));
}

/**
 * A linked channel's statistics (subscribers, views, videos), description and picture are YouTube API
 * data: kept only while refreshed. The daily refresh renews them while the creator's grant works; when
 * it stops (access revoked, the refresh failing), they are cleared once they are older than the same
 * 30 days (decision 0337; YouTube API Services Developer Policies, "Refreshing, Storing, and
 * Displaying API Data": https://developers.google.com/youtube/terms/developer-policies). The channel's
 * id, title and handle stay: they name the link the creator made (and revenue matched to it), and go
 * with it on disconnect or deletion. A later refresh fills the statistics again. Returns the channels cleared.
 */
export async function clearStaleChannelStatistics(now = Date.now()): Promise<number> {
  const before = new Date(now - SNAPSHOT_RETENTION_DAYS * 86_400_000).toISOString();
  const c = youtubeChannels;
  const result = await db()
    .update(c)
    .set({ subscriberCount: 0, viewCount: 0, videoCount: 0, description: null, thumbnailUrl: null })
    .where(
      and(
        lt(sql`coalesce(${c.lastSyncedAt}, ${c.createdAt})`, before),
        or(ne(c.subscriberCount, 0), ne(c.viewCount, 0), ne(c.videoCount, 0), sql`${c.description} is not null`, sql`${c.thumbnailUrl} is not null`),
      ),
    )
    .run();
  return result.meta.changes ?? 0;
}

export async function runDailyChannelRefresh(opts: { now?: Date; batchSize?: number; limit?: number; sync?: typeof syncChannel } = {}): Promise<CronSummary> {
  const batchSize = Math.max(1, opts.batchSize ?? CRON_BATCH_SIZE);
  const sync = opts.sync ?? syncChannel;
  const now = opts.now ?? new Date();
  const request = jobRequest("/__cron/channels");
  const targets = await channelsToSync(opts.limit ?? CRON_MAX_CHANNELS);
  const failed: CronFailure[] = [];
  let refreshed = 0;

  for (let i = 0; i < targets.length; i += batchSize) {
    const batch = targets.slice(i, i + batchSize);
    const results = await Promise.allSettled(batch.map((t) => sync(request, t, now)));
    results.forEach((r, j) => {
      if (r.status === "fulfilled") {
        refreshed++;
        return;
      }
      const error = r.reason as Error;
      const target = expectAt(batch, j, "sync results per channel");
      failed.push({
        channelRowId: target.id,
        channelId: target.channelId,
        reason: error instanceof Error ? error.message : String(error),
        reconnect: error instanceof DomainError && error.details?.reconnect === true,
      });
    });
  }

  const summary: CronSummary = { total: targets.length, refreshed, failed };
  try {
    await db().batch([
      pruneSnapshotsQuery(now),
      auditQuery({
        eventType: "channel_refresh_run",
        details: { total: summary.total, refreshed, failed: failed.length },
      }),
      ...failed.map((f) =>
        auditQuery({
          eventType: "channel_refresh_failed",
          severity: f.reconnect ? "low" : "medium",
          targetUserId: targets.find((t) => t.id === f.channelRowId)?.userId ?? null,
          details: { channel_row_id: f.channelRowId, channel_id: f.channelId, reason: f.reason, reconnect_needed: f.reconnect },
        }),
      ),
    ] as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  } catch (error) {
    console.error("could not record the channel refresh run", error);
  }
  if (failed.length) console.warn(`channel refresh: ${refreshed}/${summary.total} refreshed, ${failed.length} failed`);
  return summary;
}
