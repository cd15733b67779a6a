import { and, eq, sql } from "drizzle-orm";
import { campaignSubmissions, campaigns } from "~/db/schema";
import { notifyUserQuietly } from "~/modules/notifications/notifications.server";
import { formatCents } from "~/modules/payments/money";
import { db } from "~/platform/db.server";
import { CAMPAIGN_MESSAGES as M, type RaiseCause } from "./messages";
import type { CampaignRow } from "./store.server";

// A campaign's budget is spent in SQL: a submission's amount is min(views / 1,000 × its rate,
// budget − what the others hold), and the campaign's spent_cents is re-summed in the same batch,
// so two reviews at once never spend it twice (D1 runs a batch as one transaction). Used by the
// review, the edit and the daily views job.

/** The submission's amount at `views`: its own rate, capped by the budget left (what the others hold). */
// D1 binds a JS number as a REAL: cast, or 12,345 views × 250 / 1000 would store 3086.25 cents.
export const cappedAmount = (views: number) =>
  sql`max(0, min((cast(${views} as integer) * ${campaignSubmissions.rateCents}) / 1000, (select ${campaigns.budgetCents} - ${campaigns.spentCents} from ${campaigns} where ${campaigns.id} = ${campaignSubmissions.campaignId}) + ${campaignSubmissions.amountCents}))`;

/** The campaign's spent_cents, re-summed from its approved submissions. */
export const resumSpent = (campaignId: string, at: string) =>
  db()
    .update(campaigns)
    .set({
      spentCents: sql`(select coalesce(sum(${campaignSubmissions.amountCents}), 0) from ${campaignSubmissions} where ${campaignSubmissions.campaignId} = ${campaignId} and ${campaignSubmissions.status} = 'approved')`,
      updatedAt: at,
    })
    .where(eq(campaigns.id, campaignId));

/**
 * Freed budget goes back to the capped submissions (docs/decisions/0143): every approved submission
 * holding less than it earned is raised, oldest review first, by what is free (budget − the sum of
 * the approved amounts), each at most to what it earned. One statement in the review's (or the
 * edit's) batch, before spent_cents is re-summed: the same transaction, so it never spends twice.
 */
export const raiseCapped = (campaignId: string, at: string, cause: RaiseCause) => {
  const earned = sql`(${campaignSubmissions.views} * ${campaignSubmissions.rateCents}) / 1000`;
  // Both subqueries are correlated with the row being updated (named by its table: drizzle writes an
  // UPDATE's columns unqualified, which inside them would mean f or o), so SQLite evaluates them per
  // row on the table as it is then, never once for all rows. Raising a row reviewed earlier lowers
  // both by the same amount; free − before is the same whichever row SQLite visits first.
  const free = sql`((select ${campaigns.budgetCents} from ${campaigns} where ${campaigns.id} = campaign_submissions.campaign_id)
    - (select coalesce(sum(f.amount_cents), 0) from ${campaignSubmissions} f where f.campaign_id = campaign_submissions.campaign_id and f.status = 'approved'))`;
  // What the capped submissions reviewed before this one still lack.
  const before = sql`(select coalesce(sum((o.views * o.rate_cents) / 1000 - o.amount_cents), 0) from ${campaignSubmissions} o
    where o.campaign_id = campaign_submissions.campaign_id and o.status = 'approved' and o.amount_cents < (o.views * o.rate_cents) / 1000
    and (o.reviewed_at < campaign_submissions.reviewed_at or (o.reviewed_at = campaign_submissions.reviewed_at and o.id < campaign_submissions.id)))`;
  return db()
    .update(campaignSubmissions)
    .set({
      amountCents: sql`${campaignSubmissions.amountCents} + max(0, min(${earned} - ${campaignSubmissions.amountCents}, ${free} - ${before}))`,
      // Why, for the creator (decision 0245): SET reads the row as it was, so this is the amount before the raise.
      raisedFromCents: sql`${campaignSubmissions.amountCents}`,
      raisedAt: at,
      raiseCause: cause,
      updatedAt: at,
    })
    .where(
      and(
        eq(campaignSubmissions.campaignId, campaignId),
        eq(campaignSubmissions.status, "approved"),
        sql`${campaignSubmissions.amountCents} < ${earned}`,
        sql`${free} - ${before} > 0`,
      ),
    )
    .returning({
      id: campaignSubmissions.id,
      userId: campaignSubmissions.userId,
      amountCents: campaignSubmissions.amountCents,
      raisedFromCents: campaignSubmissions.raisedFromCents,
    });
};

export type Raised = { id: string; userId: string; amountCents: number; raisedFromCents: number | null };

/**
 * Tells each creator whose submission freed budget raised, with why (decision 0245): a bell
 * notification per raised submission, after the batch that raised it. A failure is logged; the
 * raise and its reason are stored already and shown on /campaigns.
 */
export async function tellRaised(row: CampaignRow, raised: readonly Raised[], cause: RaiseCause, exceptId: string | null = null): Promise<void> {
  for (const r of raised) {
    if (r.id === exceptId || r.raisedFromCents === null || r.amountCents <= r.raisedFromCents) continue;
    await notifyUserQuietly(r.userId, {
      title: "Estimated payout raised",
      content: M.raisedNotice(row.title, formatCents(r.amountCents), formatCents(r.raisedFromCents), cause),
      kind: "campaign_submission_raised",
    });
  }
}
