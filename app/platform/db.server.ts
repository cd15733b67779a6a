import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import type { BatchItem, BatchResponse } from "drizzle-orm/batch";
import { AsyncLocalStorage } from "node:async_hooks";
import * as schema from "~/db/schema";
import { readCookie, serializeCookie } from "./cookies.server";
import { env } from "./env.server";
import { carriesSessionCookie } from "./headers.server";

// The database, wrapped once. Modules use drizzle's query builder with types inferred from
// app/db/schema.ts (`typeof table.$inferSelect`), and camelCase reaches the UI. Raw SQL only where
// drizzle cannot say it (FTS5, a CHECK-based precondition), with a line saying why.
// Several statements for one page or one change go through `db().batch([...])`: one round trip,
// atomic for writes.
//
// Every statement goes through a D1 session (`env.DB.withSession`), so that reads can be served
// by a read replica near the user while a person always reads their own writes
// (docs/decisions/0232-d1-sessions-and-read-replicas.md). One session per unit of work:
// - a request (workers/app.ts, `withRequestSession`): a GET or HEAD starts from the bookmark the
//   browser's cookie carries, or `first-unconstrained` (any replica); a request that writes starts
//   `first-primary`. The session's last bookmark goes back in the cookie.
// - the daily job and the queue consumer (`withD1Session("first-primary", …)`).
// - anything outside those (a Durable Object's own calls, the fan-out entrypoint): a session that
//   starts on the primary and stays sequentially consistent.
// This file is the only place that reads `env.DB` (tests/unit/architecture.test.ts).

/** Where a session starts: a constraint, or a bookmark (at least as recent as it). */
export type SessionStart = D1SessionConstraint | D1SessionBookmark;

const unitOfWork = new AsyncLocalStorage<D1DatabaseSession>();
let fallback: { binding: D1Database; session: D1DatabaseSession } | null = null;

/** The D1 session of the current unit of work, for the raw statements the platform writes (audit, e-mail outbox). */
export function d1(): D1DatabaseSession {
  const session = unitOfWork.getStore();
  if (session) return session;
  if (fallback?.binding !== env.DB) fallback = { binding: env.DB, session: env.DB.withSession("first-primary") };
  return fallback.session;
}

/** Runs `work` with its own D1 session starting at `start`; returns what it returns and the session. */
export function withD1Session<T>(start: SessionStart, work: (session: D1DatabaseSession) => T): T {
  const session = env.DB.withSession(start);
  return unitOfWork.run(session, () => work(session));
}

// drizzle's D1 driver only prepares statements and runs batches on its client: this client hands
// both to the current session, so one drizzle instance (its schema read once per isolate) serves
// every unit of work. A statement is given to the session when its values are bound (drizzle binds
// before every run), so that a statement drizzle prepared once (`builtOnce`) runs in each request's
// own session. While `batch` starts its items, a bound statement is collected instead of run, and
// the collected statements go to D1 as one batch.
const sessionClient = {
  prepare: (query: string) => ({
    bind: (...values: unknown[]) => {
      const statement = d1()
        .prepare(query)
        .bind(...values);
      return collecting ? collected(statement, collecting) : statement;
    },
  }),
  batch: (statements: D1PreparedStatement[]) => d1().batch(statements),
} as unknown as D1Database;

let cached: ReturnType<typeof drizzle<typeof schema>> | null = null;

export function db() {
  cached ??= drizzle(sessionClient, { schema });
  return cached;
}

// ---- One D1 batch of drizzle queries and built-once statements -------------------------------

/** A statement `batch` collected: what it asked D1 for, and where its answer goes. */
type Collected = { statement: D1PreparedStatement; method: "all" | "raw" | "run"; resolve: (result: unknown) => void; reject: (error: unknown) => void };

/**
 * The statements of the `batch` being started, or null. Set and cleared within one synchronous
 * block (`batch` starts its items, then takes the list): no other request's code can run while it
 * is set, so one request's statements never land in another's batch.
 */
let collecting: Collected[] | null = null;

/** A bound D1 statement that, asked for its rows, waits for its place in the batch instead (the methods drizzle's D1 driver calls). */
function collected(statement: D1PreparedStatement, into: Collected[]) {
  const later = (method: Collected["method"]) => (): Promise<unknown> => new Promise((resolve, reject) => into.push({ statement, method, resolve, reject }));
  return { all: later("all"), raw: later("raw"), run: later("run") };
}

const BOUND: unique symbol = Symbol("builtOnce statement");

/** A built-once statement with this request's values: run it, or put it in a `batch` with others (its rows typed there too). */
export type BoundStatement<Row> = { readonly [BOUND]: true; all(): Promise<Row[]>; get(): Promise<Row | undefined> };

