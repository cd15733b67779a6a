import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { userBeforeAll } from "../../factories/users";
import { get } from "../admin-agency-helpers";
import { rowsReadPerStatement } from "../d1-calls";

// Decision 0340 (issue 45 §3, found by npm run bench:scale at 100,000 creators): /admin's user list
// and /admin/audit-log counted their whole table on every load (200,088 and about a million rows
// read). Their totals are now counted up to 10,000 ("10,000+") and their pages stop there, so no
// statement of the page reads more than about 10,000 entries (users: a row and its profile each), whatever the table's size.

const MANY = 30_000;

async function pageText(path: string, cookie: string) {
  const res = await get(path, cookie);
  expect(res.status).toBe(200);
  return (await res.text()).replace(/<!-- -->/g, "");
}

describe("the admin's long lists count up to 10,000", () => {
  const admin = userBeforeAll("admin");

  it("/admin: 30,000 users read as '10,000+', the newest first, each statement reading at most ~10,000 users", async () => {
    await env.DB.prepare(
      `with recursive n(i) as (select 1 union all select i + 1 from n where i < ?)
       insert into users (id, email, created_at) select 'bulk-' || i, 'bulk' || i || '@many.test', strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-01', '+' || i || ' seconds') from n`,
    )
      .bind(MANY)
      .run();
    await env.DB.prepare(
      `insert into profiles (user_id, creator_id, full_name, approval_status) select id, 'c' || substr(id, 6), 'Bulk ' || substr(id, 6), 'approved' from users where id like 'bulk-%'`,
    ).run();
    await env.DB.exec("ANALYZE");
    // Warm the session (its first request writes), then count what the page reads.
    await pageText("/admin", admin.cookie);
    let html = "";
    const read = await rowsReadPerStatement(async () => {
      html = await pageText("/admin", admin.cookie);
    });
    expect(html).toContain("Page 1 of 500+ · 10,000+ users");
    // The admin, created after the bulk rows, is the newest.
    expect(html).toContain(admin.email);
    // The count reads a users row and its profile for each user it counts: 2 × 10,001 (60,000+ before).
    expect(Math.max(...read)).toBeLessThanOrEqual(20_100);

    // Past the cap the page is the last one within it, and says to narrow the filters.
    const last = await pageText("/admin?page=900", admin.cookie);
    expect(last).toContain("Page 500 of 500+ · 10,000+ users · narrow the filters to see the rest");
    // A filter with fewer than the cap is counted exactly.
    const admins = await pageText("/admin?status=admin", admin.cookie);
    expect(admins).toContain(admin.email);
    expect(admins).not.toContain("10,000+");
    expect(admins).not.toContain("bulk1@many.test");
  });

  it("/admin/audit-log: 30,000 events read as '10,000+', newest first, filters exact, each statement reading at most ~10,000 rows", async () => {
    await env.DB.prepare(
      `with recursive n(i) as (select 1 union all select i + 1 from n where i < ?)
       insert into security_audit_log (id, event_type, severity, created_at)
       select 'bulk-' || i, case when i % 1000 = 0 then 'bulk_rare' else 'bulk_common' end, 'low', strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-01', '+' || i || ' seconds') from n`,
    )
      .bind(MANY)
      .run();
    await env.DB.exec("ANALYZE");
    await pageText("/admin/audit-log", admin.cookie);
    let html = "";
    const read = await rowsReadPerStatement(async () => {
      html = await pageText("/admin/audit-log", admin.cookie);
    });
    expect(html).toContain("Page 1 of 400+ · 10,000+ events");
    // Every event type is offered in the filter.
    expect(html).toContain('<option value="bulk_rare">');
    expect(html).toContain('<option value="bulk_common">');
    expect(Math.max(...read)).toBeLessThanOrEqual(10_500);

    const rare = await pageText("/admin/audit-log?type=bulk_rare", admin.cookie);
    expect(rare).toContain("30 events");
    expect(rare).not.toContain("10,000+");
    // Newest first: the 30,000th second of the year's first day is 08:20 on 1 January.
    expect(rare.indexOf("2026-01-01T08:20:00.000Z")).toBeGreaterThan(-1);
  });
});
