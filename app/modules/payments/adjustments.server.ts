import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { ledgerEntries } from "~/db/schema";
import { columnsOf } from "~/db/columns";
import { conflict, invalid } from "~/lib/errors";
import { type Actor, authorize } from "~/lib/permissions";
import { alongsideSession, peopleMap, peopleWhereIdIn, type PersonSummary, adminSessionLimit } from "~/modules/accounts/accounts.server";
import { notifyUserQuietly } from "~/modules/notifications/notifications.server";
import { auditQuery } from "~/platform/audit.server";
import { builtOnce, db } from "~/platform/db.server";
import { appOrigin, emailQuery, userText } from "~/platform/email.server";
import { appName } from "~/platform/env.server";
import { isPreconditionFailure, precondition, previousStatementChanged } from "~/platform/precondition.server";
import { findPerson } from "./agreement-admin.server";
import { notInPayout } from "./balances.server";
import { monthLabel, monthOf } from "./calendar";
import { PAYMENT_MESSAGES as M } from "./messages";
import { formatCents } from "./money";

// Adjustments (issue 29; docs/decisions/0223-adjustments.md): an admin's credit or debit for a
// person and a statement month, with a reason. It is one ledger entry (source 'adjustment', the
// reason as its note), written finalized: the next payout day gathers it with the person's other
// payable entries. A debit larger than the balance leaves the balance negative: the payout day
// pays no one a negative or zero sum (it carries over), so the debit is taken from later earnings,
// and the person and the admin both see the negative balance. The form's token is the entry's id,
// so a double click or two tabs add it once.

export type AdjustmentInput = { token: string; person: string; month: string; direction: "credit" | "debit"; amountCents: number; reason: string };

/** The person's payable balance: finalized entries not yet in a payout (may be negative). */
async function payableBalance(userId: string): Promise<number> {
  const row = await db()
    .select({ total: sql<number>`coalesce(sum(${ledgerEntries.amountCents}), 0)`.mapWith(Number) })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.status, "finalized"), notInPayout()))
    .get();
  return row?.total ?? 0;
}

export async function addAdjustment(
  actor: Actor,
  request: Request,
  input: AdjustmentInput,
): Promise<{ name: string; amountCents: number; balanceCents: number }> {
  authorize(actor, "payments", "manage");
  if (input.month > monthOf(new Date())) throw invalid(M.adjustmentFutureMonth, { fieldErrors: { month: M.adjustmentFutureMonth } });
  const person = await findPerson(actor, input.person);
  const amountCents = input.direction === "debit" ? -input.amountCents : input.amountCents;
  const name = person.fullName || person.email;
  const signed = `${amountCents < 0 ? "−" : "+"}${formatCents(Math.abs(amountCents))}`;
  try {
    await db().batch([
      db()
        .insert(ledgerEntries)
        .values({
          id: input.token,
          userId: person.id,
          month: input.month,
          sourceKind: "adjustment",
          sourceId: input.token,
          netCents: amountCents,
          shareBp: 10_000,
          amountCents,
          status: "finalized",
          importId: null,
          note: input.reason,
        })
        .onConflictDoNothing(),
      precondition(previousStatementChanged(1)),
      auditQuery({
        eventType: "payment_adjustment_added",
        severity: "high",
        userId: actor.id,
        targetUserId: person.id,
        request,
        details: { entry_id: input.token, month: input.month, amount_cents: amountCents, reason: input.reason },
      }),
      emailQuery({
        to: person.email,
        kind: "payment_adjustment",
        subject: `An adjustment of ${signed} on your ${appName()} statement`,
        text: `We added an adjustment of ${signed} to your ${monthLabel(input.month)} statement.\n\nReason: ${userText(input.reason)}\n\nIt is included in your next payout. See your statement at ${appOrigin()}/payments?month=${input.month}.\n`,
      }),
    ]);
  } catch (error) {
    if (isPreconditionFailure(error)) throw conflict(M.adjustmentAlready);
    throw error;
  }
  await notifyUserQuietly(person.id, {
    title: "Statement adjusted",
    content: `${signed} on your ${monthLabel(input.month)} statement: ${input.reason}`,
    kind: "payment_adjustment",
    createdBy: actor.id,
  });
  return { name, amountCents, balanceCents: await payableBalance(person.id) };
}

export type AdjustmentRow = { id: string; name: string; email: string; month: string; amountCents: number; reason: string; status: string; createdAt: string };

/** startRecentAdjustments' statement, built once per isolate (db.server builtOnce, 0284; decision 0349), for an admin's session only (adminSessionLimit, 0356). */
const latestAdjustments = builtOnce((slot) =>
  db()
    .select(columnsOf(ledgerEntries, "id", "userId", "month", "amountCents", "note", "status", "createdAt"))
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.sourceKind, "adjustment"), isNull(ledgerEntries.importId)))
    .orderBy(desc(ledgerEntries.createdAt))
    .limit(adminSessionLimit(slot, slot("limit"))),
);

/** The people the latest adjustments name, over the same statement's conditions and limit: in its batch (decision 0352). */
const latestAdjustmentsPeople = builtOnce((slot) =>
  peopleWhereIdIn(
    [
      sql`select ${ledgerEntries.userId} from ${ledgerEntries} where ${and(eq(ledgerEntries.sourceKind, "adjustment"), isNull(ledgerEntries.importId))} order by ${ledgerEntries.createdAt} desc limit ${slot<number>("limit")}`,
    ],
    adminSessionLimit(slot),
  ),
);

/**
 * The latest adjustments, for the admin page, read in the session lookup's batch with the people
 * they name (one round trip for /admin/payments, decision 0352): call before the guard, then give
 * the guard's actor.
 */
export function startRecentAdjustments(args: Parameters<typeof alongsideSession>[0], limit = 20): (actor: Actor) => Promise<AdjustmentRow[]> {
  const latest = alongsideSession(args, (session) => latestAdjustments({ ...session, limit }));
  const named = alongsideSession(args, (session) => latestAdjustmentsPeople({ ...session, limit }));
  return async (actor) => {
    authorize(actor, "payments", "manage");
    const [rows, people] = [await latest, peopleMap(await named)];
    return adjustmentRowsOf(rows, people);
  };
}

function adjustmentRowsOf(rows: Awaited<ReturnType<ReturnType<typeof latestAdjustments>["all"]>>, people: Map<string, PersonSummary>): AdjustmentRow[] {
  return rows.map((r) => ({
    id: r.id,
    name: people.get(r.userId)?.fullName || people.get(r.userId)?.email || r.userId,
    email: people.get(r.userId)?.email ?? "",
    month: r.month,
    amountCents: r.amountCents,
    reason: r.note ?? "",
    status: r.status,
    createdAt: r.createdAt,
  }));
}
