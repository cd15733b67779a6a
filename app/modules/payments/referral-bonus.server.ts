import { and, eq, isNotNull, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { ledgerEntries } from "~/db/schema";
import { growthPeople, inJsonList } from "~/modules/accounts/accounts.server";
import { bonusShareBp, inReferralTerm } from "./referral-rules";
import { db } from "~/platform/db.server";
import { getSettings } from "~/platform/settings.server";
import { split } from "~/lib/split";
import { countedEntries } from "./counted";

// The referral bonus, the payments module's part (issue 18; docs/decisions/0173-referral-bonus.md).
// When an admin's revenue import is staged, each referrer whose referred creators earned music
// revenue that month (their 'music' entries and their side of 'clip' entries: clip revenue is
// music-pool revenue, docs/decisions/0155-referral-bonus-on-clip-earnings.md), within the first 12 months of the referred creator's term, gets ONE
// 'referral' entry under the same import: the referred creators' net summed, the bonus share (the
// admin setting, off by default) and the amount. It is paid from the platform's side: the referred
// creator's own music entries (their 70%) are not touched, and the bonus never exceeds the
// platform's part. One entry per referrer and month (source '') so no statement shows what one
// referred person earned. A banned referrer earns nothing new. The entries follow their import:
// invisible while staged, live with the commit, gone when replaced, finalized with the month.

type Entry = typeof ledgerEntries.$inferInsert;

/** The referral entries of a staged import, from its music and clip entries. Empty when the bonus is off. */
export async function referralBonusEntries(music: readonly Entry[], month: string, importId: string): Promise<Entry[]> {
  const settingBp = (await getSettings()).referralBonusBp;
  if (settingBp <= 0 || music.length === 0) return [];
  const netByUser = new Map<string, number>();
  let creatorShareBp = 0;
  for (const e of music) {
    // A clip entry's net is the part of the clip's music-pool revenue attributed to that side.
    if (e.sourceKind !== "music" && e.sourceKind !== "clip") continue;
    netByUser.set(e.userId, (netByUser.get(e.userId) ?? 0) + e.netCents);
    creatorShareBp = Math.max(creatorShareBp, e.shareBp);
  }
  const shareBp = bonusShareBp(settingBp, creatorShareBp);
  if (shareBp === 0) return [];
  const p = growthPeople();
  const referred = await db()
    .select({ userId: p.userId, referrerId: p.referrerId, channelLinkedAt: p.channelLinkedAt, referrerBanned: p.referrerBanned })
    .from(p)
    .where(and(isNotNull(p.referredBy), inJsonList(p.userId, [...netByUser.keys()])))
    .all();
  const netByReferrer = new Map<string, number>();
  for (const r of referred) {
    if (!r.referrerId || r.referrerBanned || !inReferralTerm(month, r.channelLinkedAt)) continue;
    netByReferrer.set(r.referrerId, (netByReferrer.get(r.referrerId) ?? 0) + (netByUser.get(r.userId) ?? 0));
  }
  const out: Entry[] = [];
  for (const [userId, netCents] of netByReferrer) {
    const amountCents = split(netCents, shareBp).share;
    if (amountCents === 0) continue;
    out.push({ id: crypto.randomUUID(), userId, month, sourceKind: "referral", sourceId: "", netCents, shareBp, amountCents, importId });
  }
  return out;
}

/** The person has earned money (a counted, positive entry that is not a referral bonus): the funnel's last step. */
export function hasEarnings(userId: SQLiteColumn | SQL): SQL<boolean> {
  return sql<boolean>`exists (select 1 from ${ledgerEntries} where ${ledgerEntries.userId} = ${userId} and ${ledgerEntries.sourceKind} <> 'referral' and ${ledgerEntries.amountCents} > 0 and ${countedEntries()})`;
}

/** A referrer's bonus in total: earned (finalized or paid) and upcoming (estimated), in cents. A query for a batch. */
export function referralBonusTotalsQuery(userId: string) {
  return db()
    .select({
      earnedCents:
        sql<number>`coalesce(sum(case when ${ledgerEntries.status} in ('finalized', 'paid') then ${ledgerEntries.amountCents} else 0 end), 0)`.mapWith(Number),
      upcomingCents: sql<number>`coalesce(sum(case when ${ledgerEntries.status} = 'estimated' then ${ledgerEntries.amountCents} else 0 end), 0)`.mapWith(
        Number,
      ),
    })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.sourceKind, "referral"), countedEntries()));
}
