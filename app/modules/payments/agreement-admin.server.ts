import { and, desc, eq, isNotNull, isNull, ne, or, sql } from "drizzle-orm";
import { paymentAgreements, shareOffers } from "~/db/schema";
import { conflict, invalid, notFound } from "~/lib/errors";
import { type Actor, authorize } from "~/lib/permissions";
import {
  alongsideSession,
  peopleByCreatorIds,
  peopleMap,
  peopleWhereIdIn,
  personByEmail,
  type PersonSummary,
  adminSessionLimit,
} from "~/modules/accounts/accounts.server";
import { auditQuery } from "~/platform/audit.server";
import { builtOnce, db } from "~/platform/db.server";
import { emailQuery, userText } from "~/platform/email.server";
import { appName } from "~/platform/env.server";
import { precondition, previousStatementChanged } from "~/platform/precondition.server";
import { dayOf, formatPayoutDay } from "./calendar";
import { AGREEMENT_MESSAGES as A } from "./messages";
import { formatBp } from "~/lib/split";
import type { AgreementAdminRow } from "./types";
import { agreementRow, guarded, mailNameOf, mails, nameOf, personOrThrow, REASON_MAX, tell } from "./agreement-common.server";

// The Creator Agreement, the admin's steps (/admin/payments, "Agreements"; docs/decisions/0127-0130):
// revised-share offers, termination for cause, holds, and the overview. The creator's side is in
// agreement.server.ts; every step is one guarded statement in a D1 batch with its audit row and e-mails.

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

type SessionArgs = Parameters<typeof alongsideSession>[0];

/** startAgreementsOverview's statements, built once per isolate (db.server builtOnce, 0284; decision 0349), for an admin's session only (adminSessionLimit, 0356). */
const overview = {
  agreements: builtOnce((slot) =>
    db()
      .select()
      .from(paymentAgreements)
      .where(or(ne(paymentAgreements.status, "active"), isNotNull(paymentAgreements.heldAt)))
      .orderBy(desc(paymentAgreements.updatedAt))
      .limit(adminSessionLimit(slot, 200)),
  ),
  offers: builtOnce((slot) =>
    db()
      .select({ id: shareOffers.id, userId: shareOffers.userId, shareBp: shareOffers.shareBp, createdAt: shareOffers.createdAt })
      .from(shareOffers)
      .where(eq(shareOffers.status, "offered"))
      .orderBy(desc(shareOffers.createdAt))
      .limit(adminSessionLimit(slot, 200)),
  ),
};

/**
 * The people the two lists name, over the lists' own statements (the same conditions and limits):
 * in the same batch as the lists, not a round trip after them (decision 0352).
 */
const overviewPeople = builtOnce((slot) =>
  peopleWhereIdIn(
    [
      sql`select ${paymentAgreements.userId} from ${paymentAgreements} where ${or(ne(paymentAgreements.status, "active"), isNotNull(paymentAgreements.heldAt))} order by ${paymentAgreements.updatedAt} desc limit 200`,
      sql`select ${shareOffers.userId} from ${shareOffers} where ${shareOffers.status} = 'offered' order by ${shareOffers.createdAt} desc limit 200`,
    ],
    adminSessionLimit(slot),
  ),
);

/**
 * Agreements that are not plain and active (notice, terminated, held) and open offers, for the admin
 * page, read in the session lookup's batch with the people they name (one round trip for
 * /admin/payments, decision 0352): call before the guard, then give the guard's actor.
 */
export function startAgreementsOverview(args: SessionArgs): (actor: Actor) => Promise<AgreementAdminRow[]> {
  const agreements = alongsideSession(args, overview.agreements);
  const offered = alongsideSession(args, overview.offers);
  const named = alongsideSession(args, overviewPeople);
  return async (actor) => {
    authorize(actor, "payments", "manage");
    const [rows, offers, people] = [await agreements, await offered, peopleMap(await named)];
    const ids = [...new Set([...rows.map((r) => r.userId), ...offers.map((o) => o.userId)])];
    return agreementsOf(ids, rows, offers, people);
  };
}

function agreementsOf(
  ids: string[],
  rows: (typeof paymentAgreements.$inferSelect)[],
  offers: { id: string; userId: string; shareBp: number; createdAt: string }[],
  people: Map<string, PersonSummary>,
): AgreementAdminRow[] {
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
