import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { userBeforeAll } from "../../factories/users";
import { get } from "../admin-agency-helpers";

// Decision 0348 (issue 45 §3, npm run bench:scale at 100,000 creators): /admin/audit-log's Worker CPU
// was over the 5 ms goal, most of it rendering a page of 50 events. A page is 25 events now, and its
// statements are built once per shape of filters with the values as slots (builtOncePerShape): each
// filter's value must still reach its own statement, whichever shape ran before in the isolate.

const EVENTS = 60;

async function pageText(path: string, cookie: string) {
  const res = await get(path, cookie);
  expect(res.status).toBe(200);
  return (await res.text()).replace(/<!-- -->/g, "");
}

/** The events a page shows, by their path "/pt/<n>" (each is in the HTML and the loader data: counted once). */
const shown = (html: string) => [...new Set(html.match(/\/pt\/\d+/g) ?? [])].map((p) => Number(p.slice(4)));

describe("/admin/audit-log's pages", () => {
  const admin = userBeforeAll("admin");
  const person = userBeforeAll("creator");

  it("shows 25 events a page, newest first, and each filter's value in each shape of statement", async () => {
    // Event i (1..60) at i minutes past midnight of 3 March 2031; every third is high; events 1–10 are about `person`.
    await env.DB.prepare(
      `with recursive n(i) as (select 1 union all select i + 1 from n where i < ?)
       insert into security_audit_log (id, event_type, severity, target_user_id, path, created_at)
       select 'pt-' || i, 'page_test', case when i % 3 = 0 then 'high' else 'low' end, case when i <= 10 then ? end, '/pt/' || i,
              strftime('%Y-%m-%dT%H:%M:%fZ', '2031-03-03', '+' || i || ' minutes') from n`,
    )
      .bind(EVENTS, person.id)
      .run();
    const desc = (from: number, to: number) => Array.from({ length: from - to + 1 }, (_, k) => from - k);

    const first = await pageText("/admin/audit-log?type=page_test", admin.cookie);
    expect(shown(first)).toEqual(desc(60, 36));
    expect(first).toContain("Page 1 of 3 · 60 events");
    expect(shown(await pageText("/admin/audit-log?type=page_test&page=2", admin.cookie))).toEqual(desc(35, 11));
    expect(shown(await pageText("/admin/audit-log?type=page_test&page=3", admin.cookie))).toEqual(desc(10, 1));

    // Another shape (type and severity), then the first shape again with other values.
    const high = await pageText("/admin/audit-log?type=page_test&severity=high", admin.cookie);
    expect(shown(high)).toEqual(desc(60, 3).filter((i) => i % 3 === 0));
    expect(high).toContain("20 events");
    expect(shown(await pageText("/admin/audit-log?type=no_such_type", admin.cookie))).toEqual([]);
    // A user's e-mail (any part of it, any case), and a day range: 3 March, not the day after.
    const about = await pageText(`/admin/audit-log?type=page_test&user=${encodeURIComponent(person.email.toUpperCase())}`, admin.cookie);
    expect(shown(about)).toEqual(desc(10, 1));
    expect(shown(await pageText("/admin/audit-log?type=page_test&from=2031-03-03&to=2031-03-03&severity=high&page=1", admin.cookie))).toEqual(
      desc(60, 3).filter((i) => i % 3 === 0),
    );
    expect(shown(await pageText("/admin/audit-log?type=page_test&from=2031-03-04", admin.cookie))).toEqual([]);
    expect(shown(await pageText("/admin/audit-log?type=page_test&to=2031-03-02", admin.cookie))).toEqual([]);
  });
});
