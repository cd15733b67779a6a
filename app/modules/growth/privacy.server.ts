import { eq } from "drizzle-orm";
import { retentionNotices, retentionPeople, userActivityDays } from "~/db/schema";
import { db } from "~/platform/db.server";

// The growth domain's part of a data export and of an account deletion (issue 28).

export async function growthDataFor(userId: string) {
  const [days, nudges] = await db().batch([
    db().select({ day: userActivityDays.day }).from(userActivityDays).where(eq(userActivityDays.userId, userId)),
    db()
      .select({ week: retentionNotices.week, inactiveDays: retentionNotices.inactiveDays, sentAt: retentionNotices.createdAt })
      .from(retentionNotices)
      .where(eq(retentionNotices.userId, userId)),
  ]);
  return { activeDays: days.map((d) => d.day), inactivityNudges: nudges };
}

/** A deleted account's activity, nudges and snapshot row go (weekly totals already counted stay, as numbers). */
export function eraseGrowthDataQueries(userId: string) {
  return [
    db().delete(userActivityDays).where(eq(userActivityDays.userId, userId)),
    db().delete(retentionNotices).where(eq(retentionNotices.userId, userId)),
    db().delete(retentionPeople).where(eq(retentionPeople.userId, userId)),
  ] as const;
}
