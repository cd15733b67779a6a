import { and, eq, inArray, sql } from "drizzle-orm";
import { campaignSubmissions, campaigns } from "~/db/schema";
import { conflict, notFound } from "~/lib/errors";
import { formatCount } from "~/lib/format";
import { type Actor, authorize } from "~/lib/permissions";
import { personById } from "~/modules/accounts/accounts.server";
import { notifyUserQuietly } from "~/modules/notifications/notifications.server";
import { formatCents } from "~/modules/payments/money";
import { auditQuery } from "~/platform/audit.server";
import { db } from "~/platform/db.server";
import { appLink, emailQuery, userText } from "~/platform/email.server";
import { isPreconditionFailure, precondition, previousStatementChanged } from "~/platform/precondition.server";
import { cappedAmount, type Raised, raiseCapped, resumSpent, tellRaised } from "./budget.server";
import { CAMPAIGN_MESSAGES as M, type RaiseCause } from "./messages";
import { payoutFor } from "./rules";
import { campaignById, nowIso, type CampaignRow } from "./store.server";

// The admin reviews a campaign submission (docs/decisions/0140): approve with verified views,
// update views, reject with a reason. One batch: the guarded update, the precondition, the raise of
// the capped submissions the review freed, the re-summed spent_cents, the e-mail and the audit row.

type Review = { kind: "approve" | "views"; views: number } | { kind: "reject"; reason: string };

/** The bell text of a review (after the batch, with the stored amount). */
function reviewMessage(row: CampaignRow, review: Review, result: { views: number; amountCents: number }, capped: boolean) {
  if (review.kind === "reject") {
    return {
      title: "Submission rejected",
      content: `Your video for "${row.title}" was not approved. Reason: ${review.reason}`,
      kind: "campaign_submission_rejected",
    };
  }
  return {
    title: review.kind === "approve" ? "Submission approved" : "Views updated",
    content: `Your video for "${row.title}" has ${formatCount(result.views)} verified views: estimated payout ${formatCents(result.amountCents)}${capped ? " (the campaign budget is reached)" : ""}.`,
    kind: review.kind === "approve" ? "campaign_submission_approved" : "campaign_submission_views",
  };
}

/** The e-mail of a review, written in the review's batch (the amount is on /campaigns: the cap is computed in that batch). */
function reviewEmail(to: string, row: CampaignRow, review: Review, sub: { url: string }) {
  const link = appLink("/campaigns");
  const text =
    review.kind === "reject"
      ? `Your video ${userText(sub.url)} for "${userText(row.title)}" was not approved.\n\nReason: ${userText(review.reason)}\n\nSee your submissions at ${link}.\n`
      : `Your video ${userText(sub.url)} for "${userText(row.title)}" has ${formatCount(review.views)} verified views.\n\nSee its estimated payout at ${link}.\n`;
  const title = review.kind === "reject" ? "Submission rejected" : review.kind === "approve" ? "Submission approved" : "Views updated";
  return emailQuery({ to, kind: `campaign_submission_${review.kind}`, subject: `${title}: ${userText(row.title)}`, text });
}

