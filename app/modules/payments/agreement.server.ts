import { and, desc, eq, isNotNull, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { paymentAgreements, shareOffers } from "~/db/schema";
import { conflict, notFound } from "~/lib/errors";
import { type Actor, authorize } from "~/lib/permissions";
import { termStartedAtQuery } from "~/modules/accounts/accounts.server";
import { auditQuery } from "~/platform/audit.server";
import { batch, builtOnce, db, inJsonList } from "~/platform/db.server";
import { emailQuery } from "~/platform/email.server";
import { appName } from "~/platform/env.server";
import { isPreconditionFailure, precondition, previousStatementChanged } from "~/platform/precondition.server";
import { addMonths, dayOf, formatPayoutDay, monthLabel, monthOf, noticeEndsOn, termOn } from "./calendar";
import { AGREEMENT_MESSAGES as A } from "./messages";
import { revisedSharesOfQuery, shareInForce, standardShareBp } from "./share.server";
import { formatBp } from "~/lib/split";
import type { AgreementView } from "./types";
import { adminEmails, agreementRow, guarded, mailNameOf, mails, personOrThrow, termAnchor } from "./agreement-common.server";

// The Creator Agreement on /payments (spec section 1; docs/decisions/0127-0130):
//   term        12 months from the first channel link (profiles.term_started_at), renewing; an
//               accepted revised share starts a new run of 12-month terms (payment_agreements.term_start)
//   notice      the creator's termination for convenience: effective at the end of the first term
//               that ends at least 90 days after the notice; withdrawable until that day
//   for cause   an admin's termination with immediate effect and a reason (ends_on = that day)
//   hold        an admin's hold: the payout-day job leaves the person's balance alone
//   offers      an admin's revised share; the creator accepts (new term; the share applies from the
//               next month) or declines (the current share stays)
// Every step is one guarded statement in a D1 batch with its precondition, audit row and e-mails:
// two clicks or two tabs change it once; the loser is told.
// The admin's steps are in agreement-admin.server.ts; helpers both sides share in agreement-common.server.ts.

// agreementView's own statements, built once per isolate (db.server builtOnce, docs/decisions/0284).
const agreementStatements = {
  agreement: builtOnce((slot) =>
    db()
      .select()
      .from(paymentAgreements)
      .where(eq(paymentAgreements.userId, slot("me")))
      .limit(1),
  ),
  offer: builtOnce((slot) =>
    db()
      .select({ id: shareOffers.id, shareBp: shareOffers.shareBp, note: shareOffers.note, createdAt: shareOffers.createdAt })
      .from(shareOffers)
      .where(and(eq(shareOffers.userId, slot("me")), eq(shareOffers.status, "offered")))
      .limit(1),
  ),
  // An accepted share that applies from a later month.
  upcoming: builtOnce((slot) =>
    db()
      .select({ shareBp: shareOffers.shareBp, effectiveMonth: shareOffers.effectiveMonth })
      .from(shareOffers)
      .where(and(eq(shareOffers.userId, slot("me")), eq(shareOffers.status, "accepted"), sql`${shareOffers.effectiveMonth} > ${slot("month")}`))
      .orderBy(desc(shareOffers.respondedAt))
      .limit(1),
  ),
};

/** The agreement as /payments shows it. */
export async function agreementView(actor: Actor, today = new Date()): Promise<AgreementView> {
  authorize(actor, "payments", "readOwn");
  const day = dayOf(today);
  // One round trip: the agreement's own rows, the revised share in force and the term's start (the
  // first channel link); the standard share comes from the settings, which the isolate keeps.
  const [[[row], [offer], [upcoming], revised, [termRow]], standardBp] = await Promise.all([
    batch([
      agreementStatements.agreement({ me: actor.id }),
      agreementStatements.offer({ me: actor.id }),
      agreementStatements.upcoming({ me: actor.id, month: monthOf(today) }),
      revisedSharesOfQuery([actor.id], monthOf(today)),
      termStartedAtQuery(actor.id),
    ]),
    standardShareBp(),
  ]);
  const shareBp = shareInForce(revised, standardBp);
  const linkedAt = termRow?.at ?? null;
  const anchor = row?.termStart ?? (linkedAt ? linkedAt.slice(0, 10) : null);
  const term = anchor ? termOn(anchor, day) : null;
  const status = row?.status ?? "active";
  const ended = status !== "active" && !!row?.endsOn && row.endsOn < day;
  return {
    status: ended ? "ended" : status,
    shareBp,
    standardBp,
    termStart: anchor,
    currentTermStart: term?.currentStart ?? null,
    renewsOn: status === "active" ? (term?.renewsOn ?? null) : null,
    noticeGivenAt: row?.noticeGivenAt ?? null,
    endsOn: row?.endsOn ?? null,
    noticeWouldEndOn: noticeEndsOn(anchor, day),
    terminationReason: row?.terminationReason ?? null,
    holdReason: row?.holdReason ?? null,
    offer: offer ? { ...offer, effectiveMonth: addMonths(monthOf(today), 1) } : null,
    upcoming: upcoming?.effectiveMonth ? { shareBp: upcoming.shareBp, effectiveMonth: upcoming.effectiveMonth } : null,
  };
}

// --- The creator's steps

/** Notice of termination for convenience: effective at the end of the first term ending ≥ 90 days from today. */
export async function giveNotice(actor: Actor, request: Request, now = new Date()): Promise<{ endsOn: string }> {
  authorize(actor, "payments", "agreement");
  const row = await agreementRow(actor.id);
  if (row && row.status !== "active") throw conflict(row.status === "notice" ? A.noticeAlready : A.terminatedAlready);
  const endsOn = noticeEndsOn(await termAnchor(actor.id, row), dayOf(now));
  const at = now.toISOString();
  const person = await personOrThrow(actor.id);
  const text = `${mailNameOf(person)} gave notice to end the ${appName()} Creator Agreement on ${at.slice(0, 10)}. It ends on ${formatPayoutDay(endsOn)}: earnings stop after that day. Notice can be withdrawn until then.`;
  await guarded(
    [
      db()
        .insert(paymentAgreements)
        .values({ userId: actor.id, status: "notice", noticeGivenAt: at, endsOn, updatedAt: at })
        .onConflictDoUpdate({
          target: paymentAgreements.userId,
          set: { status: "notice", noticeGivenAt: at, endsOn, updatedAt: at },
          setWhere: eq(paymentAgreements.status, "active"),
        }),
      precondition(previousStatementChanged(1)),
      auditQuery({ eventType: "agreement_notice_given", severity: "medium", userId: actor.id, targetUserId: actor.id, request, details: { ends_on: endsOn } }),
      ...mails([person.email, ...(await adminEmails())], "agreement_notice", `Notice to end the Creator Agreement: ends ${formatPayoutDay(endsOn)}`, text).map(
        emailQuery,
      ),
    ],
    A.noticeAlready,
  );
  return { endsOn };
}

/** Withdraws a notice before the day it takes effect. */
export async function withdrawNotice(actor: Actor, request: Request, now = new Date()): Promise<void> {
  authorize(actor, "payments", "agreement");
  const day = dayOf(now);
  const row = await agreementRow(actor.id);
  if (!row || row.status === "active") throw conflict(A.noNotice);
  if (row.status === "terminated") throw conflict(A.terminatedAlready);
  if (row.endsOn && row.endsOn < day) throw conflict(A.noticeTookEffect);
  const person = await personOrThrow(actor.id);
  const at = now.toISOString();
  await guarded(
    [
      db()
        .update(paymentAgreements)
        .set({ status: "active", noticeGivenAt: null, endsOn: null, updatedAt: at })
        .where(and(eq(paymentAgreements.userId, actor.id), eq(paymentAgreements.status, "notice"), sql`${paymentAgreements.endsOn} >= ${day}`)),
      precondition(previousStatementChanged(1)),
      auditQuery({
        eventType: "agreement_notice_withdrawn",
        severity: "medium",
        userId: actor.id,
        targetUserId: actor.id,
        request,
        details: { ends_on: row.endsOn },
      }),
      ...mails(
        [person.email, ...(await adminEmails())],
        "agreement_notice_withdrawn",
        "Notice withdrawn: the Creator Agreement continues",
        `${mailNameOf(person)} withdrew the notice to end the ${appName()} Creator Agreement. The agreement continues and renews as before.`,
      ).map(emailQuery),
    ],
    A.noNotice,
  );
}

/** Accepts or declines the open revised-share offer. Acceptance starts a new 12-month term; the share applies from next month. */
export async function answerOffer(actor: Actor, request: Request, input: { offerId: string; accept: boolean }, now = new Date()) {
  authorize(actor, "payments", "agreement");
  const offer = await db()
    .select()
    .from(shareOffers)
    .where(and(eq(shareOffers.id, input.offerId), eq(shareOffers.userId, actor.id)))
    .get();
  if (!offer) throw notFound(A.offerNotFound);
  if (offer.status !== "offered") throw conflict(A.offerAnswered);
  const row = await agreementRow(actor.id);
  if (input.accept && row && row.status !== "active") throw conflict(row.status === "notice" ? A.withdrawNoticeFirst : A.terminatedAlready);
  const person = await personOrThrow(actor.id);
  const at = now.toISOString();
  const day = dayOf(now);
  const effectiveMonth = addMonths(monthOf(now), 1);
  const share = formatBp(offer.shareBp);
  const emails = [person.email, ...(await adminEmails())];
  const decide = db()
    .update(shareOffers)
    .set(input.accept ? { status: "accepted", respondedAt: at, effectiveMonth, termStart: day } : { status: "declined", respondedAt: at })
    .where(
      and(
        eq(shareOffers.id, offer.id),
        eq(shareOffers.status, "offered"),
        // Acceptance needs an active agreement: no notice running, not terminated (read again inside the batch).
        input.accept
          ? sql`not exists (select 1 from ${paymentAgreements} where ${paymentAgreements.userId} = ${actor.id} and ${paymentAgreements.status} <> 'active')`
          : undefined,
      ),
    );
  const statements: BatchItem<"sqlite">[] = [decide, precondition(previousStatementChanged(1))];
  if (input.accept) {
    statements.push(
      db()
        .insert(paymentAgreements)
        .values({ userId: actor.id, termStart: day, updatedAt: at })
        .onConflictDoUpdate({ target: paymentAgreements.userId, set: { termStart: day, updatedAt: at } }),
      auditQuery({
        eventType: "share_offer_accepted",
        severity: "high",
        userId: actor.id,
        targetUserId: actor.id,
        request,
        details: { offer_id: offer.id, share_bp: offer.shareBp, effective_month: effectiveMonth, term_start: day },
      }),
      ...mails(
        emails,
        "share_offer_accepted",
        `Revised share of ${share} accepted`,
        `${mailNameOf(person)} accepted the revised share of ${share}. It applies to revenue from ${monthLabel(effectiveMonth)} on, and a new 12-month term started on ${formatPayoutDay(day)}.`,
      ).map(emailQuery),
    );
  } else {
    statements.push(
      auditQuery({
        eventType: "share_offer_declined",
        severity: "medium",
        userId: actor.id,
        targetUserId: actor.id,
        request,
        details: { offer_id: offer.id, share_bp: offer.shareBp },
      }),
      ...mails(
        emails,
        "share_offer_declined",
        `Revised share of ${share} declined`,
        `${mailNameOf(person)} declined the revised share of ${share}. The current share and term stay as they are.`,
      ).map(emailQuery),
    );
  }
  try {
    await db().batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  } catch (error) {
    if (!isPreconditionFailure(error)) throw error;
    const still = await db().select({ status: shareOffers.status }).from(shareOffers).where(eq(shareOffers.id, offer.id)).get();
    throw conflict(still?.status === "offered" ? A.withdrawNoticeFirst : A.offerAnswered);
  }
  return { accepted: input.accept, shareBp: offer.shareBp, effectiveMonth: input.accept ? effectiveMonth : null };
}

/** The last day each ended or ending account earns (notice or terminated), by person. Few rows: one statement. */
export async function agreementEnds(): Promise<Map<string, string>> {
  const rows = await db()
    .select({ userId: paymentAgreements.userId, endsOn: paymentAgreements.endsOn })
    .from(paymentAgreements)
    .where(isNotNull(paymentAgreements.endsOn));
  return new Map(rows.flatMap((r) => (r.endsOn ? [[r.userId, r.endsOn] as [string, string]] : [])));
}

/** agreementEnds for these people only (a slice of a revenue report's stage, docs/decisions/0350): one statement, the ids as one JSON list. */
export async function agreementEndsOf(userIds: readonly string[]): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db()
    .select({ userId: paymentAgreements.userId, endsOn: paymentAgreements.endsOn })
    .from(paymentAgreements)
    .where(and(isNotNull(paymentAgreements.endsOn), inJsonList(paymentAgreements.userId, [...userIds])));
  return new Map(rows.flatMap((r) => (r.endsOn ? [[r.userId, r.endsOn] as [string, string]] : [])));
}

/** People whose payouts an admin holds (the payout-day job leaves them out). */
export async function heldUserIds(userIds: readonly string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db().select({ userId: paymentAgreements.userId }).from(paymentAgreements).where(isNotNull(paymentAgreements.heldAt));
  const wanted = new Set(userIds);
  return new Set(rows.map((r) => r.userId).filter((id) => wanted.has(id)));
}
