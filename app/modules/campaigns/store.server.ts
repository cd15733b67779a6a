import { eq, sql } from "drizzle-orm";
import { campaignParticipants, campaigns } from "~/db/schema";
import { peopleByIds } from "~/modules/accounts/accounts.server";
import { createNotification } from "~/modules/notifications/notifications.server";
import { db } from "~/platform/db.server";
import { emailsQuery } from "~/platform/email.server";
import { getSettings } from "~/platform/settings.server";
import { nextPayoutDate } from "~/modules/payments/calendar";
import { campaignState } from "./rules";

// What the campaign files share: the state conditions in SQL (the same as rules.ts says in
// TypeScript), reading a campaign, the payout date, and telling participants (bell + e-mail).

export type CampaignRow = typeof campaigns.$inferSelect;

export const nowIso = () => new Date().toISOString();

/** Live at `now`: launched, started, not ended (by date or early). */
export const liveAt = (now: string) =>
  sql`(${campaigns.status} = 'launched' and ${campaigns.startsAt} <= ${now} and ${campaigns.endsAt} > ${now} and (${campaigns.endedAt} is null or ${campaigns.endedAt} > ${now}))`;

/** Ended at `now` and not settled yet. */
export const endedAt = (now: string) =>
  sql`(${campaigns.status} = 'launched' and (${campaigns.endsAt} <= ${now} or (${campaigns.endedAt} is not null and ${campaigns.endedAt} <= ${now})))`;

export async function campaignById(id: string): Promise<CampaignRow | undefined> {
  return db().select().from(campaigns).where(eq(campaigns.id, id)).get();
}

export function stateOf(row: CampaignRow, now = new Date()) {
  return campaignState(row, now);
}

/** The first payout date (YYYY-MM-DD) on or after `now`: the payout day setting, Monday after a weekend. */
export async function payoutDateFrom(now: Date): Promise<string> {
  return nextPayoutDate(now, (await getSettings()).payoutDayOfMonth);
}

export async function participantIds(campaignId: string): Promise<string[]> {
  const rows = await db().select({ userId: campaignParticipants.userId }).from(campaignParticipants).where(eq(campaignParticipants.campaignId, campaignId));
  return rows.map((r) => r.userId);
}

/**
 * Tells people about a campaign: ONE bell notification for all of them and their e-mails, written
 * in one D1 batch (the notifications fan-out: user rows in chunks, pushes in slices afterwards).
 * `emailText` personalises each e-mail (e.g. the person's amount); the bell says the shared
 * `content`. Runs after the change is stored; a failure here is logged, never undoes it.
 */
export async function tell(
  userIds: readonly string[],
  message: { title: string; content: string; kind: string; subject: string },
  emailText: (userId: string) => string = () => message.content,
): Promise<void> {
  if (userIds.length === 0) return;
  try {
    const people = await peopleByIds(userIds);
    const mails = [...people.entries()].filter(([, p]) => !p.isBanned).map(([id, p]) => ({ to: p.email, text: `${emailText(id)}\n` }));
    await createNotification(
      { title: message.title, content: message.content, kind: message.kind },
      { type: "ids", userIds: [...userIds] },
      { audienceTag: "users", extra: () => emailsQuery(mails, message.subject, message.kind) },
    );
  } catch (error) {
    console.error("campaign notification failed", error);
  }
}
