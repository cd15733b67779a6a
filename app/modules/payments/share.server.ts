import { and, eq, isNotNull, lte, type SQL, sql } from "drizzle-orm";
import { shareOffers } from "~/db/schema";
import { builtOnce, db, inJsonList } from "~/platform/db.server";
import { getSettings } from "~/platform/settings.server";
import { percentToBp } from "~/lib/split";

// The creator's share at a month (docs/decisions/0123-share-at-a-month.md, 0129): the standard
// share of the admin settings (app_settings 'creator_share_percent', 70 by default) stays the single
// source; a revised share the creator expressly accepted applies from its effective month (the
// month after acceptance) on. It is read when a month's revenue is imported and stored on each
// entry in basis points, so a later change never rewrites a month already imported.

export async function standardShareBp(): Promise<number> {
  return percentToBp((await getSettings()).creatorSharePercent);
}

/** The share (basis points) of `userId` for revenue of `month`: their latest accepted revised share in force, else the standard share. */
export async function creatorShareBpAt(month: string, userId?: string): Promise<number> {
  const standardBp = await standardShareBp();
  return userId ? shareInForce(await revisedSharesOfQuery([userId], month).all(), standardBp) : standardBp;
}

/**
 * The revised shares in force at `month` of these people, as one statement (for a batch): oldest
 * first, so that in `new Map(rows)` the latest in force wins, as in creatorShareBpAt. People on the
 * standard share have no row.
 */
export function revisedSharesOfQuery(userIds: readonly string[], month: string) {
  return revisedSharesStatement({ userIds: JSON.stringify(userIds), month });
}

/**
 * The rule both readers share: the revised shares accepted and in force at `month` (a value or a
 * builtOnce slot), read oldest first so that the latest in force comes last.
 */
function revisedSharesInForce(month: string, among?: SQL) {
  return db()
    .select({ userId: shareOffers.userId, shareBp: shareOffers.shareBp })
    .from(shareOffers)
    .where(and(among, eq(shareOffers.status, "accepted"), isNotNull(shareOffers.effectiveMonth), lte(shareOffers.effectiveMonth, month)))
    .orderBy(shareOffers.effectiveMonth, shareOffers.respondedAt);
}

/** revisedSharesOfQuery's select for the people of an SQL subquery (e.g. over the session's user), to build once. */
export const revisedSharesAmong = (userIds: SQL, month: string) => revisedSharesInForce(month, sql`${shareOffers.userId} in (${userIds})`);

const revisedSharesStatement = builtOnce((slot) => revisedSharesInForce(slot<string>("month"), inJsonList(shareOffers.userId, slot("userIds"))));

/** One person's share from revisedSharesOfQuery's rows for them: the latest revised share in force, else the standard one. */
export function shareInForce(revisedRows: readonly { shareBp: number }[], standardBp: number): number {
  return revisedRows.at(-1)?.shareBp ?? standardBp;
}

/**
 * Every revised share in force at `month`, by person (the import's bulk form of creatorShareBpAt):
 * one statement over the accepted offers, which are few; people on the standard share are absent.
 */
export async function revisedSharesAt(month: string): Promise<Map<string, number>> {
  const rows = await revisedSharesInForce(month);
  // Ascending, so the latest in force wins.
  return new Map(rows.map((r) => [r.userId, r.shareBp]));
}

export async function payoutDay(): Promise<number> {
  return (await getSettings()).payoutDayOfMonth;
}
