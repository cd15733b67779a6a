import { waitUntil } from "cloudflare:workers";
import { getTableColumns, type SQL, sql } from "drizzle-orm";
import { emailOptOuts, emailOutbox } from "~/db/schema";
import { oneLine } from "~/lib/sanitize";
import { db } from "./db.server";
import { appLink, appOrigin } from "./env.server";
import { headerValue, isOptional, throttleWindowMs } from "./email-templates.server";

/**
 * One e-mail. `subject` and `text` are our words with what someone typed put in through userText();
 * `action` is the kind's main link (the button), an appLink() of ours: the template never takes a
 * button from the text (docs/decisions/0288).
 */
export type Email = { to: string; subject: string; text: string; kind: string; action?: string };

// ---------------------------------------------------------------------------------------------
// What someone typed (docs/decisions/0288). A name, a title, a reason goes into a subject or a body
// only through userText(): one line (line breaks and other control characters become a space,
// so it can never stand alone on a line), and marked so that the outbox row records where it is
// (user_spans) and the template shows it as inert text: escaped, never a link, never the button.
// The marks are two private-use characters, taken out of the value itself so none can be forged.
// ---------------------------------------------------------------------------------------------

const OPEN = "\uE000";
const CLOSE = "\uE001";
const MARKS = /[\uE000\uE001]/g;

/** What a person typed, as it goes into an e-mail's subject or text. */
export function userText(value: string | null | undefined): string {
  return `${OPEN}${oneLine(String(value ?? "").replace(MARKS, ""))}${CLOSE}`;
}

/** A marked text as stored: the text without marks, and the spans of what people typed in it (JSON, or null). */
export function unmarked(marked: string): { text: string; spans: string | null } {
  const spans: [number, number][] = [];
  let text = "";
  let start = -1;
  for (const part of marked.split(/([\uE000\uE001])/)) {
    if (part === OPEN) start = text.length;
    else if (part === CLOSE) {
      if (start >= 0 && text.length > start) spans.push([start, text.length]);
      start = -1;
    } else text += part;
  }
  return { text, spans: spans.length ? JSON.stringify(spans) : null };
}

/** A subject as stored: one line, no marks (a subject has no links; the template shows it inert). */
const subjectOf = (subject: string) => headerValue(subject.replace(MARKS, ""));

// The links of an e-mail, for the domains that write one. They live in env.server.ts, below this
// file and email-delivery/email-preferences, which use them too: no file of the three imports
// another in a circle (issue 44 §1).
export { appLink, appOrigin };

// ---------------------------------------------------------------------------------------------
// Queueing. Every e-mail is an outbox row first, written in the same D1 batch as the change it
// reports; app/platform/email-delivery.server.ts sends it through the EMAIL binding moments later
// (deliverSoon, after the batch) or on the next scheduled sweep (docs/decisions/0210). Two rules
// hold here, for every caller, whatever triggers the mail:
// - one e-mail per kind and address within the kind's window (throttleWindowMs): the INSERT writes
//   nothing when a live one is already there (SQLite runs writes one at a time, so two parallel
//   requests write one row);
// - optional mail (news) is not written to an address that opted out (email_opt_outs);
// - nothing is written to a .invalid address (a deleted account's).
// ---------------------------------------------------------------------------------------------