export async function reviewCampaignSubmission(
  actor: Actor,
  request: Request,
  submissionId: string,
  review: Review,
): Promise<{ status: string; views: number; amountCents: number; capped: boolean; budgetReached: boolean }> {
  authorize(actor, "campaign", "manage");
  const found = await db()
    .select({ sub: campaignSubmissions, row: campaigns })
    .from(campaignSubmissions)
    .innerJoin(campaigns, eq(campaigns.id, campaignSubmissions.campaignId))
    .where(eq(campaignSubmissions.id, submissionId))
    .get();
  if (!found) throw notFound(M.submissionNotFound);
  const { sub, row } = found;
  if (row.status === "settled") throw conflict(M.frozen);
  const from = review.kind === "approve" ? ["pending"] : review.kind === "views" ? ["approved"] : ["pending", "approved"];
  const at = nowIso();
  const set =
    review.kind === "reject"
      ? { status: "rejected" as const, reason: review.reason, amountCents: 0 }
      : {
          status: "approved" as const,
          views: review.views,
          amountCents: cappedAmount(review.views),
          reason: null,
          // An update of an approved submission's views is the admin's override: it pins them, and
          // the daily views job leaves them from then on (decision 0266). Approving does not pin.
          ...(review.kind === "views" ? { viewsPinnedAt: at } : {}),
        };
  // What freed budget in this review (a rejection, or views lowered) for the submissions it raises.
  const cause: RaiseCause = review.kind === "reject" ? "rejected" : "views";
  const person = await personById(sub.userId);
  let updated: { status: string; views: number; amountCents: number }[] = [];
  let budget: { spentCents: number; budgetCents: number }[] = [];
  let raised: Raised[] = [];
  try {
    const results = await db().batch([
      db()
        .update(campaignSubmissions)
        // A new review replaces an earlier raise's note: the amount is the review's now.
        .set({ ...set, raisedAt: null, raisedFromCents: null, raiseCause: null, reviewedBy: actor.id, reviewedAt: at, updatedAt: at })
        .where(
          and(
            eq(campaignSubmissions.id, submissionId),
            inArray(campaignSubmissions.status, from as ("pending" | "approved")[]),
            sql`exists (select 1 from ${campaigns} where ${campaigns.id} = ${campaignSubmissions.campaignId} and ${campaigns.status} = 'launched')`,
          ),
        )
        .returning({ status: campaignSubmissions.status, views: campaignSubmissions.views, amountCents: campaignSubmissions.amountCents }),
      precondition(previousStatementChanged(1)),
      raiseCapped(sub.campaignId, at, cause),
      resumSpent(sub.campaignId, at).returning({ spentCents: campaigns.spentCents, budgetCents: campaigns.budgetCents }),
      ...(person && !person.isBanned ? [reviewEmail(person.email, row, review, sub)] : []),
      auditQuery({
        eventType:
          review.kind === "approve"
            ? "campaign_submission_approved"
            : review.kind === "views"
              ? "campaign_submission_views_updated"
              : "campaign_submission_rejected",
        severity: "medium",
        userId: actor.id,
        targetUserId: sub.userId,
        request,
        details: {
          campaign_id: sub.campaignId,
          submission_id: submissionId,
          url: sub.url,
          ...(review.kind === "reject"
            ? { reason: review.reason }
            : {
                views_before: sub.views,
                views: review.views,
                amount_before_cents: sub.amountCents,
                provider_views: sub.providerViews,
                ...(review.kind === "views" ? { pinned: true } : {}),
              }),
        },
      }),
    ]);
    updated = results[0] as typeof updated;
    raised = results[2] as Raised[];
    budget = results[3] as typeof budget;
  } catch (error) {
    if (!isPreconditionFailure(error)) throw error;
    const campaign = await campaignById(sub.campaignId);
    if (campaign?.status === "settled") throw conflict(M.frozen);
    if (review.kind === "approve") throw conflict(M.reviewedAlready);
    if (review.kind === "views") throw conflict(M.notApproved);
    throw conflict(M.rejectedAlready);
  }
  const result = updated[0] ?? { status: set.status, views: sub.views, amountCents: 0 };
  const after = budget[0];
  const earned = review.kind === "reject" ? 0 : payoutFor(review.views, sub.rateCents);
  const capped = review.kind !== "reject" && result.amountCents < earned;
  const budgetReached = !!after && after.spentCents >= after.budgetCents;

  await notifyUserQuietly(sub.userId, reviewMessage(row, review, result, capped));
  await tellRaised(row, raised, cause, submissionId);
  return { status: result.status, views: result.views, amountCents: result.amountCents, capped, budgetReached };
}
