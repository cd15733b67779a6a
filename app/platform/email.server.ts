import { getTableColumns, type SQL, sql } from "drizzle-orm";
import { emailOutbox } from "~/db/schema";
import { d1, db } from "./db.server";
import { appOrigin } from "./env.server";

export type Email = { to: string; subject: string; text: string; kind: string };

export { appOrigin };

/** An absolute link into the app for an e-mail: APP_ORIGIN plus a path (with its query). */
export function appLink(path: string): string {
  return new URL(path, appOrigin()).toString();
}

/**
 * Every e-mail goes to the outbox table first. Locally the development mailbox (/dev/mailbox)
 * shows it; in production a sender (a provider behind this one function, e.g. a Queue consumer)
 * delivers unsent rows and stamps sent_at.
 */
export function emailStatement(mail: Email): D1PreparedStatement {
  return d1()
    .prepare(`INSERT INTO email_outbox (id, to_email, subject, body_text, kind) VALUES (?, ?, ?, ?, ?)`)
    .bind(crypto.randomUUID(), mail.to, mail.subject, mail.text, mail.kind);
}

/** The outbox row as a drizzle query (not executed), to join a `db().batch([...])` with its change. */
export function emailQuery(mail: Email) {
  return db().insert(emailOutbox).values({ id: crypto.randomUUID(), toEmail: mail.to, subject: mail.subject, bodyText: mail.text, kind: mail.kind });
}

/** The outbox row as an INSERT ... SELECT that writes only if `condition` holds when it runs (e.g. `changes() = 1`). */
export function emailQueryWhen(mail: Email, condition: SQL) {
  const r: Record<string, unknown> = { id: crypto.randomUUID(), toEmail: mail.to, subject: mail.subject, bodyText: mail.text, kind: mail.kind, sentAt: null };
  const values = Object.keys(getTableColumns(emailOutbox)).map((k) => (k === "createdAt" ? (emailOutbox.createdAt.default as SQL) : sql`${r[k] ?? null}`));
  return db()
    .insert(emailOutbox)
    .select(sql`select ${sql.join(values, sql`, `)} where ${condition}`);
}

/** E-mails per emailsQuery statement: a JSON parameter of some tens of kB at most. */
export const EMAILS_PER_STATEMENT = 200;

/**
 * Many outbox rows (one subject and kind, a text each) as one INSERT … SELECT per EMAILS_PER_STATEMENT
 * over a JSON parameter (D1 allows 100 bound parameters per statement, so no VALUES list), to join a
 * batch: a thousand e-mails are five statements, not a thousand.
 */
export function emailsQuery(mails: readonly { to: string; text: string }[], subject: string, kind: string) {
  const createdAt = emailOutbox.createdAt.default as SQL;
  const out = [];
  for (let i = 0; i < mails.length; i += EMAILS_PER_STATEMENT) {
    const json = JSON.stringify(mails.slice(i, i + EMAILS_PER_STATEMENT));
    out.push(
      db()
        .insert(emailOutbox)
        .select(
          sql`select ${crypto.randomUUID()} || '-' || key, json_extract(value, '$.to'), ${subject}, json_extract(value, '$.text'), ${kind}, ${createdAt}, null from json_each(${json})`,
        ),
    );
  }
  return out;
}

export async function sendEmail(mail: Email): Promise<void> {
  await emailStatement(mail).run();
}