/** The conditions under which a mail of `kind` to the address `to` (an SQL expression) is written. */
function mayQueue(kind: string, to: SQL): SQL[] {
  // Never to a deleted account: its address is deleted-<id>@deleted.invalid, and no .invalid
  // address can be delivered (RFC 6761 §6.4); docs/decisions/0293.
  const conditions: SQL[] = [sql`${to} not like ${"%.invalid"}`];
  const windowMs = throttleWindowMs(kind);
  if (windowMs !== null) {
    const since = sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ${`-${Math.round(windowMs / 1000)} seconds`})`;
    conditions.push(
      sql`not exists (select 1 from ${emailOutbox} o where o.to_email = ${to} and o.kind = ${kind} and o.created_at > ${since} and o.status <> 'failed')`,
    );
  }
  if (isOptional(kind)) conditions.push(sql`not exists (select 1 from ${emailOptOuts} x where x.email = ${to} and x.category = 'news')`);
  return conditions;
}

/** Every column of the outbox, in the table's order: the given values, else the column's default, else NULL. */
function rowValues(given: Record<string, SQL>): SQL[] {
  return Object.entries(getTableColumns(emailOutbox)).map(([key, column]) => {
    if (given[key]) return given[key];
    const fallback = column.default as unknown;
    if (fallback === undefined || fallback === null) return sql`null`;
    return typeof fallback === "object" ? (fallback as SQL) : sql`${fallback}`;
  });
}

const where = (conditions: SQL[]) => (conditions.length ? sql` where ${sql.join(conditions, sql` and `)}` : sql``);

/** The outbox row as an INSERT … SELECT (not executed) that writes only if the rules above, and `condition` if given, hold. */
function queueOne(mail: Email, condition?: SQL) {
  const id = crypto.randomUUID();
  const to = sql`${mail.to}`;
  const body = unmarked(mail.text);
  const values = rowValues({
    id: sql`${id}`,
    toEmail: to,
    subject: sql`${subjectOf(mail.subject)}`,
    bodyText: sql`${body.text}`,
    userSpans: sql`${body.spans}`,
    actionUrl: sql`${mail.action ?? null}`,
    kind: sql`${mail.kind}`,
  });
  const conditions = [...mayQueue(mail.kind, to), ...(condition ? [condition] : [])];
  deliverSoon({ ids: [id] });
  return db()
    .insert(emailOutbox)
    .select(sql`select ${sql.join(values, sql`, `)}${where(conditions)}`);
}

/** The outbox row as a drizzle query (not executed), to join a `db().batch([...])` with its change. */
export function emailQuery(mail: Email) {
  return queueOne(mail);
}

/** The outbox row, written only if `condition` holds when it runs (e.g. `changes() = 1`). */
export function emailQueryWhen(mail: Email, condition: SQL) {
  return queueOne(mail, condition);
}

/** E-mails per emailsQuery statement: a JSON parameter of some tens of kB at most. */
export const EMAILS_PER_STATEMENT = 200;

/**
 * Many outbox rows (one subject and kind, a text each) as one INSERT … SELECT per EMAILS_PER_STATEMENT
 * over a JSON parameter (D1 allows 100 bound parameters per statement, so no VALUES list), to join a
 * batch: a thousand e-mails are five statements, not a thousand.
 */
export function emailsQuery(mails: readonly { to: string; text: string }[], subject: string, kind: string, action?: string) {
  const out = [];
  for (let i = 0; i < mails.length; i += EMAILS_PER_STATEMENT) {
    const json = JSON.stringify(mails.slice(i, i + EMAILS_PER_STATEMENT).map((m) => ({ to: m.to, ...unmarked(m.text) })));
    const prefix = crypto.randomUUID();
    const to = sql`json_extract(value, '$.to')`;
    const values = rowValues({
      id: sql`${prefix} || '-' || key`,
      toEmail: to,
      subject: sql`${subjectOf(subject)}`,
      bodyText: sql`json_extract(value, '$.text')`,
      userSpans: sql`json_extract(value, '$.spans')`,
      actionUrl: sql`${action ?? null}`,
      kind: sql`${kind}`,
    });
    deliverSoon({ prefix });
    out.push(
      db()
        .insert(emailOutbox)
        .select(sql`select ${sql.join(values, sql`, `)} from json_each(${json})${where(mayQueue(kind, to))}`),
    );
  }
  return out;
}

/** Queues one e-mail on its own (no change to join). */
export async function sendEmail(mail: Email): Promise<void> {
  await emailQuery(mail).run();
}

/**
 * Asks for the rows just queued to be sent once their batch has committed, after the response
 * (waitUntil). Outside a request or job (nothing to wait on) the scheduled sweep sends them.
 */
function deliverSoon(rows: { ids?: string[]; prefix?: string }): void {
  try {
    waitUntil(import("./email-delivery.server").then((m) => m.deliverQueued(rows)));
  } catch {
    // No execution context here: the sweep (workers/app.ts scheduled) delivers it.
  }
}
