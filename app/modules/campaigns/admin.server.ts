import { and, asc, count, desc, eq, inArray, ne, sql, sum } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { campaignParticipants, campaignSubmissions, campaigns } from "~/db/schema";
import { conflict, invalid, notFound } from "~/lib/errors";
import { type Actor, authorize } from "~/lib/permissions";
import { peopleByIds, personById } from "~/modules/accounts/accounts.server";
import { notifyUserQuietly } from "~/modules/notifications/notifications.server";
import { EMPTY_LIBRARY_QUERY } from "~/modules/music/library";
import { libraryPage } from "~/modules/music/music.server";
import { formatCents } from "~/modules/payments/money";
import { creditQueries, creditsOfSourceQuery, finalizeCreditsQuery, type Credit } from "~/modules/payments/payments.server";
import { auditQuery } from "~/platform/audit.server";
import { youtubeApiStatus } from "~/modules/channels/channels.server";
import { db } from "~/platform/db.server";
import { appLink, emailQuery, userText } from "~/platform/email.server";
import { isPreconditionFailure, isUniqueViolation, precondition, previousStatementChanged } from "~/platform/precondition.server";
import { CAMPAIGN_MESSAGES as M } from "./messages";
import { type CampaignState, DEADLINE_WARNING_DAYS, daysUntil, effectiveEnd, ledgerMonthOf, payoutDeadline, payoutFor } from "./rules";
import type { CampaignFields } from "./schema";
import type { RaiseCause } from "./messages";
import { campaignById, endedAt, participantIds, payoutDateFrom, stateOf, tell, type CampaignRow } from "./store.server";
import { formatCount } from "~/lib/format";

// The admin console's campaigns (docs/decisions/0140): create and edit, launch, end early, review
// submissions (approve with verified views, update views, reject with a reason), settle (the
// approved amounts go to the ledger through the payments module) and mark the brand's funds
// received. Every change is one batch: the guarded update, the precondition, then the rest and the
// audit row. The budget is spent in SQL: a submission's amount is min(views / 1,000 × its rate,
// budget − what the others hold), and the campaign's spent_cents is re-summed in the same batch,
// so two reviews at once never spend it twice (D1 runs a batch as one transaction).

const nowIso = () => new Date().toISOString();

// ---------------------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------------------

export type AdminCampaignRow = {
  id: string;
  slug: string;
  brand: string;
  title: string;
  state: CampaignState;
  rateCents: number;
  budgetCents: number;
  spentCents: number;
  startsAt: string;
  endsAt: string;
  effectiveEnd: string;
  participants: number;
  pending: number;
  fundsReceivedAt: string | null;
  payableOn: string | null;
  deadline: string;
  /** Days until the 60-day payout deadline while the campaign is not payable yet (null: no warning). */
  deadlineWarning: number | null;
};

export type AdminSubmission = {
  id: string;
  person: string;
  url: string;
  platform: "youtube" | "tiktok" | "instagram";
  channelId: string | null;
  rateCents: number;
  status: "pending" | "approved" | "rejected";
  views: number;
  amountCents: number;
  reason: string | null;
  /** Why ownership is the admin's to check (decision 0301); null when the platform confirmed it. */
  ownershipReview: string | null;
  createdAt: string;
  reviewedAt: string | null;
  /** What the views provider last read, and when (decision 0266); null when never read. */
  providerViews: number | null;
  viewsCheckedAt: string | null;
  /** When an admin's views override pinned the views: the daily job leaves them (decision 0266). */
  viewsPinnedAt: string | null;
};

export type AdminCampaignDetail = AdminCampaignRow & {
  brief: string;
  requiredTrackId: string | null;
  minSubscribers: number;
  settledAt: string | null;
  endedEarlyAt: string | null;
  submissions: AdminSubmission[];
  credits: { person: string; amountCents: number; status: string; paid: boolean }[];
};

export type TrackOption = { id: string; label: string };

function warningOf(row: CampaignRow, state: CampaignState, now: Date): number | null {
  if (state !== "ended" && state !== "settled") return null;
  if (row.payableOn) return null;
  const days = daysUntil(payoutDeadline(row), now);
  return days <= DEADLINE_WARNING_DAYS ? days : null;
}

function summary(row: CampaignRow, counts: { participants: number; pending: number }, now: Date): AdminCampaignRow {
  const state = stateOf(row, now);
  return {
    id: row.id,
    slug: row.slug,
    brand: row.brand,
    title: row.title,
    state,
    rateCents: row.rateCents,
    budgetCents: row.budgetCents,
    spentCents: row.spentCents,
    startsAt: row.startsAt,
    endsAt: row.endsAt,
    effectiveEnd: effectiveEnd(row),
    participants: counts.participants,
    pending: counts.pending,
    fundsReceivedAt: row.fundsReceivedAt,
    payableOn: row.payableOn,
    deadline: payoutDeadline(row),
    deadlineWarning: warningOf(row, state, now),
  };
}

