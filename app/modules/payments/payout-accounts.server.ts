import { and, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import { payoutAccounts } from "~/db/schema";
import { conflict, DomainError, invalid } from "~/lib/errors";
import { type Actor, authorize } from "~/lib/permissions";
import { alongsideSession, peopleMap, peopleWhereIdIn, personById, adminSessionLimit } from "~/modules/accounts/accounts.server";
import { auditQuery } from "~/platform/audit.server";
import { builtOnce, db, type Slot } from "~/platform/db.server";
import { isPreconditionFailure, precondition, previousStatementChanged } from "~/platform/precondition.server";
import { isStripeRefusal, stripeClient, stripeConfig, stripeMode, stripePlatformCountry } from "~/platform/stripe.server";
import { findPerson } from "./agreement-admin.server";
import { PAYOUT_MESSAGES as P } from "./messages";
import { payoutCountriesFor, serviceAgreementFor } from "./payout-countries";
import type { PayoutAccountView } from "./types";

// Where each person's money goes (issue 29; docs/decisions/0224): a Stripe Connect Express account
// the person sets up from /payments (Stripe's hosted onboarding, a return and a refresh URL, the
// status Stripe reports: needs information / enabled / restricted), or "paid outside Stripe" when an
// admin says so (a country Stripe cannot pay, a person paid by bank transfer as before).

type AccountData = {
  details_submitted?: boolean;
  payouts_enabled?: boolean;
  capabilities?: { transfers?: string } | null;
  requirements?: { currently_due?: string[] | null; past_due?: string[] | null; disabled_reason?: string | null } | null;
};

/** The status a person sees for what Stripe reports of their account (and why, in their words). */
export function accountStatusOf(a: AccountData): { status: "needs_information" | "enabled" | "restricted"; reason: string | null } {
  const due = (a.requirements?.currently_due?.length ?? 0) + (a.requirements?.past_due?.length ?? 0);
  if (a.payouts_enabled && a.capabilities?.transfers === "active") {
    return { status: "enabled", reason: due > 0 ? P.reasonDueSoon : null };
  }
  if (!a.details_submitted) return { status: "needs_information", reason: P.reasonNotFinished };
  const why = a.requirements?.disabled_reason ?? "";
  if (why === "requirements.pending_verification") return { status: "restricted", reason: P.reasonVerifying };
  if (why.startsWith("rejected")) return { status: "restricted", reason: P.reasonRejected };
  if (why === "requirements.past_due" || due > 0) return { status: "restricted", reason: P.reasonMoreInfo };
  return { status: "restricted", reason: P.reasonRestricted };
}

const accountRowQuery = builtOnce((slot) =>
  db()
    .select()
    .from(payoutAccounts)
    .where(eq(payoutAccounts.userId, slot("userId"))),
);

async function accountRow(userId: string) {
  return accountRowQuery({ userId }).get();
}

/** Each person's payout account row (absent: no account yet, paid through Stripe once they set one up). */
export async function payoutAccountsOf(userIds: readonly string[]) {
  const out = new Map<string, typeof payoutAccounts.$inferSelect>();
  for (let i = 0; i < userIds.length; i += 90) {
    const rows = await db()
      .select()
      .from(payoutAccounts)
      .where(inArray(payoutAccounts.userId, userIds.slice(i, i + 90)))
      .all();
    for (const r of rows) out.set(r.userId, r);
  }
  return out;
}

/** What a payout account row (its method, Stripe account and status columns) means to its person; undefined: none yet. Also the dashboard's money card (glance.server). */
export function viewOf(
  row: Pick<typeof payoutAccounts.$inferSelect, "method" | "stripeAccountId" | "status" | "statusReason" | "manualReason"> | undefined,
): PayoutAccountView {
  const mode = stripeMode();
  const countries = payoutCountriesFor(stripePlatformCountry());
  return {
    available: mode !== "off" && countries.length > 0,
    countries,
    standIn: mode === "stand-in",
    method: row?.method ?? "stripe",
    status: row?.stripeAccountId ? (row.status ?? "needs_information") : "none",
    statusReason: row?.stripeAccountId ? row.statusReason : null,
    manualReason: row?.method === "manual" ? row.manualReason : null,
  };
}

/** The person's own payout method as /payments shows it. */
export async function payoutAccountView(actor: Actor): Promise<PayoutAccountView> {
  authorize(actor, "payments", "readOwn");
  return viewOf(await accountRow(actor.id));
}

function unavailable(): DomainError {
  return new DomainError("unavailable", P.notConfigured, { title: "Payouts are not available" });
}

/**
 * A call to Stripe from a person's request, its failures in their words: a concurrent request with
 * the same idempotency key (two clicks) is waited for and asked again; a refusal says Stripe's reason;
 * no answer is "try again later". Nothing of ours has changed in either case.
 */
async function viaStripe<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if ((error as { statusCode?: number })?.statusCode === 409) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      return call();
    }
    if (isStripeRefusal(error)) throw invalid(`${P.stripeRefused} ${error.message}`);
    console.error("stripe call failed", error);
    throw new DomainError("unavailable", P.stripeUnreachable, { title: "Stripe did not answer" });
  }
}

