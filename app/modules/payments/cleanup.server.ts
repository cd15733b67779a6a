import { and, eq, inArray, lt } from "drizzle-orm";
import { ledgerEntries, revenueImports } from "~/db/schema";
import { db } from "~/platform/db.server";

// Abandoned previews (docs/decisions/0131): a preview stages its entries under a 'staged' import
// until the admin commits or discards it. One left waiting longer than a day is discarded by the
// daily job with its entries, in one batch: the guarded update ('staged' → 'discarded') first, so
// a commit running at the same moment either went live before it (not staged any more: untouched)
// or finds the import gone ("no longer waiting to be committed").

export const STAGED_IMPORT_TTL_MS = 24 * 60 * 60 * 1000;

export async function discardAbandonedImports(now = new Date()): Promise<{ imports: number; entries: number }> {
  const cutoff = new Date(now.getTime() - STAGED_IMPORT_TTL_MS).toISOString();
  const [gone, deleted] = await db().batch([
    db()
      .update(revenueImports)
      .set({ status: "discarded" })
      .where(and(eq(revenueImports.status, "staged"), lt(revenueImports.createdAt, cutoff)))
      .returning({ id: revenueImports.id }),
    // The entries of every discarded import (this run's, and any a failed discard left behind).
    db()
      .delete(ledgerEntries)
      .where(inArray(ledgerEntries.importId, db().select({ id: revenueImports.id }).from(revenueImports).where(eq(revenueImports.status, "discarded"))))
      .returning({ id: ledgerEntries.id }),
  ]);
  return { imports: gone.length, entries: deleted.length };
}
