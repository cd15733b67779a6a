import { and, desc, eq, isNotNull, isNull, ne, or, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { paymentAgreements, shareOffers } from "~/db/schema";
import { conflict, invalid, notFound } from "~/lib/errors";
import { type Actor, authorize } from "~/lib/permissions";
import {
  peopleByCreatorIds,
  peopleByIds,
  personByEmail,
  personById,
  type PersonSummary,
  termStartedAtOf,
  termStartedAtQuery,
} from "~/modules/accounts/accounts.server";
import { notifyUserQuietly, resolveAudience } from "~/modules/notifications/notifications.server";
import { auditQuery } from "~/platform/audit.server";
import { batch, builtOnce, db } from "~/platform/db.server";
import { appOrigin, type Email, emailQuery, userText } from "~/platform/email.server";
import { appName } from "~/platform/env.server";
import { isPreconditionFailure, precondition, previousStatementChanged } from "~/platform/precondition.server";
import { addMonths, dayOf, formatPayoutDay, monthLabel, monthOf, noticeEndsOn, termOn } from "./calendar";
import { AGREEMENT_MESSAGES as A } from "./messages";
import { revisedSharesOfQuery, shareInForce, standardShareBp } from "./share.server";
import { formatBp } from "~/lib/split";
import type { AgreementAdminRow, AgreementView } from "./types";

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

const REASON_MAX = 500;

/** The agreement row (absent = active, no hold) or its defaults. */
async function agreementRow(userId: string) {
  return db().select().from(paymentAgreements).where(eq(paymentAgreements.userId, userId)).get();
}

/** The first day of the run of terms: an accepted revised share's new term, else the first channel link. */
async function termAnchor(userId: string, row?: { termStart: string | null } | null): Promise<string | null> {
  if (row?.termStart) return row.termStart;
  const at = await termStartedAtOf(userId);
  return at ? at.slice(0, 10) : null;
}

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

// --- E-mails: both sides of the agreement hear of every step (the creator, and the admins).

async function adminEmails(): Promise<string[]> {
  const ids = await resolveAudience({ type: "role", role: "admins" });
  const people = await peopleByIds(ids);
  return [...people.values()].map((p) => p.email);
}

function mails(to: string[], kind: string, subject: string, text: string): Email[] {
  return [...new Set(to.filter(Boolean))].map((address) => ({ to: address, kind, subject, text: `${text}\n\n${appOrigin()}/payments\n` }));
}

async function personOrThrow(userId: string): Promise<PersonSummary> {
  const person = await personById(userId);
  if (!person) throw notFound(A.personNotFound);
  return person;
}

function nameOf(p: PersonSummary): string {
  return p.fullName ? `${p.fullName} (${p.email})` : p.email;
}

/** nameOf for an e-mail: the name and address are inert text there (docs/decisions/0288). */
function mailNameOf(p: PersonSummary): string {
  return p.fullName ? `${userText(p.fullName)} (${userText(p.email)})` : userText(p.email);
}

function tell(userId: string, title: string, content: string, createdBy: string): Promise<void> {
  return notifyUserQuietly(userId, { title, content, kind: "agreement", createdBy });
}

/** Runs a guarded batch; a failed precondition becomes the conflict `message`. */
async function guarded(statements: BatchItem<"sqlite">[], message: string, title?: string): Promise<void> {
  try {
    await db().batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  } catch (error) {
    if (isPreconditionFailure(error)) throw conflict(message, title ? { title } : undefined);
    throw error;
  }
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

// --- The admin's steps (/admin/payments, "Agreements")

/** The person an admin names by e-mail or creator id. */
export async function findPerson(actor: Actor, who: string): Promise<PersonSummary> {
  authorize(actor, "payments", "manage");
  const key = who.trim();
  const id = key.includes("@") ? (await personByEmail(key.toLowerCase()))?.id : (await peopleByCreatorIds([key])).get(key.toUpperCase())?.id;
  if (!id) throw invalid(A.personNotFound, { fieldErrors: { person: A.personNotFound } });
  return personOrThrow(id);
}

export async function offerShare(actor: Actor, request: Request, input: { person: string; shareBp: number; note: string }): Promise<{ name: string }> {
  authorize(actor, "payments", "manage");
  const person = await findPerson(actor, input.person);
  const row = await agreementRow(person.id);
  if (row && row.status !== "active") throw conflict(A.offerNotActive(nameOf(person)));
  const id = crypto.randomUUID();
  const share = formatBp(input.shareBp);
  try {
    await guarded(
      [
        precondition(
          sql`not exists (select 1 from ${paymentAgreements} where ${paymentAgreements.userId} = ${person.id} and ${paymentAgreements.status} <> 'active')`,
        ),
        db()
          .insert(shareOffers)
          .values({ id, userId: person.id, shareBp: input.shareBp, note: input.note || null, offeredBy: actor.id }),
        auditQuery({
          eventType: "share_offer_made",
          severity: "high",
          userId: actor.id,
          targetUserId: person.id,
          request,
          details: { offer_id: id, share_bp: input.shareBp, note: input.note || null },
        }),
        ...mails(
          [person.email, actor.email],
          "share_offer_made",
          `A revised share of ${share} is offered to you`,
          `${appName()} offers ${mailNameOf(person)} a revised share of ${share} of net revenue${input.note ? ` (${userText(input.note)})` : ""}. It needs express acceptance on the Payments page; accepting starts a new 12-month term. Declining keeps the current share.`,
        ).map(emailQuery),
      ],
      A.offerNotActive(nameOf(person)),
    );
  } catch (error) {
    if (String((error as Error)?.message ?? error).includes("UNIQUE")) throw conflict(A.offerOpen(nameOf(person)));
    throw error;
  }
  await tell(person.id, "Revised share offered", `We offer you a revised share of ${share}. Review and accept or decline it on your Payments page.`, actor.id);
  return { name: nameOf(person) };
}

export async function withdrawOffer(actor: Actor, request: Request, offerId: string): Promise<void> {
  authorize(actor, "payments", "manage");
  const offer = await db().select().from(shareOffers).where(eq(shareOffers.id, offerId)).get();
  if (!offer) throw notFound(A.offerNotFound);
  const person = await personOrThrow(offer.userId);
  await guarded(
    [
      db()
        .update(shareOffers)
        .set({ status: "withdrawn", respondedAt: new Date().toISOString() })
        .where(and(eq(shareOffers.id, offerId), eq(shareOffers.status, "offered"))),
      precondition(previousStatementChanged(1)),
      auditQuery({
        eventType: "share_offer_withdrawn",
        severity: "medium",
        userId: actor.id,
        targetUserId: offer.userId,
        request,
        details: { offer_id: offerId },
      }),
      ...mails(
        [person.email, actor.email],
        "share_offer_withdrawn",
        "The revised-share offer was withdrawn",
        `The offer of a revised share of ${formatBp(offer.shareBp)} to ${mailNameOf(person)} was withdrawn. The current share stays.`,
      ).map(emailQuery),
    ],
    A.offerAnswered,
  );
}

/** Termination for cause: immediate effect (the account earns nothing after today), with a reason; any open offer lapses. */
export async function terminateForCause(
  actor: Actor,
  request: Request,
  input: { person: string; reason: string },
  now = new Date(),
): Promise<{ name: string; endsOn: string }> {
  authorize(actor, "payments", "manage");
  const person = await findPerson(actor, input.person);
  const reason = input.reason.slice(0, REASON_MAX);
  const day = dayOf(now);
  const at = now.toISOString();
  const row = await agreementRow(person.id);
  if (row?.status === "terminated" || (row?.status === "notice" && row.endsOn && row.endsOn < day)) throw conflict(A.endedAlready(nameOf(person)));
  const stillRunning = and(ne(paymentAgreements.status, "terminated"), or(isNull(paymentAgreements.endsOn), sql`${paymentAgreements.endsOn} >= ${day}`));
  await guarded(
    [
      db()
        .insert(paymentAgreements)
        .values({ userId: person.id, status: "terminated", endsOn: day, terminatedAt: at, terminatedBy: actor.id, terminationReason: reason, updatedAt: at })
        .onConflictDoUpdate({
          target: paymentAgreements.userId,
          set: { status: "terminated", endsOn: day, terminatedAt: at, terminatedBy: actor.id, terminationReason: reason, updatedAt: at },
          setWhere: stillRunning,
        }),
      precondition(previousStatementChanged(1)),
      db()
        .update(shareOffers)
        .set({ status: "withdrawn", respondedAt: at })
        .where(and(eq(shareOffers.userId, person.id), eq(shareOffers.status, "offered"))),
      auditQuery({
        eventType: "agreement_terminated_for_cause",
        severity: "high",
        userId: actor.id,
        targetUserId: person.id,
        request,
        details: { ends_on: day, reason },
      }),
      ...mails(
        [person.email, actor.email],
        "agreement_terminated",
        "The Creator Agreement has been terminated",
        `${appName()} terminated the Creator Agreement with ${mailNameOf(person)} for cause, with immediate effect (${formatPayoutDay(day)}).\n\nReason: ${userText(reason)}\n\nNo earnings accrue after that day. Balances finalized before it are still paid unless they are held.`,
      ).map(emailQuery),
    ],
    A.endedAlready(nameOf(person)),
  );
  await tell(person.id, "Creator Agreement terminated", `Your Creator Agreement was terminated for cause with immediate effect. Reason: ${reason}`, actor.id);
  return { name: nameOf(person), endsOn: day };
}

/** Holds a person's payouts (the payout-day job skips them) with a reason, or releases the hold. */
export async function setHold(actor: Actor, request: Request, input: { person: string; reason: string | null }): Promise<{ name: string }> {
  authorize(actor, "payments", "manage");
  const person = await findPerson(actor, input.person);
  const at = new Date().toISOString();
  if (input.reason) {
    const reason = input.reason.slice(0, REASON_MAX);
    await guarded(
      [
        db()
          .insert(paymentAgreements)
          .values({ userId: person.id, heldAt: at, heldBy: actor.id, holdReason: reason, updatedAt: at })
          .onConflictDoUpdate({
            target: paymentAgreements.userId,
            set: { heldAt: at, heldBy: actor.id, holdReason: reason, updatedAt: at },
            setWhere: isNull(paymentAgreements.heldAt),
          }),
        precondition(previousStatementChanged(1)),
        auditQuery({ eventType: "payouts_held", severity: "high", userId: actor.id, targetUserId: person.id, request, details: { reason } }),
        ...mails(
          [person.email, actor.email],
          "payouts_held",
          "Payouts on hold",
          `Payouts to ${mailNameOf(person)} are on hold.\n\nReason: ${userText(reason)}\n\nThe balance stays on the account until the hold is released.`,
        ).map(emailQuery),
      ],
      A.heldAlready(nameOf(person)),
    );
  } else {
    await guarded(
      [
        db()
          .update(paymentAgreements)
          .set({ heldAt: null, heldBy: null, holdReason: null, updatedAt: at })
          .where(and(eq(paymentAgreements.userId, person.id), isNotNull(paymentAgreements.heldAt))),
        precondition(previousStatementChanged(1)),
        auditQuery({ eventType: "payouts_hold_released", severity: "high", userId: actor.id, targetUserId: person.id, request, details: {} }),
        ...mails(
          [person.email, actor.email],
          "payouts_released",
          "Payouts released",
          `The hold on payouts to ${mailNameOf(person)} was released. The balance is paid on the next payout day.`,
        ).map(emailQuery),
      ],
      A.notHeld(nameOf(person)),
    );
  }
  return { name: nameOf(person) };
}

/** Agreements that are not plain and active (notice, terminated, held) and open offers, for the admin page. */
export async function agreementsOverview(actor: Actor): Promise<AgreementAdminRow[]> {
  authorize(actor, "payments", "manage");
  const [rows, offers] = await db().batch([
    db()
      .select()
      .from(paymentAgreements)
      .where(or(ne(paymentAgreements.status, "active"), isNotNull(paymentAgreements.heldAt)))
      .orderBy(desc(paymentAgreements.updatedAt))
      .limit(200),
    db()
      .select({ id: shareOffers.id, userId: shareOffers.userId, shareBp: shareOffers.shareBp, createdAt: shareOffers.createdAt })
      .from(shareOffers)
      .where(eq(shareOffers.status, "offered"))
      .orderBy(desc(shareOffers.createdAt))
      .limit(200),
  ]);
  const ids = [...new Set([...rows.map((r) => r.userId), ...offers.map((o) => o.userId)])];
  const people = await peopleByIds(ids);
  return ids.map((id) => {
    const r = rows.find((x) => x.userId === id);
    const o = offers.find((x) => x.userId === id);
    const p = people.get(id);
    return {
      userId: id,
      name: p?.fullName ?? p?.email ?? id,
      email: p?.email ?? "",
      creatorId: p?.creatorId ?? "",
      status: r?.status ?? "active",
      endsOn: r?.endsOn ?? null,
      terminationReason: r?.terminationReason ?? null,
      holdReason: r?.holdReason ?? null,
      offer: o ? { id: o.id, shareBp: o.shareBp, createdAt: o.createdAt } : null,
    };
  });
}

// --- What the money code asks of agreements

/** The last day each ended or ending account earns (notice or terminated), by person. Few rows: one statement. */
export async function agreementEnds(): Promise<Map<string, string>> {
  const rows = await db()
    .select({ userId: paymentAgreements.userId, endsOn: paymentAgreements.endsOn })
    .from(paymentAgreements)
    .where(isNotNull(paymentAgreements.endsOn));
  return new Map(rows.flatMap((r) => (r.endsOn ? [[r.userId, r.endsOn] as [string, string]] : [])));
}

/** People whose payouts an admin holds (the payout-day job leaves them out). */
export async function heldUserIds(userIds: readonly string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db().select({ userId: paymentAgreements.userId }).from(paymentAgreements).where(isNotNull(paymentAgreements.heldAt));
  const wanted = new Set(userIds);
  return new Set(rows.map((r) => r.userId).filter((id) => wanted.has(id)));
}
