import { env } from "cloudflare:workers";
import { desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { profiles, users } from "~/db/schema";
import { db } from "~/platform/db.server";
import { createUser } from "../../factories/users";
import { queryPlan } from "../d1-calls";

// Decision 0339 (issue 45 §3, found by npm run bench:scale at 100,000 creators): the admin's user
// list, newest first, reads its page through users_created_idx instead of sorting every user
// (300,132 rows read per /admin load at 100,000 creators before, 62 after).

describe("the admin's user list, newest first", () => {
  it("is read in users_created_idx's order, not sorted whole", async () => {
    await Promise.all(Array.from({ length: 30 }, () => createUser("creator")));
    await env.DB.exec("ANALYZE");
    // The statement listUsers runs for a page (user-list.server.ts), without a search or filter.
    const query = db()
      .select({ id: users.id })
      .from(users)
      .innerJoin(profiles, eq(profiles.userId, users.id))
      .orderBy(desc(users.createdAt), users.id)
      .limit(20)
      .offset(0);
    const plan = await queryPlan(query);
    expect(plan).toContain("SCAN users USING INDEX users_created_idx");
    expect(plan).not.toContain("USE TEMP B-TREE FOR ORDER BY");
  });
});
