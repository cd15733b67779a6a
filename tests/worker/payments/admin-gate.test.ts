// /admin/payments' statements ride in the session lookup's batch and start before requireAdmin
// (docs/decisions/0352). Each carries the admin-session condition (accounts' sessionIsAdmin,
// docs/decisions/0356): for a signed-in creator, a pending or a banned user (whose sessions still
// resolve), and a cookie naming no session, D1 reads none of the page's rows, only the session
// lookup's; an admin still sees every section (admin-round-trips.test.ts: one D1 call). Counted
// by D1's own rows_read (../d1-calls).
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { createUser, type TestUser, type UserKind } from "../../factories/users";
import { d1CallRows, rowsReadPerStatement } from "../d1-calls";
import { fetchApp, withCookie } from "../helpers";

/** How many rows of each admin list the state holds: enough that reading them shows. */
const ROWS = 60;
/** The rows a refused request may read in all: the session lookup's, and the admin condition's one (the session's row) per statement. */
const REFUSED_MOST_ROWS = 40;
/** The most one statement alongside the session reads when the session is not an admin's: the admin condition's rows (session, user, profile, role). */
const GATE_ROWS = 4;

let admin: TestUser;

beforeAll(async () => {
  admin = await createUser("admin");
  const people = await Promise.all(Array.from({ length: ROWS }, () => createUser("creator")));
  const now = new Date().toISOString();
  const statements: D1PreparedStatement[] = [];
  for (const [i, p] of people.entries()) {
    statements.push(
      env.DB.prepare("INSERT INTO payout_accounts (user_id, method, manual_reason) VALUES (?, 'manual', 'Gate bank')").bind(p.id),
      env.DB.prepare("INSERT INTO payouts (id, user_id, batch, amount_cents, status, method) VALUES (?, ?, '2099-11', ?, 'pending', 'manual')").bind(
        crypto.randomUUID(),
        p.id,
        1000 + i,
      ),
      env.DB.prepare(
        "INSERT INTO payouts (id, user_id, batch, amount_cents, status, method, stripe_account_id, failed_at, failure_reason) VALUES (?, ?, '2099-10', ?, 'failed', 'stripe', 'acct_gate', ?, 'Gate refusal')",
      ).bind(crypto.randomUUID(), p.id, 500 + i, now),
      env.DB.prepare("INSERT INTO payment_agreements (user_id, status, held_at, held_by, hold_reason) VALUES (?, 'active', ?, ?, 'Gate hold')").bind(
        p.id,
        now,
        admin.id,
      ),
      env.DB.prepare(
        "INSERT INTO ledger_entries (id, user_id, month, source_kind, source_id, net_cents, share_bp, amount_cents, status, note) VALUES (?, ?, '2024-05', 'adjustment', '', 100, 10000, 100, 'finalized', 'Gate adjustment')",
      ).bind(crypto.randomUUID(), p.id),
    );
  }
  await env.DB.batch(statements);
}, 180_000);

/** Every D1 call of one request for the page (document or `.data`), and the rows each statement of the session's batch read. */
async function readsOf(path: string, cookie: string) {
  let status = 0;
  let perStatement: number[] = [];
  const calls = await d1CallRows(async () => {
    perStatement = await rowsReadPerStatement(async () => {
      const res = await fetchApp(path, withCookie(cookie));
      status = res.status;
      await res.arrayBuffer();
    });
  });
  return { status, total: calls.reduce((t, c) => t + c.rowsRead, 0), perStatement };
}

const PATHS = ["/admin/payments", "/admin/payments.data?_routes=routes/admin/payments"];

