import { eq } from "drizzle-orm";
import { campaignParticipants, campaignSubmissions, campaigns } from "~/db/schema";
import { columnsOf } from "~/db/columns";
import { db } from "~/platform/db.server";

// The campaigns domain's part of a data export (issue 28). A deletion erases nothing here:
// participation and submissions are the source of campaign earnings, kept with the ledger.

export async function campaignsDataFor(userId: string) {
  const [joined, submissions] = await db().batch([
    db()
      .select({ campaign: campaigns.title, brand: campaigns.brand, termsAcceptedAt: campaignParticipants.termsAcceptedAt })
      .from(campaignParticipants)
      .innerJoin(campaigns, eq(campaigns.id, campaignParticipants.campaignId))
      .where(eq(campaignParticipants.userId, userId)),
    db()
      .select({
        campaign: campaigns.title,
        ...columnsOf(campaignSubmissions, "url", "platform", "status", "views", "amountCents", "reason", "createdAt"),
      })
      .from(campaignSubmissions)
      .innerJoin(campaigns, eq(campaigns.id, campaignSubmissions.campaignId))
      .where(eq(campaignSubmissions.userId, userId)),
  ]);
  return { participation: joined, submissions };
}
