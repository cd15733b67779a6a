import { and, eq, sql } from "drizzle-orm";
import { campaigns } from "~/db/schema";
import { conflict, invalid, notFound } from "~/lib/errors";
import { type Actor, authorize } from "~/lib/permissions";
import { EMPTY_LIBRARY_QUERY } from "~/modules/music/library";
import { libraryPage } from "~/modules/music/music.server";
import { auditQuery } from "~/platform/audit.server";
import { db } from "~/platform/db.server";
import { isPreconditionFailure, isUniqueViolation, precondition, previousStatementChanged } from "~/platform/precondition.server";
import { type Raised, raiseCapped, resumSpent, tellRaised } from "./budget.server";
import { CAMPAIGN_MESSAGES as M } from "./messages";
import type { CampaignFields } from "./schema";
import { campaignById, endedAt, nowIso, stateOf } from "./store.server";

// The admin console creates and edits campaigns (docs/decisions/0140). An edit is one batch: the
// guarded update, the precondition, the raise of capped submissions a larger budget frees, the
// re-summed spent_cents and the audit row.

async function checkFields(actor: Actor, f: CampaignFields): Promise<void> {
  if (f.endsAt <= f.startsAt) throw invalid("The end must be after the start.", { fieldErrors: { endsAt: "The end must be after the start." } });
  if (f.requiredTrackId) {
    const page = await libraryPage(actor, { ...EMPTY_LIBRARY_QUERY, ids: [f.requiredTrackId] });
    if (!page.tracks.some((t) => t.id === f.requiredTrackId)) throw invalid(M.trackUnknown, { fieldErrors: { requiredTrackId: M.trackUnknown } });
  }
}

const isSlugClash = (error: unknown) => isUniqueViolation(error, "campaigns.slug");
const slugTaken = () => conflict(M.slugTaken, { fieldErrors: { slug: M.slugTaken } });

function columnsOf(f: CampaignFields) {
  return {
    brand: f.brand,
    title: f.title,
    brief: f.brief,
    rateCents: f.rate,
    budgetCents: f.budget,
    startsAt: f.startsAt,
    endsAt: f.endsAt,
    requiredTrackId: f.requiredTrackId,
    minSubscribers: f.minSubscribers,
  };
}

export async function createCampaign(actor: Actor, request: Request, f: CampaignFields): Promise<{ id: string }> {
  authorize(actor, "campaign", "manage");
  await checkFields(actor, f);
  const id = crypto.randomUUID();
  try {
    await db().batch([
      db()
        .insert(campaigns)
        .values({ id, slug: f.slug, ...columnsOf(f), createdBy: actor.id }),
      auditQuery({
        eventType: "campaign_created",
        severity: "medium",
        userId: actor.id,
        request,
        details: { campaign_id: id, slug: f.slug, rate_cents: f.rate, budget_cents: f.budget, starts_at: f.startsAt, ends_at: f.endsAt },
      }),
    ]);
  } catch (error) {
    if (isSlugClash(error)) throw slugTaken();
    throw error;
  }
  return { id };
}

/**
 * Edits a draft, scheduled or live campaign. A launched campaign keeps its address; a new rate
 * applies to submissions made from now on (each submission stores its own); the budget never goes
 * below what is already approved (the guard is in the update).
 */
export async function updateCampaign(actor: Actor, request: Request, id: string, f: CampaignFields): Promise<void> {
  authorize(actor, "campaign", "manage");
  const row = await campaignById(id);
  if (!row) throw notFound(M.notFound);
  const state = stateOf(row);
  if (state === "ended" || state === "settled") throw conflict(M.notEditable);
  if (row.status !== "draft" && f.slug !== row.slug) throw invalid(M.slugLocked, { fieldErrors: { slug: M.slugLocked } });
  if (f.budget < row.spentCents) throw invalid(M.budgetBelowSpent(row.spentCents), { fieldErrors: { budget: M.budgetBelowSpent(row.spentCents) } });
  await checkFields(actor, f);
  const now = nowIso();
  let raised: Raised[] = [];
  try {
    const results = await db().batch([
      db()
        .update(campaigns)
        .set({ slug: f.slug, ...columnsOf(f), updatedAt: now })
        .where(
          and(
            eq(campaigns.id, id),
            sql`(${campaigns.status} = 'draft' or (${campaigns.status} = 'launched' and ${campaigns.slug} = ${f.slug} and not ${endedAt(now)}))`,
            sql`${campaigns.spentCents} <= ${f.budget}`,
          ),
        ),
      precondition(previousStatementChanged(1)),
      // A larger budget frees money for the submissions it capped.
      raiseCapped(id, now, "budget"),
      resumSpent(id, now),
      auditQuery({
        eventType: "campaign_updated",
        severity: "medium",
        userId: actor.id,
        request,
        details: {
          campaign_id: id,
          before: { rate_cents: row.rateCents, budget_cents: row.budgetCents, starts_at: row.startsAt, ends_at: row.endsAt, slug: row.slug },
          after: { rate_cents: f.rate, budget_cents: f.budget, starts_at: f.startsAt, ends_at: f.endsAt, slug: f.slug },
        },
      }),
    ]);
    raised = results[2] as Raised[];
  } catch (error) {
    if (isSlugClash(error)) throw slugTaken();
    if (!isPreconditionFailure(error)) throw error;
    const again = await campaignById(id);
    if (again && f.budget < again.spentCents)
      throw invalid(M.budgetBelowSpent(again.spentCents), { fieldErrors: { budget: M.budgetBelowSpent(again.spentCents) } });
    throw conflict(M.notEditable);
  }
  await tellRaised({ ...row, title: f.title }, raised, "budget");
}
