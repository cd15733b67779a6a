import { and, desc, eq, getTableColumns, isNull, sql, sum } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { ledgerEntries, payouts } from "~/db/schema";
import { toCsv } from "~/lib/csv";
import { conflict, notFound } from "~/lib/errors";
import { type Actor, authorize } from "~/lib/permissions";
import { peopleByIds } from "~/modules/accounts/accounts.server";
import { createNotification, notifyUser } from "~/modules/notifications/notifications.server";
import { audit, auditQuery, auditQueryWhen } from "~/platform/audit.server";
import { db } from "~/platform/db.server";
import { appOrigin, emailQuery, emailQueryWhen } from "~/platform/email.server";
import { appName } from "~/platform/env.server";
import { isPreconditionFailure, precondition, previousStatementChanged } from "~/platform/precondition.server";
import { isMonth, monthLabel, payoutDateIn, payoutRunDue } from "./calendar";
import { PAYMENT_MESSAGES as M } from "./messages";
import { centsToDecimal, formatCents } from "./money";
import { heldUserIds } from "./agreement.server";
import { payoutDay } from "./share.server";

// Payouts (docs/decisions/0122-payout-calendar.md). The daily cron calls `runPayoutDay`: from the
// payout date of a month on (the setting, Monday when it falls on a weekend) it gathers every
// person's finalized, unpaid entries into one payout of that run (batch = YYYY-MM). The payout's
// amount is summed and its entries attached in one batch (one transaction), and the unique
// (user, batch) index makes a second run — or two at once — gather nothing new. Entries finalized
// after a run wait for the next month's. Banned accounts are left out: their money moves only by
// an admin's explicit action. An admin marks a payout paid with the bank reference: a guarded
// update, so marking twice pays once.

/** People per statement pair (bound ids stay under D1's 100 parameters). */
const USERS_PER_CHUNK = 90;

export type PayoutRun = { batch: string | null; payouts: number; totalCents: number };

export async function runPayoutDay(now = new Date()): Promise<PayoutRun> {
  const day = await payoutDay();
  const batch = payoutRunDue(now, day);
  if (!batch) return { batch: null, payouts: 0, totalCents: 0 };
  const payoutDate = payoutDateIn(batch, day);

  const balances = await db()
    .select({ userId: ledgerEntries.userId, total: sum(ledgerEntries.amountCents).mapWith(Number) })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.status, "finalized"), isNull(ledgerEntries.payoutId)))
    .groupBy(ledgerEntries.userId)
    .having(sql`sum(${ledgerEntries.amountCents}) > 0`)
    .all();
  const [people, held] = await Promise.all([peopleByIds(balances.map((b) => b.userId)), heldUserIds(balances.map((b) => b.userId))]);
  // Banned people and people an admin holds (with a reason; decision 0130) are left out: their balance waits.
  const payable = balances.filter((b) => people.get(b.userId) && !people.get(b.userId)?.isBanned && !held.has(b.userId)).map((b) => b.userId);

  // One id prefix per run: an entry joins only a payout this run created (never an older one of the same batch).
  const token = crypto.randomUUID();
  const statements: BatchItem<"sqlite">[] = [];
  for (let i = 0; i < payable.length; i += USERS_PER_CHUNK) {
    const ids = payable.slice(i, i + USERS_PER_CHUNK);
    const inIds = sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    );
    // INSERT … SELECT … GROUP BY … HAVING: drizzle's select builder cannot name a constant per column, so
    // the select is raw SQL over every payouts column in table order (as precondition() does).
    const columns: Record<keyof typeof payouts.$inferSelect, ReturnType<typeof sql>> = {
      id: sql`${token} || ':' || user_id`,
      userId: sql`user_id`,
      batch: sql`${batch}`,
      payoutDate: sql`${payoutDate}`,
      amountCents: sql`sum(amount_cents)`,
      status: sql`'pending'`,
      reference: sql`null`,
      paidAt: sql`null`,
      paidBy: sql`null`,
      createdAt: sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
    };
    const select = sql.join(
      Object.keys(getTableColumns(payouts)).map((k) => columns[k as keyof typeof columns]),
      sql`, `,
    );
    statements.push(
      db()
        .insert(payouts)
        .select(
          sql`select ${select} from ledger_entries where status = 'finalized' and payout_id is null and user_id in (${inIds}) group by user_id having sum(amount_cents) > 0`,
        )
        .onConflictDoNothing(),
      db()
        .update(ledgerEntries)
        .set({ payoutId: sql`${token} || ':' || ${ledgerEntries.userId}` })
        .where(
          and(
            eq(ledgerEntries.status, "finalized"),
            isNull(ledgerEntries.payoutId),
            sql`${ledgerEntries.userId} in (${inIds})`,
            sql`exists (select 1 from payouts p where p.id = ${token} || ':' || ${ledgerEntries.userId})`,
          ),
        ),
    );
  }
  if (statements.length > 0) await db().batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  const made = await db()
    .select({ n: sql<number>`count(*)`.mapWith(Number), total: sql<number>`coalesce(sum(${payouts.amountCents}), 0)`.mapWith(Number) })
    .from(payouts)
    .where(sql`substr(${payouts.id}, 1, ${token.length + 1}) = ${`${token}:`}`)
    .get();
  return { batch, payouts: made?.n ?? 0, totalCents: made?.total ?? 0 };
}

