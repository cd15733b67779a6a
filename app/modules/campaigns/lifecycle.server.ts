import { and, count, eq, ne, sql, sum } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { campaignSubmissions, campaigns } from "~/db/schema";
import { conflict, notFound } from "~/lib/errors";
import { type Actor, authorize } from "~/lib/permissions";
import { formatCents } from "~/modules/payments/money";
import { creditQueries, creditsOfSourceQuery, finalizeCreditsQuery, type Credit } from "~/modules/payments/payments.server";
import { auditQuery } from "~/platform/audit.server";
import { db } from "~/platform/db.server";
import { userText } from "~/platform/email.server";
import { isPreconditionFailure, precondition, previousStatementChanged } from "~/platform/precondition.server";
import { CAMPAIGN_MESSAGES as M } from "./messages";
import { type CampaignState, ledgerMonthOf, payoutDeadline } from "./rules";
import { campaignById, endedAt, nowIso, participantIds, payoutDateFrom, stateOf, tell, type CampaignRow } from "./store.server";

// A campaign's transitions in the admin console (docs/decisions/0140): launch, end early, settle
// (the approved amounts go to the ledger through the payments module) and the brand's funds
// received. Every change is one batch: the guarded update, the precondition, then the rest and the
// audit row.

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