/** Stores what Stripe says of an account, unless a newer report is already stored. */
function syncQuery(accountId: string, a: AccountData, at: string) {
  const { status, reason } = accountStatusOf(a);
  return db()
    .update(payoutAccounts)
    .set({ status, statusReason: reason, syncedAt: at, updatedAt: new Date().toISOString() })
    .where(and(eq(payoutAccounts.stripeAccountId, accountId), or(isNull(payoutAccounts.syncedAt), sql`${payoutAccounts.syncedAt} <= ${at}`)));
}

/** How long a claim holds before another request may take it over: far above one Stripe call (20 s, one retry). */
const CLAIM_TTL_MS = 2 * 60 * 1000;
/** How long a second request waits for the claim's holder to store the account, and how often it looks. */
const CLAIM_WAIT_MS = 8000;
const CLAIM_POLL_MS = 200;

/**
 * The person's claim on creating their account (docs/decisions/0296): their payout_accounts row
 * (user_id is its primary key) marked "creation in progress", set only where no account is stored,
 * the method is Stripe and no live claim is held. One request of any number at once gets it.
 */
async function claimAccountCreation(userId: string): Promise<string | null> {
  const claim = crypto.randomUUID();
  const now = new Date();
  const result = await db()
    .insert(payoutAccounts)
    .values({ userId, method: "stripe", accountClaim: claim, accountClaimedAt: now.toISOString() })
    .onConflictDoUpdate({
      target: payoutAccounts.userId,
      set: { accountClaim: claim, accountClaimedAt: now.toISOString(), updatedAt: now.toISOString() },
      setWhere: and(
        isNull(payoutAccounts.stripeAccountId),
        eq(payoutAccounts.method, "stripe"),
        or(isNull(payoutAccounts.accountClaim), lt(payoutAccounts.accountClaimedAt, new Date(now.getTime() - CLAIM_TTL_MS).toISOString())),
      ),
    })
    .run();
  return (result.meta.changes ?? 0) === 1 ? claim : null;
}

function releaseClaimQuery(userId: string, claim: string) {
  return db()
    .update(payoutAccounts)
    .set({ accountClaim: null, accountClaimedAt: null })
    .where(and(eq(payoutAccounts.userId, userId), eq(payoutAccounts.accountClaim, claim)));
}

/** Another request holds the claim: its account, once stored (the same onboarding follows), or why not. */
async function accountOfClaimHolder(userId: string): Promise<string> {
  for (let waited = 0; waited <= CLAIM_WAIT_MS; waited += CLAIM_POLL_MS) {
    const row = await accountRow(userId);
    if (row?.method === "manual") throw conflict(P.paidOutside);
    if (row?.stripeAccountId) return row.stripeAccountId;
    // The holder gave up (Stripe refused or did not answer): this request says so rather than retrying.
    if (!row?.accountClaim) throw new DomainError("unavailable", P.accountNotCreated, { title: "Payout account not created" });
    await new Promise((resolve) => setTimeout(resolve, CLAIM_POLL_MS));
  }
  throw conflict(P.accountBeingCreated);
}

/**
 * The person's Express account, created once: under the claim, the one Stripe call (its idempotency
 * key is the claim's, so the SDK's own retry of a dropped connection is the same request,
 * https://docs.stripe.com/api/idempotent_requests), stored with the claim cleared in one guarded
 * write. Every other request at the same time waits for that account (whatever country it asked for).
 */