/** The e-mail a person gets when their payout is marked paid (one payout or a whole run). */
function payoutPaidEmail(to: string, amountCents: number, reference: string) {
  const amount = formatCents(amountCents);
  return {
    to,
    kind: "payout_paid",
    subject: `Your ${appName()} payout of ${amount} has been sent`,
    text: `We have sent your payout of ${amount} (reference ${reference}).\n\nSee your statement and payout history at ${appOrigin()}/payments.\n`,
  };
}

/** Marks a pending payout paid with the bank transfer's reference: its entries become paid, the person is told. */
export async function markPayoutPaid(actor: Actor, request: Request, input: { payoutId: string; reference: string }): Promise<{ amountCents: number }> {
  authorize(actor, "payments", "markPaid");
  const payout = await db().select().from(payouts).where(eq(payouts.id, input.payoutId)).get();
  if (!payout) throw notFound(M.payoutNotFound);
  if (payout.status !== "pending") throw conflict(M.paidAlready);
  const person = (await peopleByIds([payout.userId])).get(payout.userId);
  const now = new Date().toISOString();
  const amount = formatCents(payout.amountCents);
  try {
    await db().batch([
      db()
        .update(payouts)
        .set({ status: "paid", reference: input.reference, paidAt: now, paidBy: actor.id })
        .where(and(eq(payouts.id, payout.id), eq(payouts.status, "pending"))),
      precondition(previousStatementChanged(1)),
      db()
        .update(ledgerEntries)
        .set({ status: "paid" })
        .where(and(eq(ledgerEntries.payoutId, payout.id), eq(ledgerEntries.status, "finalized"))),
      auditQuery({
        eventType: "payout_marked_paid",
        severity: "high",
        userId: actor.id,
        targetUserId: payout.userId,
        request,
        details: { payout_id: payout.id, batch: payout.batch, amount_cents: payout.amountCents, reference: input.reference },
      }),
      ...(person ? [emailQuery(payoutPaidEmail(person.email, payout.amountCents, input.reference))] : []),
    ]);
  } catch (error) {
    if (isPreconditionFailure(error)) throw conflict(M.paidAlready);
    throw error;
  }
  try {
    await notifyUser(payout.userId, {
      title: "Payout sent",
      content: `Your payout of ${amount} has been sent. Reference: ${input.reference}.`,
      kind: "payout_paid",
      createdBy: actor.id,
    });
  } catch (error) {
    // The payment is recorded; a missing bell entry must not undo it.
    console.error("payout notification failed", error);
  }
  return { amountCents: payout.amountCents };
}

/** Payouts per D1 batch when a whole run is marked paid: 4 statements each, well under D1's limits. */
const PAYOUTS_PER_PAID_BATCH = 20;

export type BatchPaid = { paid: number; amountCents: number; alreadyPaid: number };

/**
 * Marks every pending payout of a run paid with one bank reference (docs/decisions/0124). Per payout,
 * in one D1 batch per chunk: the guarded update (pending → paid), then its audit row and the
 * person's e-mail written only when that update changed the row (`changes() = 1`), then its entries.
 * A payout already paid — by a single 'mark paid' or by a parallel request — is left alone, so each
 * is paid, logged and e-mailed once. The bell follows as one notification to the people paid here.
 */