/** What `batch` takes: a drizzle query (anything drizzle's own `db.batch` takes) or a built-once statement. */
export type BatchEntry = BatchItem<"sqlite"> | BoundStatement<unknown>;

/** What an entry of `batch` gives: drizzle's answer for a drizzle query, the rows for a built-once statement. */
export type BatchResultOf<E> = E extends BatchItem<"sqlite"> ? BatchResponse<[E]>[0] : E extends BoundStatement<infer Row> ? Row[] : never;

const isBound = (entry: BatchEntry): entry is BoundStatement<unknown> => BOUND in entry;

/**
 * drizzle's `db.batch` for entries that may be built-once statements: every entry's statement in
 * one D1 batch (one round trip, atomic for writes), each answer as that entry alone would give it.
 * Each entry is started the public way (a drizzle query awaited, a built-once statement's `all()`);
 * drizzle binds its statement before its first `await`, and the bound statement is collected here
 * (sessionClient) rather than run. An entry that bound no statement by then fails the whole batch
 * loudly, before anything is sent (a drizzle release that changed this is looked at again).
 * As with drizzle's own batch, an error is D1's, and a row read by position is read from D1's
 * objects (a select naming one column twice keeps the last).
 */
export async function batch<T extends readonly [BatchEntry, ...BatchEntry[]]>(entries: T): Promise<{ -readonly [K in keyof T]: BatchResultOf<T[K]> }> {
  const pending: Collected[] = [];
  let answers: Promise<unknown>[];
  collecting = pending;
  try {
    answers = entries.map((entry) =>
      isBound(entry) ? entry.all() : new Promise((resolve, reject) => (entry as unknown as PromiseLike<unknown>).then(resolve, reject)),
    );
  } finally {
    collecting = null;
  }
  // Nothing below may leave an entry's promise rejected and unheard.
  for (const answer of answers) answer.catch(() => undefined);
  if (pending.length !== entries.length) {
    const error = new Error(`batch: ${entries.length} entries bound ${pending.length} statements before their first await; each must bind exactly one`);
    for (const p of pending) p.reject(error);
    throw error;
  }
  let responses: D1Result[];
  try {
    responses = await d1().batch(pending.map((p) => p.statement));
  } catch (error) {
    for (const p of pending) p.reject(error);
    throw error;
  }
  pending.forEach((p, i) => {
    const response = responses[i];
    if (!response) {
      p.reject(new Error(`batch: D1 answered ${responses.length} of ${pending.length} statements`));
      return;
    }
    // raw(): rows as arrays of their values, in the order of the columns (drizzle's own batch does the same).
    p.resolve(p.method === "raw" ? response.results.map((row) => Object.values(row as Record<string, unknown>)) : response);
  });
  return (await Promise.all(answers)) as { -readonly [K in keyof T]: BatchResultOf<T[K]> };
}

// ---- Statements built once per isolate -------------------------------------------------------

/** A placeholder of a statement built once (drizzle's `sql.placeholder`), typed as the value it stands for. */
export type Slot = <T>(name: string) => T;

/** What `builtOnce` asks of what its `build` returns: a drizzle select, prepared through its public `.prepare()`. */
type BuildableSelect = { prepare(): { all(values?: Record<string, unknown>): Promise<unknown> } };

/** The row type of a drizzle select (what its prepared query's `all` gives). */
type RowOf<S extends BuildableSelect> = Awaited<ReturnType<ReturnType<S["prepare"]>["all"]>> extends readonly (infer R)[] ? R : never;

/** The values of a built-once statement, by slot name. Strings and numbers as D1 stores them: a slot's value is not mapped by its column (a boolean column wants 0 or 1). */
export type SlotValues = Readonly<Record<string, string | number | null>>;

/**
 * A select drizzle builds once per isolate, with placeholders for its values, then runs with each
 * request's values in that request's D1 session (docs/decisions/0279, 0284, 0319). Building a
 * statement (its SQL text from the query builder's pieces) is most of drizzle's CPU time per
 * request. `build` gets `slot(name)`, which stands for the value named `name` when the statement
 * runs; the select's shape must not depend on anything but its slots (a list goes in as one JSON
 * slot: `inJsonList`). Only drizzle's public API: `sql.placeholder`, `.prepare()`, and the prepared
 * query's `.all(values)`; in a `batch`, that `.all` is collected like any other statement.
 */
export function builtOnce<S extends BuildableSelect>(build: (slot: Slot) => S): (values: SlotValues) => BoundStatement<RowOf<S>> {
  type Row = RowOf<S>;
  let prepared: ReturnType<S["prepare"]> | null = null;
  const slot: Slot = (name) => sql.placeholder(name) as never;
  return (values) => {
    prepared ??= build(slot).prepare() as ReturnType<S["prepare"]>;
    const statement = prepared;
    const all = () => statement.all(values) as Promise<Row[]>;
    return { [BOUND]: true, all, get: () => all().then((rows) => rows[0]) };
  };
}