async function createAccountOnce(actor: Actor, request: Request, stripe: Awaited<ReturnType<typeof stripeClient>>, country: string): Promise<string> {
  const claim = await claimAccountCreation(actor.id);
  if (!claim) return accountOfClaimHolder(actor.id);
  const person = await personById(actor.id);
  const agreement = serviceAgreementFor(stripePlatformCountry(), country);
  let account: Awaited<ReturnType<typeof stripe.accounts.create>>;
  try {
    account = await viaStripe(() =>
      stripe.accounts.create(
        {
          type: "express",
          email: person?.email,
          country,
          business_type: "individual",
          capabilities: { transfers: { requested: true } },
          // Outside the platform's own country the account only receives transfers: a cross-border
          // payout needs Stripe's recipient agreement (payout-countries.ts, docs/decisions/0306).
          ...(agreement ? { tos_acceptance: { service_agreement: agreement } } : {}),
          metadata: { user_id: actor.id },
        },
        { idempotencyKey: `payout-account-${actor.id}-${claim}` },
      ),
    );
  } catch (error) {
    await releaseClaimQuery(actor.id, claim).run();
    throw error;
  }
  const { status, reason } = accountStatusOf(account);
  const at = new Date((account.created ?? Math.floor(Date.now() / 1000)) * 1000).toISOString();
  const stored = await db().batch([
    db()
      .update(payoutAccounts)
      .set({
        stripeAccountId: account.id,
        status,
        statusReason: reason,
        syncedAt: at,
        accountClaim: null,
        accountClaimedAt: null,
        updatedAt: new Date().toISOString(),
      })
      .where(and(eq(payoutAccounts.userId, actor.id), eq(payoutAccounts.accountClaim, claim), isNull(payoutAccounts.stripeAccountId))),
    auditQuery({
      eventType: "payout_account_created",
      severity: "medium",
      userId: actor.id,
      targetUserId: actor.id,
      request,
      details: { country, account: account.id },
    }),
  ]);
  if ((stored[0].meta.changes ?? 0) !== 1) {
    // The claim was taken over (this request outlived it) or an admin chose "paid outside Stripe"
    // meanwhile: the account exists at Stripe but is not the person's. Said loudly, for an admin.
    console.error("payout account created after its claim was lost", { userId: actor.id, account: account.id });
    throw conflict(P.accountBeingCreated);
  }
  return account.id;
}

/**
 * Starts (or continues) the person's Stripe onboarding: their Express account is created once, by
 * the one request that holds the claim (0296), then a fresh one-time account link is made. Returns
 * where to send the browser.
 */
export async function startPayoutOnboarding(actor: Actor, request: Request, input: { country: string }): Promise<{ url: string }> {
  authorize(actor, "payments", "readOwn");
  if (!stripeConfig()) throw unavailable();
  const existing = await accountRow(actor.id);
  if (existing?.method === "manual") throw conflict(P.paidOutside);
  const stripe = await stripeClient(new URL(request.url).origin);
  let accountId = existing?.stripeAccountId ?? null;
  // Only a country Stripe lets this platform pay (docs/decisions/0306); an existing account keeps its own.
  if (!accountId && !payoutCountriesFor(stripePlatformCountry()).some((c) => c.code === input.country)) {
    throw invalid(P.chooseCountry, { fieldErrors: { country: P.chooseCountry } });
  }
  accountId ??= await createAccountOnce(actor, request, stripe, input.country);
  const origin = new URL(request.url).origin;
  const id = accountId;
  const link = await viaStripe(() =>
    stripe.accountLinks.create({
      account: id,
      refresh_url: `${origin}/payments/payout-account/refresh`,
      return_url: `${origin}/payments/payout-account/return`,
      type: "account_onboarding",
    }),
  );
  return { url: link.url };
}

/** On the way back from Stripe's onboarding: the account's status as Stripe has it now. */
export async function syncPayoutAccount(actor: Actor, request: Request): Promise<PayoutAccountView> {
  authorize(actor, "payments", "readOwn");
  const row = await accountRow(actor.id);
  if (!row?.stripeAccountId || !stripeConfig()) return viewOf(row);
  try {
    const account = await (await stripeClient(new URL(request.url).origin)).accounts.retrieve(row.stripeAccountId);
    await syncQuery(row.stripeAccountId, account, new Date().toISOString()).run();
  } catch (error) {
    // Stripe's webhook (account.updated) brings the status anyway; the page shows what is stored.
    console.error("reading the payout account from Stripe failed", error);
  }
  return viewOf(await accountRow(actor.id));
}

/** Stripe did not answer a read of an account: the webhook answers 503 and Stripe delivers the event again. */
export class StripeAccountUnreadable extends Error {}

/**
 * A webhook's account.updated (docs/decisions/0297): the account is read back from Stripe
 * (https://docs.stripe.com/api/accounts/retrieve) and what Stripe says now is stored, stamped with
 * the time it was read, never the event's payload: Stripe does not deliver events in the order they
 * happened (https://docs.stripe.com/webhooks#event-ordering), and two account.updated in the same
 * second cannot be ordered by `created`. Of two reads, the later one is stored (syncQuery's guard).
 * Null when Stripe refuses the read (an account no longer connected): nothing to store. The
 * statement comes wrapped (a drizzle query is thenable: an async function returning it would run it).
 */