export async function markBatchPaid(actor: Actor, request: Request, input: { batch: string; reference: string }): Promise<BatchPaid> {
  authorize(actor, "payments", "markPaid");
  const rows = await db()
    .select({ id: payouts.id, userId: payouts.userId, amountCents: payouts.amountCents, status: payouts.status })
    .from(payouts)
    .where(eq(payouts.batch, input.batch))
    .all();
  if (rows.length === 0) throw notFound(M.batchNotFound);
  if (rows.every((r) => r.status !== "pending")) throw conflict(M.batchPaidAlready(input.batch));
  // Every payout of the run goes through the guarded update, not only those read as pending: the
  // update alone decides (a payout paid since this read, or before it, is skipped there).
  const people = await peopleByIds(rows.map((r) => r.userId));
  const now = new Date().toISOString();
  const paid: { id: string; userId: string; amountCents: number }[] = [];
  for (let i = 0; i < rows.length; i += PAYOUTS_PER_PAID_BATCH) {
    const statements: BatchItem<"sqlite">[] = [];
    for (const p of rows.slice(i, i + PAYOUTS_PER_PAID_BATCH)) {
      const person = people.get(p.userId);
      statements.push(
        db()
          .update(payouts)
          .set({ status: "paid", reference: input.reference, paidAt: now, paidBy: actor.id })
          .where(and(eq(payouts.id, p.id), eq(payouts.status, "pending")))
          .returning({ id: payouts.id, userId: payouts.userId, amountCents: payouts.amountCents }),
        auditQueryWhen(
          {
            eventType: "payout_marked_paid",
            severity: "high",
            userId: actor.id,
            targetUserId: p.userId,
            request,
            details: { payout_id: p.id, batch: input.batch, amount_cents: p.amountCents, reference: input.reference, whole_batch: true },
          },
          previousStatementChanged(1),
        ),
        // After the audit row: it was written exactly when the payout changed.
        emailQueryWhen(
          payoutPaidEmail(person?.email ?? "", p.amountCents, input.reference),
          sql`${previousStatementChanged(1)} and ${person?.email ?? ""} <> ''`,
        ),
        db()
          .update(ledgerEntries)
          .set({ status: "paid" })
          .where(
            and(
              eq(ledgerEntries.payoutId, p.id),
              eq(ledgerEntries.status, "finalized"),
              sql`exists (select 1 from payouts p where p.id = ${p.id} and p.status = 'paid')`,
            ),
          ),
      );
    }
    const results = (await db().batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]])) as unknown[];
    for (let j = 0; j < results.length; j += 4) paid.push(...(results[j] as typeof paid));
  }
  if (paid.length === 0) throw conflict(M.batchPaidAlready(input.batch));
  const amountCents = paid.reduce((s, p) => s + p.amountCents, 0);
  await audit({
    eventType: "payout_batch_marked_paid",
    severity: "high",
    userId: actor.id,
    request,
    details: { batch: input.batch, reference: input.reference, payouts: paid.length, amount_cents: amountCents },
  });
  try {
    await createNotification(
      {
        title: "Payout sent",
        content: `Your payout from the ${monthLabel(input.batch)} run has been sent. Reference: ${input.reference}. The amount is on your Payments page.`,
        kind: "payout_paid",
        createdBy: actor.id,
      },
      { type: "ids", userIds: [...new Set(paid.map((p) => p.userId))] },
      { audienceTag: `payout:${input.batch}` },
    );
  } catch (error) {
    // The payments are recorded; a missing bell entry must not undo them.
    console.error("payout notification failed", error);
  }
  return { paid: paid.length, amountCents, alreadyPaid: rows.length - paid.length };
}

/** The payout batches and the payouts of the newest ones, for the admin page. */
export async function payoutBatches(actor: Actor) {
  authorize(actor, "payments", "manage");
  const rows = await db()
    .select({
      id: payouts.id,
      userId: payouts.userId,
      batch: payouts.batch,
      amountCents: payouts.amountCents,
      status: payouts.status,
      reference: payouts.reference,
      paidAt: payouts.paidAt,
    })
    .from(payouts)
    .orderBy(desc(payouts.batch), desc(payouts.amountCents))
    .limit(500)
    .all();
  const people = await peopleByIds(rows.map((r) => r.userId));
  return rows.map((r) => ({ ...r, name: people.get(r.userId)?.fullName ?? null, email: people.get(r.userId)?.email ?? null }));
}

/** A batch as CSV for the bank: one line per payout. */
export async function payoutBatchCsv(actor: Actor, batch: string): Promise<{ filename: string; csv: string }> {
  authorize(actor, "payments", "manage");
  if (!isMonth(batch)) throw notFound(M.batchNotFound);
  const rows = await db().select().from(payouts).where(eq(payouts.batch, batch)).orderBy(desc(payouts.amountCents)).all();
  if (rows.length === 0) throw notFound(M.batchNotFound);
  const people = await peopleByIds(rows.map((r) => r.userId));
  const day = await payoutDay();
  const csv = toCsv([
    ["payout_id", "batch", "payout_date", "name", "email", "creator_id", "amount", "currency", "status", "reference", "paid_at"],
    ...rows.map((r) => {
      const p = people.get(r.userId);
      return [
        r.id,
        r.batch,
        r.payoutDate ?? payoutDateIn(r.batch, day),
        p?.fullName ?? "",
        p?.email ?? "",
        p?.creatorId ?? "",
        centsToDecimal(r.amountCents),
        "USD",
        r.status,
        r.reference,
        r.paidAt,
      ];
    }),
  ]);
  return { filename: `payouts-${batch}.csv`, csv };
}
