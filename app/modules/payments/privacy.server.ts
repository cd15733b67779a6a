import { desc, eq } from "drizzle-orm";
import { ledgerEntries, paymentAgreements, payouts, shareOffers } from "~/db/schema";
import { columnsOf } from "~/db/columns";
import { db } from "~/platform/db.server";
import { lineColumns } from "./ledger.server";

// The payments domain's part of a data export (issue 28). A deletion erases nothing here: ledger
// lines, payouts, the agreement and share offers are financial records kept six years (the privacy
// policy's tax clause), and point at the anonymised account ("Deleted user").

export async function paymentsDataFor(userId: string) {
  const [ledger, theirPayouts, agreement, offers] = await db().batch([
    db()
      .select({ ...lineColumns, createdAt: ledgerEntries.createdAt })
      .from(ledgerEntries)
      .where(eq(ledgerEntries.userId, userId))
      .orderBy(desc(ledgerEntries.month)),
    db()
      .select(columnsOf(payouts, "batch", "payoutDate", "amountCents", "status", "reference", "paidAt", "createdAt"))
      .from(payouts)
      .where(eq(payouts.userId, userId))
      .orderBy(desc(payouts.createdAt)),
    db()
      .select(columnsOf(paymentAgreements, "status", "termStart", "noticeGivenAt", "endsOn", "terminatedAt", "terminationReason", "heldAt", "holdReason"))
      .from(paymentAgreements)
      .where(eq(paymentAgreements.userId, userId)),
    db()
      .select(columnsOf(shareOffers, "shareBp", "note", "status", "createdAt", "respondedAt", "effectiveMonth", "termStart"))
      .from(shareOffers)
      .where(eq(shareOffers.userId, userId)),
  ]);
  return { ledgerLines: ledger, payouts: theirPayouts, agreement: agreement[0] ?? null, shareOffers: offers };
}
