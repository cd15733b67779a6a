import { and, eq, getTableColumns, gt, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { ledgerEntries, payouts } from "~/db/schema";
import { peopleByIds } from "~/modules/accounts/accounts.server";
import { audit } from "~/platform/audit.server";
import { db } from "~/platform/db.server";
import { getSettings } from "~/platform/settings.server";
import { stripeConfig } from "~/platform/stripe.server";
import { heldUserIds } from "./agreement.server";
import { notInPayout } from "./balances.server";
import { payoutDateIn, payoutRunDue } from "./calendar";
import { PAYOUT_MESSAGES as P } from "./messages";
import { payoutAccountsOf } from "./payout-accounts.server";
import { payoutDay } from "./share.server";

// The gathering of a payout run, a chunk of people at a time (docs/decisions/0122, 0331). The same
// steps serve the payout-day Workflow (workers/payout-day.ts: one chunk per durable step) and
// `runPayoutDay` (the whole run in one call: tests, the dev tool). A chunk is the next `limit`
// people by user id, after a cursor, whose finalized unpaid balance reaches the minimum; each
// eligible one's entries become one payout of the run (batch = YYYY-MM). The unique (user, batch)
// index and the guarded entry update make a retried chunk, a second instance or a rerun gather
// nothing twice.
//
// Every "in no payout" term is `notInPayout()` (+payout_id is null, decision 0338): read through
// ledger_entries_payout_idx it is every unpaid entry of everyone, and at 100,000 creators each of a
// chunk's 25 statements read 200,000 rows (545 ms in node:sqlite; a chunk of 1,000 people took
// 7–15 s, the whole gather ~13 min); through (user_id, month) it reads the chunk's own rows (4 ms).

/** People per statement pair (bound ids stay under D1's 100 parameters). */
const USERS_PER_STATEMENT = 90;
/** People per gather step of the Workflow: 1,000 people are 12 D1 batches, well inside a step's limits. */
export const PEOPLE_PER_CHUNK = 1000;

/** What a run needs to know, fixed when it starts: the month, its payout date and the minimum. */
export type PayoutRunPlan = { batch: string; payoutDate: string; minimumCents: number };

/** The run due on `now` (from the payout date of its month on), or null. */
export async function payoutRunPlan(now: Date): Promise<PayoutRunPlan | null> {
  const batch = payoutRunDue(now, await payoutDay());
  return batch ? payoutRunPlanFor(batch) : null;
}

/** The plan of the run of `batch` (YYYY-MM), with today's settings. */
export async function payoutRunPlanFor(batch: string): Promise<PayoutRunPlan> {
  const [day, settings] = await Promise.all([payoutDay(), getSettings()]);
  return { batch, payoutDate: payoutDateIn(batch, day), minimumCents: settings.payoutMinimumUsd * 100 };
}

/** What one chunk did: the cursor for the next one (null: the last chunk), and counts, never ids (a step's result is small). */
export type GatherChunk = { next: string | null; people: number; gathered: number; waitingForStripe: number };

/**
 * Gathers the next chunk of people after `after` (a user id; "" for the first). Each person's
 * payable balance of at least the minimum becomes one payout: through Stripe for a person whose
 * Express account is enabled, by hand for a person an admin pays outside Stripe. Banned people,
 * people on hold and people without an enabled account wait; without the Stripe secrets the Stripe
 * people wait too (counted in `waitingForStripe`). Payout ids are `<token>:<user id>`: the token is
 * the run's own (the Workflow's instance id), so an entry joins only a payout this run made.
 */
export async function gatherChunk(plan: PayoutRunPlan, token: string, after: string, limit = PEOPLE_PER_CHUNK): Promise<GatherChunk> {
  const minimum = Math.max(1, plan.minimumCents);
  const balances = await nextBalancesQuery(after, minimum, limit).all();
  const ids = balances.map((b) => b.userId);
  const next = ids.length === limit ? (ids.at(-1) ?? null) : null;
  if (ids.length === 0) return { next, people: 0, gathered: 0, waitingForStripe: 0 };
  const [people, held, accounts] = await Promise.all([peopleByIds(ids), heldUserIds(ids), payoutAccountsOf(ids)]);
  // Banned people and people an admin holds (with a reason; decision 0130) are left out: their balance waits.
  const eligible = ids.filter((id) => people.get(id) && !people.get(id)?.isBanned && !held.has(id));
  const manual = eligible.filter((id) => accounts.get(id)?.method === "manual");
  let viaStripe = eligible.filter((id) => {
    const a = accounts.get(id);
    return a?.method !== "manual" && a?.status === "enabled" && !!a.stripeAccountId;
  });
  const waitingForStripe = stripeConfig() ? 0 : viaStripe.length;
  if (waitingForStripe > 0) viaStripe = [];

  const statements: BatchItem<"sqlite">[] = [];
  for (const [method, group] of [
    ["manual", manual],
    ["stripe", viaStripe],
  ] as const) {
    for (let i = 0; i < group.length; i += USERS_PER_STATEMENT)
      statements.push(...gatherQueries(group.slice(i, i + USERS_PER_STATEMENT), method, token, plan, minimum));
  }
  let gathered = 0;
  for (let i = 0; i < statements.length; i += 50) {
    const results = (await db().batch(statements.slice(i, i + 50) as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]])) as unknown[];
    // Every other statement is an INSERT of payouts returning the ids it made: those are the payouts.
    // (Not D1's meta.changes: it counts the rows payouts' triggers write too, decision 0353.)
    for (let j = 0; j < results.length; j += 2) gathered += (results[j] as unknown[]).length;
  }
  return { next, people: ids.length, gathered, waitingForStripe };
}