describe("/admin/payments: a refused request reads none of the page's rows", () => {
  for (const kind of ["creator", "pending", "banned"] as UserKind[]) {
    for (const path of PATHS) {
      it(`${kind}, ${path}: turned away, D1 reads only the session lookup's rows`, async () => {
        const user = await createUser(kind);
        const { status, total, perStatement } = await readsOf(path, user.cookie);
        expect([302, 202, 204]).toContain(status);
        console.log(`${kind} ${path}: ${total} rows read in all; the session batch per statement: ${perStatement.join(",")}`);
        expect(total).toBeLessThanOrEqual(REFUSED_MOST_ROWS);
        // No statement alongside the session reads a list: the admin condition is all each one reads.
        expect(perStatement.length).toBeGreaterThanOrEqual(16);
        expect(Math.max(0, ...perStatement.slice(1))).toBeLessThanOrEqual(GATE_ROWS);
      });
    }
  }

  it("a cookie naming no session: nothing of the page is read either", async () => {
    const { total, perStatement } = await readsOf("/admin/payments", admin.cookie.replace(/=.*/, `=${"0".repeat(40)}`));
    console.log(`no session: ${total} rows read in all; per statement ${perStatement.join(",")}`);
    expect(total).toBeLessThanOrEqual(REFUSED_MOST_ROWS);
    expect(Math.max(0, ...perStatement.slice(1))).toBeLessThanOrEqual(GATE_ROWS);
  });

  it("an admin still reads and sees every list", async () => {
    const { status, total } = await readsOf("/admin/payments", admin.cookie);
    expect(status).toBe(200);
    console.log(`admin: ${total} rows read in all`);
    expect(total).toBeGreaterThan(ROWS * 3);
  });

  it("the statements' plans are what they were, the admin condition's an index search by key", async () => {
    // The statements the admin's request sent alongside the session, with their values, planned again.
    const sent: { statement: string; params: unknown[] }[] = [];
    const session = Object.getPrototypeOf(env.DB.withSession("first-primary")) as { batch: (...args: unknown[]) => Promise<unknown> };
    const original = session.batch;
    session.batch = function (this: unknown, ...args: unknown[]) {
      for (const s of args[0] as { statement: string; params: unknown[] }[]) sent.push({ statement: s.statement, params: s.params });
      return original.apply(this, args);
    };
    try {
      await (await fetchApp("/admin/payments", withCookie(admin.cookie))).arrayBuffer();
    } finally {
      session.batch = original;
    }
    const gated = sent.filter((s) => s.statement.includes("admin_gate_session"));
    expect(gated.length).toBeGreaterThanOrEqual(16);
    for (const s of gated) {
      const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${s.statement}`)
        .bind(...s.params)
        .all<{ detail: string }>();
      const lines = plan.results.map((r) => r.detail);
      // The condition: the session by its key, its user and profile by theirs, the role through its index, once (a scalar subquery).
      expect(lines).toContainEqual(expect.stringMatching(/^SEARCH admin_gate_profile USING INDEX sqlite_autoindex_profiles_1 \(user_id=\?\)/));
      expect(lines).toContainEqual(
        expect.stringMatching(/^SEARCH user_roles EXISTS USING COVERING INDEX user_roles_user_role_unique \(user_id=\? AND role=\?\)/),
      );
      expect(lines).toContainEqual(expect.stringMatching(/^SEARCH admin_gate_session USING INDEX sqlite_autoindex_sessions_1 \(id=\?\)/));
      expect(lines).toContainEqual(expect.stringMatching(/^SEARCH admin_gate_user USING INDEX sqlite_autoindex_users_1 \(id=\?\)/));
      // The same statement with a plain LIMIT (the condition's values are the last but one three) plans the same, the condition's lines aside.
      const text = s.statement.replace(/\(case when exists \(select 1 from "sessions" "admin_gate_session".*\) then \? else 0 end\)$/, "?");
      expect(text).not.toContain("admin_gate");
      const plain = await env.DB.prepare(`EXPLAIN QUERY PLAN ${text}`)
        .bind(...s.params.slice(0, -4), s.params.at(-1))
        .all<{ detail: string }>();
      const at = lines.findIndex((l) => l.startsWith("SEARCH admin_gate_session"));
      const ofTheStatement = lines.filter((l, i) => i !== at - 1 && !/^SEARCH (admin_gate_\w+|user_roles EXISTS) /.test(l));
      const numbersOff = (l: string) => l.replace(/SUBQUERY \d+/, "SUBQUERY");
      expect(ofTheStatement.map(numbersOff), s.statement).toEqual(plain.results.map((r) => numbersOff(r.detail)));
    }
  });
});
