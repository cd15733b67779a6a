import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createUser, userBeforeAll } from "../../factories/users";
import { get } from "../admin-agency-helpers";
import { rowsReadPerStatement } from "../d1-calls";

// Decision 0341 (issue 45 §3, found by npm run bench:scale: /admin?q= took 0.9 s of wall time at
// 100,000 creators): the admin's user search reads users_search, a trigram index of e-mails and
// names kept by triggers (migration 0038), instead of instr() over every e-mail and name. What it
// finds does not change: any part of the e-mail or the name, any case.

const BULK = 5_000;

async function found(q: string, cookie: string): Promise<string> {
  const res = await get(`/admin?q=${encodeURIComponent(q)}`, cookie);
  expect(res.status).toBe(200);
  return (await res.text()).replace(/<!-- -->/g, "");
}

describe("the admin's user search", () => {
  const admin = userBeforeAll("admin");

  it("finds an e-mail's start, a name's word, an exact e-mail and a domain, in any case, through the index", async () => {
    await env.DB.prepare(
      `with recursive n(i) as (select 1 union all select i + 1 from n where i < ?)
       insert into users (id, email) select 'bulk-' || i, 'bulk' || i || '@many.test' from n`,
    )
      .bind(BULK)
      .run();
    await env.DB.prepare(
      `insert into profiles (user_id, creator_id, full_name, approval_status) select id, 'c' || substr(id, 6), 'Bulk Person ' || substr(id, 6), 'approved' from users where id like 'bulk-%'`,
    ).run();
    const casey = await createUser("creator", { email: "casey.jones@okonkwo-studio.test", fullName: "Casey Adaeze Okonkwo" });
    const other = await createUser("creator", { email: "someone.else@elsewhere.test", fullName: "Someone Else" });
    await env.DB.exec("ANALYZE");
    await found("warm", admin.cookie);

    for (const q of ["casey.j", "ADAEZE", "okonkwo", "casey.jones@okonkwo-studio.test", "@okonkwo-studio.test"]) {
      let html = "";
      const read = await rowsReadPerStatement(async () => {
        html = await found(q, admin.cookie);
      });
      expect(html, q).toContain(casey.email);
      expect(html, q).not.toContain(other.email);
      expect(html, q).toContain("1 user");
      // Read through the index: a few rows, not the 5,000 bulk users (instr read all of them).
      expect(Math.max(...read), q).toBeLessThan(200);
    }

    // Names and e-mails that change are found by their new text only (the triggers).
    await env.DB.prepare("update profiles set full_name = 'Someone Renamed' where user_id = ?").bind(other.id).run();
    await env.DB.prepare("update users set email = 'moved@newplace.test' where id = ?").bind(other.id).run();
    expect(await found("renamed", admin.cookie)).toContain("moved@newplace.test");
    expect(await found("newplace", admin.cookie)).toContain("moved@newplace.test");
    expect(await found("elsewhere", admin.cookie)).toContain("No users match these filters.");
    // A deleted user leaves the index.
    await env.DB.prepare("delete from users where id = ?").bind(other.id).run();
    expect(await found("newplace", admin.cookie)).toContain("No users match these filters.");

    // Two characters have no trigram: they are still found, by reading every user as before.
    expect(await found("ok", admin.cookie)).toContain(casey.email);
  });
});