/**
 * builtOnce for a statement whose text depends on a few choices (which filters a page has, how it
 * sorts): `keyOf(shape)` names them, and each key's statement is built once, with the values as
 * slots. The keys are few; the memory is emptied past 256 anyway.
 */
export function builtOncePerShape<Shape, S extends BuildableSelect>(
  keyOf: (shape: Shape) => string,
  build: (slot: Slot, shape: Shape) => S,
): (shape: Shape, values: SlotValues) => BoundStatement<RowOf<S>> {
  const built = new Map<string, (values: SlotValues) => BoundStatement<RowOf<S>>>();
  return (shape, values) => {
    const key = keyOf(shape);
    let statement = built.get(key);
    if (!statement) {
      if (built.size >= 256) built.clear();
      statement = builtOnce((slot) => build(slot, shape));
      built.set(key, statement);
    }
    return statement(values);
  };
}

export { inJsonList } from "~/db/in-json-list";

// ---- The bookmark cookie ----------------------------------------------------------------------

/** The browser's D1 bookmark cookie (the __Host- prefix needs Secure, which plain-http localhost cannot have). */
export function bookmarkCookieName(request: Request): string {
  return new URL(request.url).protocol === "https:" ? "__Host-sb_d1" : "sb_d1";
}

/** A replica lags by seconds; a day-old bookmark is one every replica has long passed. */
export const BOOKMARK_MAX_AGE_SECONDS = 24 * 60 * 60;

/** What a D1 bookmark looks like (8-8-8-32 hex digits, locally as on Cloudflare); anything else in the cookie is ignored, never sent to D1. */
const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/i;

const READS_ONLY = new Set(["GET", "HEAD", "OPTIONS"]);

/** Where this request's session starts: `first-primary` for a request that writes, else the cookie's bookmark or any replica. */
export function sessionStartOf(request: Request): SessionStart {
  if (!READS_ONLY.has(request.method)) return "first-primary";
  const bookmark = readCookie(request, bookmarkCookieName(request));
  return bookmark && BOOKMARK.test(bookmark) ? bookmark : "first-unconstrained";
}

/**
 * Runs a request in its own D1 session and gives its response the session's last bookmark when it
 * moved: for a request that writes (not a GET), a signed-in browser's (a GET can write too: the
 * session's sliding expiry) or one that already carries a bookmark. An anonymous visitor reading
 * public pages gets no cookie. The response is changed in place when its headers allow it.
 */
export async function withRequestSession(request: Request, answer: () => Promise<Response>): Promise<Response> {
  return withD1Session(sessionStartOf(request), async (session) => {
    const response = await answer();
    const bookmark = session.getBookmark();
    const name = bookmarkCookieName(request);
    const carried = readCookie(request, name);
    if (!bookmark || bookmark === carried || !BOOKMARK.test(bookmark)) return response;
    if (READS_ONLY.has(request.method) && carried === null && !carriesSessionCookie(request)) return response;
    const cookie = serializeCookie(name, bookmark, { maxAge: BOOKMARK_MAX_AGE_SECONDS, secure: name.startsWith("__Host-") });
    try {
      response.headers.append("Set-Cookie", cookie);
      return response;
    } catch {
      // Immutable headers (a fetched response, a socket upgrade's): a copy, unless it is an upgrade.
      if (response.status === 101 || response.webSocket) return response;
      const copy = new Response(response.body, response);
      copy.headers.append("Set-Cookie", cookie);
      return copy;
    }
  });
}

export type Db = ReturnType<typeof db>;
export { schema };

/** D1 binds at most 100 parameters per statement; an IN list of this many leaves room for a few more. */
export const IN_LIST_MAX = 90;

/**
 * `query` over `values` cut into IN lists D1 accepts, all chunks in one batch (one round trip);
 * the rows of every chunk, in order. No values, no query.
 */
export async function selectInChunks<Row>(values: readonly string[], query: (chunk: string[]) => BatchItem<"sqlite"> & PromiseLike<Row[]>): Promise<Row[]> {
  const unique = [...new Set(values)];
  if (unique.length === 0) return [];
  const [first, ...rest] = Array.from({ length: Math.ceil(unique.length / IN_LIST_MAX) }, (_, i) =>
    query(unique.slice(i * IN_LIST_MAX, (i + 1) * IN_LIST_MAX)),
  );
  if (!first) return [];
  const results = (await db().batch([first, ...rest])) as Row[][];
  return results.flat();
}