/** Once per run, when Stripe people waited because the secrets are missing: the audit log and the error log say so. */
export async function auditStripeRefusal(batch: string, waiting: number): Promise<string> {
  console.error(`payout day ${batch}: ${P.adminNotConfigured}`);
  await audit({ eventType: "payout_run_refused", severity: "critical", details: { batch, waiting, reason: "stripe not configured" } });
  return P.adminNotConfigured;
}

/** How many payouts, and how much, the run with this token made (its ids start with `<token>:`). */
export async function madeByRun(token: string): Promise<{ payouts: number; totalCents: number }> {
  const made = await db()
    .select({ n: sql<number>`count(*)`.mapWith(Number), total: sql<number>`coalesce(sum(${payouts.amountCents}), 0)`.mapWith(Number) })
    .from(payouts)
    .where(sql`substr(${payouts.id}, 1, ${token.length + 1}) = ${`${token}:`}`)
    .get();
  return { payouts: made?.n ?? 0, totalCents: made?.total ?? 0 };
}

/** The next `limit` people after the cursor whose finalized unpaid balance reaches the minimum (exported for the plan test). */
export function nextBalancesQuery(after: string, minimum: number, limit: number) {
  return db()
    .select({ userId: ledgerEntries.userId })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.status, "finalized"), notInPayout(), gt(ledgerEntries.userId, after)))
    .groupBy(ledgerEntries.userId)
    .having(sql`sum(${ledgerEntries.amountCents}) >= ${minimum}`)
    .orderBy(ledgerEntries.userId)
    .limit(limit);
}

/**
 * A chunk of people's payouts of a run: INSERT … SELECT … GROUP BY … HAVING (the amount is the sum of
 * the entries it gathers), then the entries attached, in one batch. drizzle's select builder cannot
 * name a constant per column, so the select is raw SQL over every payouts column in table order.
 */
export function gatherQueries(ids: string[], method: "stripe" | "manual", token: string, plan: PayoutRunPlan, minimum: number): BatchItem<"sqlite">[] {
  const inIds = sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );
  const columns: Record<keyof typeof payouts.$inferSelect, ReturnType<typeof sql>> = {
    id: sql`${token} || ':' || user_id`,
    userId: sql`user_id`,
    batch: sql`${plan.batch}`,
    payoutDate: sql`${plan.payoutDate}`,
    amountCents: sql`sum(amount_cents)`,
    status: sql`'pending'`,
    reference: sql`null`,
    paidAt: sql`null`,
    paidBy: sql`null`,
    createdAt: sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
    method: sql`${method}`,
    stripeAccountId: method === "stripe" ? sql`(select a.stripe_account_id from payout_accounts a where a.user_id = ledger_entries.user_id)` : sql`null`,
    stripeTransferId: sql`null`,
    sentAt: sql`null`,
    failedAt: sql`null`,
    failureReason: sql`null`,
    heldAt: sql`null`,
    heldReason: sql`null`,
  };
  const select = sql.join(
    Object.keys(getTableColumns(payouts)).map((k) => columns[k as keyof typeof columns]),
    sql`, `,
  );
  return [
    db()
      .insert(payouts)
      .select(
        sql`select ${select} from ledger_entries where status = 'finalized' and ${notInPayout()} and user_id in (${inIds}) group by user_id having sum(amount_cents) >= ${minimum}`,
      )
      .onConflictDoNothing()
      .returning({ id: payouts.id }),
    db()
      .update(ledgerEntries)
      .set({ payoutId: sql`${token} || ':' || ${ledgerEntries.userId}` })
      .where(
        and(
          eq(ledgerEntries.status, "finalized"),
          notInPayout(),
          sql`${ledgerEntries.userId} in (${inIds})`,
          sql`exists (select 1 from payouts p where p.id = ${token} || ':' || ${ledgerEntries.userId})`,
        ),
      ),
  ];
}
