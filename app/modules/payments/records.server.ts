import { eq, inArray } from "drizzle-orm";
import { ledgerEntries, ledgerVideoLines, paymentAgreements, payoutAccounts, payouts, shareOffers } from "~/db/schema";
import { forbidden } from "~/lib/errors";
import { type Actor, authorize, can } from "~/lib/permissions";
import { db } from "~/platform/db.server";

// A person's own payments records, whole (for the privacy export and the deletion's money records
// kept six years; issue 28): every ledger line with its per-video lines, every payout (with how it
// was paid and why one failed), the payout account (the Stripe account id is theirs; no secret is
// kept), the agreement and the share offers. One D1 round trip.

export async function paymentRecordsOf(actor: Actor, userId: string) {
  if (actor.id === userId) authorize(actor, "payments", "readOwn");
  else if (!can(actor, "payments", "manage")) throw forbidden();
  const entriesOf = db().select({ id: ledgerEntries.id }).from(ledgerEntries).where(eq(ledgerEntries.userId, userId));
  const [entries, videos, paid, account, agreement, offers] = await db().batch([
    db().select().from(ledgerEntries).where(eq(ledgerEntries.userId, userId)).orderBy(ledgerEntries.month, ledgerEntries.createdAt),
    db().select().from(ledgerVideoLines).where(inArray(ledgerVideoLines.entryId, entriesOf)),
    db().select().from(payouts).where(eq(payouts.userId, userId)).orderBy(payouts.createdAt),
    db().select().from(payoutAccounts).where(eq(payoutAccounts.userId, userId)),
    db().select().from(paymentAgreements).where(eq(paymentAgreements.userId, userId)),
    db().select().from(shareOffers).where(eq(shareOffers.userId, userId)),
  ]);
  return { ledgerEntries: entries, videoLines: videos, payouts: paid, payoutAccount: account[0] ?? null, agreement: agreement[0] ?? null, shareOffers: offers };
}
