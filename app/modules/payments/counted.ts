import { type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { ledgerEntries, revenueMonths } from "~/db/schema";

/**
 * Ledger entries that count: written by hand (no import), or by the live import of their month. A
 * staged or replaced import's entries are invisible wherever money is shown or summed: /payments,
 * /analytics, the roster, per-clip earnings, the referral bonus (docs/decisions/0132). `importId`
 * is the entry's import column, or its alias in a correlated query (sql`le.import_id`).
 */
export const countedEntries = (importId: SQLiteColumn | SQL = ledgerEntries.importId): SQL =>
  sql`(${importId} is null or ${importId} in (select ${revenueMonths.liveImportId} from ${revenueMonths} where ${revenueMonths.liveImportId} is not null))`;
