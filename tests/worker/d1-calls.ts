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