/** The published tracks an admin may require (title order, up to 100). */
async function trackOptions(actor: Actor): Promise<TrackOption[]> {
  const first = await libraryPage(actor, { ...EMPTY_LIBRARY_QUERY, sort: "title" });
  const more = await Promise.all(
    Array.from({ length: Math.min(first.pageCount, 5) - 1 }, (_, i) => libraryPage(actor, { ...EMPTY_LIBRARY_QUERY, sort: "title", page: i + 2 })),
  );
  return [first, ...more].flatMap((p) => p.tracks.map((t) => ({ id: t.id, label: `${t.title} — ${t.artist}` })));
}

/** Every campaign (newest first) with its counts and warnings, the selected one in detail, and the tracks to choose from. */
export async function adminCampaigns(actor: Actor, selectedId: string | null, now = new Date()) {
  authorize(actor, "campaign", "manage");
  const [rows, participantCounts, pendingCounts] = await db().batch([
    db().select().from(campaigns).orderBy(desc(campaigns.createdAt)).limit(200),
    db().select({ id: campaignParticipants.campaignId, n: count() }).from(campaignParticipants).groupBy(campaignParticipants.campaignId),
    db()
      .select({ id: campaignSubmissions.campaignId, n: count() })
      .from(campaignSubmissions)
      .where(eq(campaignSubmissions.status, "pending"))
      .groupBy(campaignSubmissions.campaignId),
  ]);
  const pc = new Map(participantCounts.map((r) => [r.id, r.n]));
  const pe = new Map(pendingCounts.map((r) => [r.id, r.n]));
  const list = rows.map((r) => summary(r, { participants: pc.get(r.id) ?? 0, pending: pe.get(r.id) ?? 0 }, now));
  const selectedRow = selectedId ? rows.find((r) => r.id === selectedId) : undefined;
  const [tracks, selected] = await Promise.all([trackOptions(actor), selectedRow ? detailOf(selectedRow, list, now) : Promise.resolve(null)]);
  // YouTube's state for the views job (decision 0303): a missing API key, a quota pause.
  return { campaigns: list, selected, tracks, youtube: await youtubeApiStatus() };
}

async function detailOf(row: CampaignRow, list: AdminCampaignRow[], now: Date): Promise<AdminCampaignDetail> {
  const [subs, credits] = await db().batch([
    db().select().from(campaignSubmissions).where(eq(campaignSubmissions.campaignId, row.id)).orderBy(asc(campaignSubmissions.createdAt)).limit(1000),
    creditsOfSourceQuery("campaign", row.id),
  ]);
  const people = await peopleByIds([...subs.map((s) => s.userId), ...credits.map((c) => c.userId)]);
  const name = (id: string) => people.get(id)?.fullName || people.get(id)?.email || "Unknown";
  const base = list.find((c) => c.id === row.id) ?? summary(row, { participants: 0, pending: 0 }, now);
  return {
    ...base,
    brief: row.brief,
    requiredTrackId: row.requiredTrackId,
    minSubscribers: row.minSubscribers,
    settledAt: row.settledAt,
    endedEarlyAt: row.endedAt,
    submissions: subs.map((s) => ({
      id: s.id,
      person: name(s.userId),
      url: s.url,
      platform: s.platform,
      channelId: s.channelId,
      rateCents: s.rateCents,
      status: s.status,
      views: s.views,
      amountCents: s.amountCents,
      reason: s.reason,
      ownershipReview: s.ownershipReview,
      createdAt: s.createdAt,
      reviewedAt: s.reviewedAt,
      providerViews: s.providerViews,
      viewsCheckedAt: s.viewsCheckedAt,
      viewsPinnedAt: s.viewsPinnedAt,
    })),
    credits: credits.map((c) => ({ person: name(c.userId), amountCents: c.amountCents, status: c.status, paid: c.status === "paid" })),
  };
}

// ---------------------------------------------------------------------------------------------
// Create and edit
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// Transitions
// ---------------------------------------------------------------------------------------------

/** draft → launched: live from its start date (at once when the start has passed). */
export async function launchCampaign(actor: Actor, request: Request, id: string): Promise<{ state: CampaignState }> {
  authorize(actor, "campaign", "manage");
  const row = await campaignById(id);
  if (!row) throw notFound(M.notFound);
  if (row.status !== "draft") throw conflict(M.draftOnly);
  const now = nowIso();
  if (row.endsAt <= now) throw conflict(M.launchEnded);
  try {
    await db().batch([
      db()
        .update(campaigns)
        .set({ status: "launched", launchedAt: now, updatedAt: now })
        .where(and(eq(campaigns.id, id), eq(campaigns.status, "draft"), sql`${campaigns.endsAt} > ${now}`)),
      precondition(previousStatementChanged(1)),
      auditQuery({ eventType: "campaign_launched", severity: "medium", userId: actor.id, request, details: { campaign_id: id, slug: row.slug } }),
    ]);
  } catch (error) {
    if (isPreconditionFailure(error)) throw conflict(M.draftOnly);
    throw error;
  }
  const launched = await campaignById(id);
  return { state: launched ? stateOf(launched) : "live" };
}

