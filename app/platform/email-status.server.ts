import { desc, eq } from "drizzle-orm";
import { emailOutbox } from "~/db/schema";
import { db } from "./db.server";
import { messageFor, type OutboxRow } from "./email-delivery.server";
import type { RenderedEmail } from "./email-templates.server";

// ---------------------------------------------------------------------------------------------
// Reading the record: delivery status for admins and the development mailbox
// ---------------------------------------------------------------------------------------------

export type DeliveryStatus = "queued" | "sending" | "sent" | "retrying" | "failed";

export function deliveryStatusOf(row: Pick<OutboxRow, "status" | "attempts">): DeliveryStatus {
  if (row.status === "pending") return row.attempts > 0 ? "retrying" : "queued";
  return row.status;
}

export type DeliveryEntry = {
  id: string;
  toEmail: string;
  kind: string;
  subject: string;
  createdAt: string;
  status: DeliveryStatus;
  attempts: number;
  sentAt: string | null;
  nextAttemptAt: string | null;
  lastError: string | null;
  messageId: string | null;
};

const entryColumns = {
  id: emailOutbox.id,
  toEmail: emailOutbox.toEmail,
  kind: emailOutbox.kind,
  subject: emailOutbox.subject,
  createdAt: emailOutbox.createdAt,
  status: emailOutbox.status,
  attempts: emailOutbox.attempts,
  sentAt: emailOutbox.sentAt,
  nextAttemptAt: emailOutbox.nextAttemptAt,
  lastError: emailOutbox.lastError,
  messageId: emailOutbox.messageId,
};

function toEntry(row: Omit<DeliveryEntry, "status"> & { status: OutboxRow["status"] }): DeliveryEntry {
  const status = deliveryStatusOf(row);
  return { ...row, status, nextAttemptAt: status === "retrying" ? row.nextAttemptAt : null };
}

/** The latest e-mails to an address with their delivery status (the admin's user panel). No bodies. */
export async function deliveriesTo(address: string, limit = 20): Promise<DeliveryEntry[]> {
  const rows = await db().select(entryColumns).from(emailOutbox).where(eq(emailOutbox.toEmail, address)).orderBy(desc(emailOutbox.createdAt)).limit(limit);
  return rows.map(toEntry);
}

export type MailboxEntry = DeliveryEntry & { bodyText: string };

/** The development mailbox: the latest e-mails (to one address if given), bodies and status. */
export async function recentMail(to: string, limit = 50): Promise<MailboxEntry[]> {
  const rows = await db()
    .select({ ...entryColumns, bodyText: emailOutbox.bodyText })
    .from(emailOutbox)
    .where(to ? eq(emailOutbox.toEmail, to) : undefined)
    .orderBy(desc(emailOutbox.createdAt))
    .limit(limit);
  return rows.map((r) => ({ ...toEntry(r), bodyText: r.bodyText }));
}

/** One row as it leaves (the development mailbox's preview), or null. */
export async function renderedMail(id: string): Promise<RenderedEmail | null> {
  const row = await db().select().from(emailOutbox).where(eq(emailOutbox.id, id)).get();
  return row ? messageFor(row) : null;
}
