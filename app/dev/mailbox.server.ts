import { desc, eq } from "drizzle-orm";
import { emailOutbox } from "~/db/schema";
import { db } from "~/platform/db.server";

// The development mailbox (/dev/mailbox, development builds only): the e-mail outbox, newest first.

export type MailboxEntry = Pick<typeof emailOutbox.$inferSelect, "id" | "toEmail" | "subject" | "bodyText" | "kind" | "createdAt">;

export async function recentMail(to: string, limit = 50): Promise<MailboxEntry[]> {
  const columns = {
    id: emailOutbox.id,
    toEmail: emailOutbox.toEmail,
    subject: emailOutbox.subject,
    bodyText: emailOutbox.bodyText,
    kind: emailOutbox.kind,
    createdAt: emailOutbox.createdAt,
  };
  return db()
    .select(columns)
    .from(emailOutbox)
    .where(to ? eq(emailOutbox.toEmail, to) : undefined)
    .orderBy(desc(emailOutbox.createdAt))
    .limit(limit);
}