/** An admin ends a scheduled or live campaign now; its participants are told. */
export async function endCampaign(actor: Actor, request: Request, id: string): Promise<void> {
  authorize(actor, "campaign", "manage");
  const row = await campaignById(id);
  if (!row) throw notFound(M.notFound);
  const now = nowIso();
  try {
    await db().batch([
      db()
        .update(campaigns)
        .set({ endedAt: now, endNotifiedAt: now, updatedAt: now })
        .where(and(eq(campaigns.id, id), eq(campaigns.status, "launched"), sql`${campaigns.endedAt} is null`, sql`${campaigns.endsAt} > ${now}`)),
      precondition(previousStatementChanged(1)),
      auditQuery({
        eventType: "campaign_ended_early",
        severity: "medium",
        userId: actor.id,
        request,
        details: { campaign_id: id, slug: row.slug, ends_at: row.endsAt },
      }),
    ]);
  } catch (error) {
    if (isPreconditionFailure(error)) throw conflict(M.cannotEnd);
    throw error;
  }
  await tellEnded({ ...row, endedAt: now });
}

/** The participants of a campaign that ended (early, or by date through the daily job). */
export async function tellEnded(row: CampaignRow): Promise<void> {
  const ended = (brand: string, title: string) =>
    `${brand}: "${title}" has ended. Your verified views are being finalized; the payout is made by ${payoutDeadline(row)} at the latest.`;
  await tell(
    await participantIds(row.id),
    {
      title: "Campaign ended",
      content: ended(row.brand, row.title),
      kind: "campaign_ended",
      subject: `Campaign ended: ${userText(row.title)}`,
    },
    () => ended(userText(row.brand), userText(row.title)),
  );
}

/**
 * Ended → settled: the views freeze and every participant's approved amount becomes one campaign
 * entry in the ledger (estimated; finalized at once when the brand's funds are already in). The
 * guard also checks that nothing was reviewed since the amounts were read (spent and updated_at).
 */
