import { eq } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { paymentAgreements } from "~/db/schema";
import { conflict, notFound } from "~/lib/errors";
import { peopleByIds, personById, type PersonSummary, termStartedAtOf } from "~/modules/accounts/accounts.server";
import { notifyUserQuietly, resolveAudience } from "~/modules/notifications/notifications.server";
import { db } from "~/platform/db.server";
import { appOrigin, type Email, userText } from "~/platform/email.server";
import { isPreconditionFailure } from "~/platform/precondition.server";
import { AGREEMENT_MESSAGES as A } from "./messages";

// Shared by the Creator Agreement's steps (agreement.server.ts, the creator's; agreement-admin.server.ts,
// the admin's): the agreement row, the term's anchor, the e-mails and notices, the guarded batch.

export const REASON_MAX = 500;

/** The agreement row (absent = active, no hold) or its defaults. */
export async function agreementRow(userId: string) {
  return db().select().from(paymentAgreements).where(eq(paymentAgreements.userId, userId)).get();
}

/** The first day of the run of terms: an accepted revised share's new term, else the first channel link. */
export async function termAnchor(userId: string, row?: { termStart: string | null } | null): Promise<string | null> {
  if (row?.termStart) return row.termStart;
  const at = await termStartedAtOf(userId);
  return at ? at.slice(0, 10) : null;
}

// --- E-mails: both sides of the agreement hear of every step (the creator, and the admins).

export async function adminEmails(): Promise<string[]> {
  const ids = await resolveAudience({ type: "role", role: "admins" });
  const people = await peopleByIds(ids);
  return [...people.values()].map((p) => p.email);
}

export function mails(to: string[], kind: string, subject: string, text: string): Email[] {
  return [...new Set(to.filter(Boolean))].map((address) => ({ to: address, kind, subject, text: `${text}\n\n${appOrigin()}/payments\n` }));
}

export async function personOrThrow(userId: string): Promise<PersonSummary> {
  const person = await personById(userId);
  if (!person) throw notFound(A.personNotFound);
  return person;
}

export function nameOf(p: PersonSummary): string {
  return p.fullName ? `${p.fullName} (${p.email})` : p.email;
}

/** nameOf for an e-mail: the name and address are inert text there (docs/decisions/0288). */
export function mailNameOf(p: PersonSummary): string {
  return p.fullName ? `${userText(p.fullName)} (${userText(p.email)})` : userText(p.email);
}

export function tell(userId: string, title: string, content: string, createdBy: string): Promise<void> {
  return notifyUserQuietly(userId, { title, content, kind: "agreement", createdBy });
}

/** Runs a guarded batch; a failed precondition becomes the conflict `message`. */
export async function guarded(statements: BatchItem<"sqlite">[], message: string, title?: string): Promise<void> {
  try {
    await db().batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  } catch (error) {
    if (isPreconditionFailure(error)) throw conflict(message, title ? { title } : undefined);
    throw error;
  }
}
