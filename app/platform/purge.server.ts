// Deleting many old rows without one statement that runs too long (docs/decisions/0337). A daily
// retention job deletes in chunks of `chunk` rows (each a DELETE … WHERE id IN (SELECT … LIMIT n)),
// at most `maxChunks` a run: at 100,000 creators a first run meets millions of rows, one D1 query may
// run for 30 s at most and a Worker invocation may make 1,000 queries (Workers Paid;
// https://developers.cloudflare.com/d1/platform/limits/), shared by every job of the daily cron. What
// is left over goes the next day.

export type PurgeLimits = { chunk?: number; maxChunks?: number };

/** Rows per DELETE. */
export const PURGE_CHUNK = 5_000;
/**
 * DELETEs per run and table: 100,000 rows a day, above what 100,000 creators add (about 82,000 bell
 * rows and 16,000 e-mails a day, docs/scale.md), so a backlog drains and the steady state keeps up.
 */
export const PURGE_MAX_CHUNKS = 20;

/** Calls `deleteChunk(limit)` until it deletes fewer than `limit` rows (or `maxChunks` times); returns the rows deleted. */
export async function purgeInChunks(deleteChunk: (limit: number) => Promise<number>, limits: PurgeLimits = {}): Promise<number> {
  const chunk = Math.max(1, limits.chunk ?? PURGE_CHUNK);
  const maxChunks = Math.max(1, limits.maxChunks ?? PURGE_MAX_CHUNKS);
  let total = 0;
  for (let i = 0; i < maxChunks; i++) {
    const deleted = await deleteChunk(chunk);
    total += deleted;
    if (deleted < chunk) break;
  }
  return total;
}