export async function accountStateFromStripe(accountId: string) {
  let account: AccountData;
  try {
    account = await (await stripeClient()).accounts.retrieve(accountId);
  } catch (error) {
    if (isStripeRefusal(error)) return null;
    console.error("reading the payout account from Stripe failed", error);
    throw new StripeAccountUnreadable("Stripe did not answer a read of the account");
  }
  return { query: syncQuery(accountId, account, new Date().toISOString()) };
}

/** A one-time link into the person's Stripe Express dashboard (their bank account, tax details, Stripe's payouts). */
export async function payoutDashboardLink(actor: Actor, request: Request): Promise<{ url: string }> {
  authorize(actor, "payments", "readOwn");
  const row = await accountRow(actor.id);
  if (!stripeConfig()) throw unavailable();
  if (!row?.stripeAccountId || row.status !== "enabled") throw conflict(P.notEnabled);
  const stripe = await stripeClient(new URL(request.url).origin);
  const accountId = row.stripeAccountId;
  const link = await viaStripe(() => stripe.accounts.createLoginLink(accountId));
  return { url: link.url };
}

/**
 * An admin's choice for a person: paid outside Stripe (with the reason; an admin then marks their
 * payouts paid with the bank's reference), or back to Stripe. Audited; guarded (twice → once).
 */
export async function setPayoutMethod(
  actor: Actor,
  request: Request,
  input: { person: string; method: "stripe" | "manual"; reason: string },
): Promise<{ name: string }> {
  authorize(actor, "payments", "manage");
  const person = await findPerson(actor, input.person);
  const now = new Date().toISOString();
  const manual = input.method === "manual";
  // No row means "through Stripe" already.
  if (!manual && (await accountRow(person.id))?.method !== "manual") throw conflict(P.alreadyStripe(person.fullName || person.email));
  try {
    await db().batch([
      db()
        .insert(payoutAccounts)
        .values({ userId: person.id, method: input.method, manualReason: manual ? input.reason : null, manualSetBy: actor.id, updatedAt: now })
        .onConflictDoUpdate({
          target: payoutAccounts.userId,
          set: { method: input.method, manualReason: manual ? input.reason : null, manualSetBy: actor.id, updatedAt: now },
          setWhere: sql`${payoutAccounts.method} <> ${input.method}`,
        }),
      precondition(previousStatementChanged(1)),
      auditQuery({
        eventType: manual ? "payout_method_manual" : "payout_method_stripe",
        severity: "high",
        userId: actor.id,
        targetUserId: person.id,
        request,
        details: { reason: manual ? input.reason : null },
      }),
    ]);
  } catch (error) {
    // No row yet means "through Stripe": asking for Stripe then changes nothing.
    if (isPreconditionFailure(error))
      throw conflict(manual ? P.alreadyManual(person.fullName || person.email) : P.alreadyStripe(person.fullName || person.email));
    throw error;
  }
  return { name: person.fullName || person.email };
}

/**
 * The people paid outside Stripe (through payout_accounts_method_idx, 0349), exported for its
 * query-plan test; `slot`: the session's, for the admin page's adminSessionLimit (decision 0356).
 */
export function manualPayeesQuery(slot?: Slot) {
  return db()
    .select({ userId: payoutAccounts.userId, reason: payoutAccounts.manualReason, updatedAt: payoutAccounts.updatedAt })
    .from(payoutAccounts)
    .where(eq(payoutAccounts.method, "manual"))
    .limit(adminSessionLimit(slot));
}

/** startManualPayees' statements, built once per isolate: the accounts, and the people they are (the same condition), in one batch; an admin's session only. */
const manualPayeesStatements = {
  accounts: builtOnce((slot) => manualPayeesQuery(slot)),
  people: builtOnce((slot) =>
    peopleWhereIdIn([sql`select ${payoutAccounts.userId} from ${payoutAccounts} where ${payoutAccounts.method} = 'manual'`], adminSessionLimit(slot)),
  ),
};

/**
 * The people paid outside Stripe, for the admin page, read in the session lookup's batch with their
 * names (one round trip for /admin/payments, decision 0352): call before the guard, then give the
 * guard's actor.
 */
export function startManualPayees(args: Parameters<typeof alongsideSession>[0]) {
  const accounts = alongsideSession(args, manualPayeesStatements.accounts);
  const named = alongsideSession(args, manualPayeesStatements.people);
  return async (actor: Actor) => {
    authorize(actor, "payments", "manage");
    const [rows, people] = [await accounts, peopleMap(await named)];
    return rows.map((r) => ({ ...r, name: people.get(r.userId)?.fullName ?? null, email: people.get(r.userId)?.email ?? "" }));
  };
}