export async function settleCampaign(actor: Actor, request: Request, id: string): Promise<{ entries: number; totalCents: number; payableOn: string | null }> {
  authorize(actor, "campaign", "manage");
  const row = await campaignById(id);
  if (!row) throw notFound(M.notFound);
  if (row.status === "settled") throw conflict(M.settledAlready);
  const state = stateOf(row);
  if (state !== "ended") throw conflict(M.notEnded);
  const [amounts, [pending]] = await db().batch([
    db()
      .select({ userId: campaignSubmissions.userId, total: sum(campaignSubmissions.amountCents).mapWith(Number) })
      .from(campaignSubmissions)
      .where(and(eq(campaignSubmissions.campaignId, id), eq(campaignSubmissions.status, "approved")))
      .groupBy(campaignSubmissions.userId),
    db()
      .select({ n: count() })
      .from(campaignSubmissions)
      .where(and(eq(campaignSubmissions.campaignId, id), eq(campaignSubmissions.status, "pending"))),
  ]);
  if ((pending?.n ?? 0) > 0) throw conflict(M.pendingLeft);
  const now = new Date();
  const payableOn = row.fundsReceivedAt ? await payoutDateFrom(now) : null;
  const month = ledgerMonthOf(row);
  const credits: Credit[] = amounts
    .filter((a) => a.total > 0)
    .map((a) => ({
      userId: a.userId,
      month,
      sourceKind: "campaign",
      sourceId: id,
      netCents: a.total,
      shareBp: 10_000,
      amountCents: a.total,
      status: row.fundsReceivedAt ? "finalized" : "estimated",
      note: `${row.brand} — ${row.title}`,
    }));
  const totalCents = credits.reduce((s, c) => s + c.amountCents, 0);
  const at = now.toISOString();
  try {
    await db().batch([
      db()
        .update(campaigns)
        .set({ status: "settled", settledAt: at, settledBy: actor.id, payableOn, updatedAt: at })
        .where(
          and(
            eq(campaigns.id, id),
            endedAt(at),
            eq(campaigns.updatedAt, row.updatedAt),
            eq(campaigns.spentCents, row.spentCents),
            sql`not exists (select 1 from ${campaignSubmissions} where ${campaignSubmissions.campaignId} = ${id} and ${campaignSubmissions.status} = 'pending')`,
          ),
        ),
      precondition(previousStatementChanged(1)),
      ...creditQueries(credits),
      auditQuery({
        eventType: "campaign_settled",
        severity: "high",
        userId: actor.id,
        request,
        details: { campaign_id: id, slug: row.slug, entries: credits.length, total_cents: totalCents, month, payable_on: payableOn },
      }),
    ] as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  } catch (error) {
    if (!isPreconditionFailure(error)) throw error;
    const again = await campaignById(id);
    if (again?.status === "settled") throw conflict(M.settledAlready);
    throw conflict(M.changed);
  }
  // One notification for everyone (the bell shows the amount on /payments), an e-mail each with its amount: one batch.
  const when = payableOn
    ? `It is payable on ${payableOn}.`
    : `It is paid on the first payout date after the brand's funds arrive, by ${payoutDeadline(row)} at the latest.`;
  const amountOf = new Map(credits.map((c) => [c.userId, c.amountCents]));
  const settled = `${row.brand}: "${row.title}" is settled.`;
  const settledMail = `${userText(row.brand)}: "${userText(row.title)}" is settled.`;
  await tell(
    credits.map((c) => c.userId),
    {
      title: "Campaign settled",
      content: `${settled} Your approved amount is on your Payments page. ${when}`,
      kind: "campaign_settled",
      subject: `Campaign settled: ${userText(row.title)}`,
    },
    (userId) => `${settledMail} Your approved amount is ${formatCents(amountOf.get(userId) ?? 0)}. ${when}`,
  );
  return { entries: credits.length, totalCents, payableOn };
}

/** The brand paid: once the campaign is settled, its entries are finalized and payable on the next payout date. */
export async function markCampaignFundsReceived(actor: Actor, request: Request, id: string): Promise<{ payableOn: string | null }> {
  authorize(actor, "campaign", "manage");
  const row = await campaignById(id);
  if (!row) throw notFound(M.notFound);
  if (row.status === "draft") throw conflict(M.fundsDraft);
  if (row.fundsReceivedAt) throw conflict(M.fundsAlready);
  const now = new Date();
  const at = now.toISOString();
  const payableOn = row.status === "settled" ? await payoutDateFrom(now) : null;
  try {
    await db().batch([
      db()
        .update(campaigns)
        .set({
          fundsReceivedAt: at,
          fundsReceivedBy: actor.id,
          payableOn: sql`case when ${campaigns.status} = 'settled' then ${payableOn} else ${campaigns.payableOn} end`,
          updatedAt: at,
        })
        .where(and(eq(campaigns.id, id), sql`${campaigns.fundsReceivedAt} is null`, ne(campaigns.status, "draft"), eq(campaigns.status, row.status))),
      precondition(previousStatementChanged(1)),
      finalizeCreditsQuery("campaign", id),
      auditQuery({
        eventType: "campaign_funds_received",
        severity: "high",
        userId: actor.id,
        request,
        details: { campaign_id: id, slug: row.slug, payable_on: payableOn },
      }),
    ]);
  } catch (error) {
    if (isPreconditionFailure(error)) throw conflict(M.fundsAlready);
    throw error;
  }
  if (payableOn) {
    const credits = await creditsOfSourceQuery("campaign", id);
    const amountOf = new Map(credits.map((c) => [c.userId, c.amountCents]));
    await tell(
      [...amountOf.keys()],
      {
        title: "Campaign payout scheduled",
        content: `${row.brand}: "${row.title}" — your approved amount is payable on ${payableOn}.`,
        kind: "campaign_payable",
        subject: `Campaign payout scheduled: ${userText(row.title)}`,
      },
      (userId) => `${userText(row.brand)}: "${userText(row.title)}" — your ${formatCents(amountOf.get(userId) ?? 0)} is payable on ${payableOn}.`,
    );
  }
  return { payableOn };
}

// ---------------------------------------------------------------------------------------------
// Review
// ---------------------------------------------------------------------------------------------

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
const raiseCapped = (campaignId: string, at: string, cause: RaiseCause) => {
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

type Raised = { id: string; userId: string; amountCents: number; raisedFromCents: number | null };

/**
 * Tells each creator whose submission freed budget raised, with why (decision 0245): a bell
 * notification per raised submission, after the batch that raised it. A failure is logged; the
 * raise and its reason are stored already and shown on /campaigns.
 */
async function tellRaised(row: CampaignRow, raised: readonly Raised[], cause: RaiseCause, exceptId: string | null = null): Promise<void> {
  for (const r of raised) {
    if (r.id === exceptId || r.raisedFromCents === null || r.amountCents <= r.raisedFromCents) continue;
    await notifyUserQuietly(r.userId, {
      title: "Estimated payout raised",
      content: M.raisedNotice(row.title, formatCents(r.amountCents), formatCents(r.raisedFromCents), cause),
      kind: "campaign_submission_raised",
    });
  }
}

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
