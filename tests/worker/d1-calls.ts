import { env } from "cloudflare:workers";
import { fetchApp, okText, withCookie } from "./helpers";

// D1 round trips of one request, counted: every batch of the app goes through a D1 session
// (docs/decisions/0232), so the sessions' batch and the statements' own execution are wrapped for
// the length of `run`, then put back. rowsReadPerStatement counts the rows each batched statement
// read instead (the admin's long-list tests).

type Fn = (...args: unknown[]) => unknown;

/** D1 calls (a batch, or one statement run alone) and the statements they carried while `run` goes. */
export async function d1Calls(run: () => Promise<unknown>): Promise<{ calls: number; statements: number }> {
  const seen = { calls: 0, statements: 0 };
  const restore: (() => void)[] = [];
  const wrap = (target: Record<string, unknown>, name: string, statements: (args: unknown[]) => number) => {
    const original = target[name] as Fn;
    target[name] = function (this: unknown, ...args: unknown[]) {
      seen.calls++;
      seen.statements += statements(args);
      return original.apply(this, args);
    };
    restore.push(() => {
      target[name] = original;
    });
  };
  const session = Object.getPrototypeOf(env.DB.withSession("first-primary")) as Record<string, unknown>;
  const statement = Object.getPrototypeOf(env.DB.prepare("select 1")) as Record<string, unknown>;
  wrap(session, "batch", (args) => (args[0] as unknown[]).length);
  for (const name of ["all", "raw", "run", "first"]) wrap(statement, name, () => 1);
  try {
    await run();
  } finally {
    for (const undo of restore.splice(0)) undo();
  }
  return seen;
}

/**
 * One signed-in page's D1 cost in the steady state: the page is read once first (a fresh session is
 * touched on its first request, a write), then read again while the calls are counted. Its HTML is
 * returned with the counts, so a test also checks that the page shows what the statements read.
 */
export async function pageRoundTrips(path: string, cookie: string): Promise<{ html: string; calls: number; statements: number }> {
  await okText(fetchApp(path, withCookie(cookie)));
  let html = "";
  const seen = await d1Calls(async () => {
    html = await okText(fetchApp(path, withCookie(cookie)));
  });
  return { html, ...seen };
}

/** The rows each statement of the page's D1 batches read (meta.rows_read), while `run` goes. */
export async function rowsReadPerStatement(run: () => Promise<unknown>): Promise<number[]> {
  const read: number[] = [];
  const session = Object.getPrototypeOf(env.DB.withSession("first-primary")) as { batch: (...args: unknown[]) => Promise<unknown> };
  const original = session.batch;
  session.batch = async function (this: unknown, ...args: unknown[]) {
    const results = (await original.apply(this, args)) as { meta: { rows_read: number } }[];
    for (const r of results) read.push(r.meta.rows_read);
    return results;
  };
  try {
    await run();
  } finally {
    session.batch = original;
  }
  return read;
}

/** One D1 call (a batch, or one statement run alone) and the rows it touched by D1's own count. */
export type D1CallRows = { sql: string; rowsRead: number; rowsWritten: number };

/**
 * Every D1 call made while `run` goes, with the rows D1 says it read and wrote (its result's
 * meta.rows_read / rows_written; a batch's statements summed, as they hold the database together).
 * A statement run with `raw()` has no meta: its rows returned are counted as read.
 */
export async function d1CallRows(run: () => Promise<unknown>): Promise<D1CallRows[]> {
  const seen: D1CallRows[] = [];
  const restore: (() => void)[] = [];
  type Meta = { meta?: { rows_read?: number; rows_written?: number } };
  const wrap = (target: Record<string, unknown>, name: string, record: (self: unknown, args: unknown[], result: unknown) => D1CallRows) => {
    const original = target[name] as Fn;
    target[name] = async function (this: unknown, ...args: unknown[]) {
      const result = await original.apply(this, args);
      seen.push(record(this, args, result));
      return result;
    };
    restore.push(() => {
      target[name] = original;
    });
  };
  const queryOf = (s: unknown) => String((s as { statement?: string }).statement ?? "");
  const session = Object.getPrototypeOf(env.DB.withSession("first-primary")) as Record<string, unknown>;
  const statement = Object.getPrototypeOf(env.DB.prepare("select 1")) as Record<string, unknown>;
  wrap(session, "batch", (_self, args, result) => ({
    sql: (args[0] as unknown[]).map(queryOf).join(";\n"),
    rowsRead: (result as Meta[]).reduce((t, r) => t + (r.meta?.rows_read ?? 0), 0),
    rowsWritten: (result as Meta[]).reduce((t, r) => t + (r.meta?.rows_written ?? 0), 0),
  }));
  for (const name of ["all", "run"])
    wrap(statement, name, (self, _args, result) => ({
      sql: queryOf(self),
      rowsRead: (result as Meta).meta?.rows_read ?? 0,
      rowsWritten: (result as Meta).meta?.rows_written ?? 0,
    }));
  wrap(statement, "raw", (self, _args, result) => ({ sql: queryOf(self), rowsRead: (result as unknown[]).length, rowsWritten: 0 }));
  try {
    await run();
  } finally {
    for (const undo of restore.splice(0)) undo();
  }
  return seen;
}

/** SQLite's plan for a drizzle query on the real D1 binding (EXPLAIN QUERY PLAN), one step a line. */
export async function queryPlan(query: { toSQL(): { sql: string; params: unknown[] } }): Promise<string> {
  const { sql: text, params } = query.toSQL();
  const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${text}`)
    .bind(...params)
    .all<{ detail: string }>();
  return plan.results.map((r) => r.detail).join("\n");
}
